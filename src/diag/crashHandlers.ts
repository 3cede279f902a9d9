// A resident process's crash path (SPEC §3: crash-only; §13): an exception or rejection nothing
// handled is logged by its error's name and code, written as a crash record with the process's
// last log entries, and ends the process with CRASH_EXIT_CODE. Its start path is its recovery.
import type { ProcessLogger, LogFields } from '../log.js';
import { CRASH_EXIT_CODE, errorDetail, writeCrashRecord, type CrashReason } from './crashRecord.js';
import { INITIAL_EXIT_WATCH, watchExits } from './exitWatch.js';

export interface DiagContext {
  /** 'server', or 'holder-<tabId>': the log file's name too. */
  role: string;
  /** The holder's incarnation, or the server's epoch as a string; null before it is known. */
  incarnation: string | null;
  crashDir: string;
  log: ProcessLogger;
}

/** Writes a crash record carrying the process's recent log entries; returns its file or null. */
export function recordCrash(ctx: DiagContext, reason: CrashReason, detail: LogFields = {}): string | null {
  return writeCrashRecord(ctx.crashDir, { role: ctx.role, incarnation: ctx.incarnation, reason, detail, events: ctx.log.recent() });
}

/** The crash path proper: log the error's name and code, write the record, exit. */
export function handleCrash(ctx: DiagContext, reason: CrashReason, err: unknown, exit: (code: number) => void): void {
  const detail = errorDetail(err);
  ctx.log.error(reason === 'uncaught-exception' ? 'uncaught' : 'unhandled-rejection', detail);
  recordCrash(ctx, reason, detail);
  exit(CRASH_EXIT_CODE);
}

/** Installs the handlers, once per process. */
export function installCrashHandlers(ctx: DiagContext): void {
  let crashed = false;
  const crash = (reason: CrashReason, err: unknown): void => {
    // A second failure while the first is being recorded must not write over it or loop.
    if (crashed) return;
    crashed = true;
    handleCrash(ctx, reason, err, (code) => process.exit(code));
  };
  process.on('uncaughtException', (err) => crash('uncaught-exception', err));
  process.on('unhandledRejection', (reason) => crash('unhandled-rejection', reason));
}

/** Writes a crash record for every unrequested exit the process logs (see exitWatch.ts). */
export function recordUnrequestedExits(ctx: DiagContext): () => void {
  let state = INITIAL_EXIT_WATCH;
  return ctx.log.onEntry((entry) => {
    const next = watchExits(state, entry);
    state = next.state;
    if (next.due) recordCrash(ctx, next.due.reason, next.due.detail);
  });
}
