// A resume record as it travels (SPEC §9): the server hands a holder the record it may resume its
// agent session from (its init, setResume). The validator that decides on it is
// src/lifecycle/records.ts; the store keeps the records.

/** Why a record exists: `live` and `quit` are defensive captures, `sleep` is the user's intent. */
export type RecordOrigin = 'live' | 'quit' | 'sleep';

export interface ResumeRecord {
  id: string;
  tabId: string;
  agentKind: string;
  sessionId: string;
  cwd: string;
  name: string;
  origin: RecordOrigin;
  /** Epoch milliseconds. */
  capturedAt: number;
  /** The tab's own argv when it had one (a generic agent's program); null for the default. */
  command?: string[] | null;
}

/** What a holder keeps so that it can resume its agent after a crash on its own (it restarts
 * children while no server runs, SPEC §15): the record the server validated, and its argv. */
export interface ResumeAuthority {
  record: ResumeRecord;
  argv: string[];
}
