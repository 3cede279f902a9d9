// The rows of `a1 sessions`: every agent session the registry knows, once, from its newest resume
// record or else its history entry, with the live tab holding it. Pure: registry rows in, rows out.
import type { ResumeRecord } from '../lifecycle/records.js';
import type { HistoryEntry, TabRow } from '../store/registry.js';
import { sessionSources } from '../lifecycle/sessionSources.js';
import { sessionStateWord } from '../status/vocabulary.js';
import type { ScriptSession } from '../status/scripting.js';

/** A row of `a1 sessions` and of its `--json` (ScriptSession, src/status/scripting.ts). */
export type SessionRow = ScriptSession;

/** One row per session, newest first: a session's newest resume record wins over older ones and
 * over its history; `history` comes newest first, as the registry lists it. */
export function sessionRows(records: readonly ResumeRecord[], history: readonly HistoryEntry[], tabs: readonly Pick<TabRow, 'id' | 'name' | 'lifecycle'>[]): SessionRow[] {
  const liveTabs = new Map(tabs.map((t) => [t.id, t]));
  const newestFirst = [...records].sort((a, b) => b.capturedAt - a.capturedAt);
  const rows = [...sessionSources(newestFirst, history).values()].map((s): SessionRow => {
    const tab = s.record ? liveTabs.get(s.record.tabId) : undefined;
    const state = sessionStateWord({ tabLifecycle: tab?.lifecycle ?? null, fromRecord: s.record !== null, historyReason: s.record ? null : s.state });
    return { sessionId: s.sessionId, agent: s.agent, name: tab?.name ?? s.name, cwd: s.cwd, state, tabId: tab ? tab.id : null, record: s.record?.origin ?? null, at: s.at };
  });
  return rows.sort((a, b) => b.at - a.at);
}
