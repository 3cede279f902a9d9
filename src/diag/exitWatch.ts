// Unrequested exits, recognised from the structured events a process already logs, so the crash
// path needs no hook inside the holder's or the server's state machine: a pure reducer over log
// entries says when an entry means "a process ended that nobody asked to end".
//   holder: child-exited after child-started, with no terminate or child-restart between
//           (terminate and child-restart are a1 asking the child to end) → child-exit, when the
//           holder judged it a crash (`crash`): a program that finished, a plain tab's program
//           however it ended, an agent its person interrupted are none (SPEC §15);
//   server: holder-timeout (the server ends a holder that missed its heartbeats) → holder-timeout;
//           holder-died (logged only for a holder no close, sleep or stop retired) → holder-exit,
//           unless it is the death of a holder just ended for a timeout (already recorded).
import type { LogEntry, LogFields } from '../log.js';
import type { CrashReason } from './crashRecord.js';

export interface ExitWatchState {
  /** a1 asked the current child to end. */
  requested: boolean;
  /** Tabs whose holder the server ended for missing heartbeats, until their death is logged. */
  timedOut: readonly string[];
}

export const INITIAL_EXIT_WATCH: ExitWatchState = { requested: false, timedOut: [] };

export interface ExitRecordDue {
  reason: CrashReason;
  detail: LogFields;
}

/** The next state, and the crash record `entry` calls for, if any. */
export function watchExits(state: ExitWatchState, entry: LogEntry): { state: ExitWatchState; due: ExitRecordDue | null } {
  switch (entry.event) {
    case 'child-started':
      return { state: { ...state, requested: false }, due: null };
    case 'terminate':
    case 'child-restart':
      return { state: { ...state, requested: true }, due: null };
    case 'child-exited':
      return {
        state,
        due: state.requested || entry.crash !== true ? null : { reason: 'child-exit', detail: { exitCode: entry.code, signal: entry.signal, childPid: entry.childPid, childInc: entry.childInc } },
      };
    case 'holder-died': {
      const tab = String(entry.tab);
      if (state.timedOut.includes(tab)) return { state: { ...state, timedOut: state.timedOut.filter((t) => t !== tab) }, due: null };
      return { state, due: { reason: 'holder-exit', detail: { tab: entry.tab } } };
    }
    case 'holder-timeout':
      return {
        state: { ...state, timedOut: [...state.timedOut.filter((t) => t !== String(entry.tab)), String(entry.tab)] },
        due: { reason: 'holder-timeout', detail: { tab: entry.tab, silentMs: entry.silentMs } },
      };
    default:
      return { state, due: null };
  }
}
