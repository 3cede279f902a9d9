// The rows of `a1 sessions`: every agent session the registry knows, once, from its newest resume
// record or else its history entry, with the live tab holding it. Pure: registry rows in, rows out.
import type { ResumeRecord } from '../lifecycle/records.js';
import type { HistoryEntry, TabRow } from '../store/registry.js';

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
  const rows = new Map<string, SessionRow>();
  for (const r of [...records].sort((a, b) => b.capturedAt - a.capturedAt)) {
    if (rows.has(r.sessionId)) continue;
    const tab = liveTabs.get(r.tabId);
    rows.set(r.sessionId, { sessionId: r.sessionId, agent: r.agentKind, name: tab?.name ?? r.name, cwd: r.cwd, tabId: tab ? tab.id : null, asleep: tab?.lifecycle === 'suspended', state: r.origin, at: r.capturedAt });
  }
  for (const h of history) {
    if (!h.sessionId || rows.has(h.sessionId)) continue;
    rows.set(h.sessionId, { sessionId: h.sessionId, agent: h.agentKind, name: h.name, cwd: h.cwd, tabId: null, asleep: false, state: h.reason, at: h.at });
  }
  return [...rows.values()].sort((a, b) => b.at - a.at);
}
