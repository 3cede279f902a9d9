// Where each agent session a1 knows was last seen: its newest resume record, or else its newest
// history entry. `a1 sessions` lists them all; the picker lists the ones no live tab holds
// (src/server/answers.ts pastSessions). Pure: registry rows in, one source per session out.
import type { ResumeRecord } from './records.js';

/** The fields of a history entry (src/store/records.ts) a session's row needs. */
export interface SessionHistory {
  sessionId: string | null;
  agentKind: string;
  name: string;
  cwd: string;
  reason: string;
  at: number;
}

/** One session's newest source: `record` when a resume record names it, else its history entry. */
export interface SessionSource {
  sessionId: string;
  agent: string;
  name: string;
  cwd: string;
  /** live, quit or sleep (a resume record), or closed, reboot or expired (history). */
  state: string;
  at: number;
  record: ResumeRecord | null;
}

/**
 * Per session, in order of first appearance: its newest record (the first of equals in `records`'
 * order), or else its first history entry (`history` comes newest first). `skip` leaves out a
 * session's sources, given the tab a record names (null for history).
 */
export function sessionSources(
  records: Iterable<ResumeRecord>,
  history: Iterable<SessionHistory>,
  skip: (sessionId: string, recordTabId: string | null) => boolean = () => false,
): Map<string, SessionSource> {
  const out = new Map<string, SessionSource>();
  for (const r of records) {
    if (skip(r.sessionId, r.tabId)) continue;
    const seen = out.get(r.sessionId);
    if (!seen || seen.at < r.capturedAt) {
      out.set(r.sessionId, { sessionId: r.sessionId, agent: r.agentKind, name: r.name, cwd: r.cwd, state: r.origin, at: r.capturedAt, record: r });
    }
  }
  for (const h of history) {
    if (!h.sessionId || out.has(h.sessionId) || skip(h.sessionId, null)) continue;
    out.set(h.sessionId, { sessionId: h.sessionId, agent: h.agentKind, name: h.name, cwd: h.cwd, state: h.reason, at: h.at, record: null });
  }
  return out;
}
