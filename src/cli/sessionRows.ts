// The rows of `a1 sessions`: every agent session the registry knows, once, from its newest resume
// record or else its history entry, with the live tab holding it. Pure: registry rows in, rows out.
import type { ResumeRecord } from '../lifecycle/records.js';
import type { HistoryEntry, TabRow } from '../store/registry.js';
import { sessionSources } from '../lifecycle/sessionSources.js';

/** A row of `a1 sessions` (and of its `--json`, which tests read as it is). */
export interface SessionRow {
  sessionId: string;
  agent: string;
  name: string;
  cwd: string;
  /** The live tab holding it, when one does. */
  tabId: string | null;
  /** The tab holding it sleeps. */
  asleep: boolean;
  /** live, quit or sleep (a resume record), or closed, reboot or expired (history). */
  state: string;
  at: number;
}

/** One row per session, newest first: a session's newest resume record wins over older ones and
 * over its history; `history` comes newest first, as the registry lists it. */
export function sessionRows(records: readonly ResumeRecord[], history: readonly HistoryEntry[], tabs: readonly Pick<TabRow, 'id' | 'name' | 'lifecycle'>[]): SessionRow[] {
  const liveTabs = new Map(tabs.map((t) => [t.id, t]));
  const newestFirst = [...records].sort((a, b) => b.capturedAt - a.capturedAt);
  const rows = [...sessionSources(newestFirst, history).values()].map((s): SessionRow => {
    const tab = s.record ? liveTabs.get(s.record.tabId) : undefined;
    return { sessionId: s.sessionId, agent: s.agent, name: tab?.name ?? s.name, cwd: s.cwd, tabId: tab ? tab.id : null, asleep: tab?.lifecycle === 'suspended', state: s.state, at: s.at };
  });
  return rows.sort((a, b) => b.at - a.at);
}
