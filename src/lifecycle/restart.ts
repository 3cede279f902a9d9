// The holder's restart policy after its child exits (SPEC §10, §15 "Exit, crash, restart"). Pure:
// the holder keeps the crash times and the clock.

/** Crashes older than this no longer count towards failing the tab. */
export const CRASH_WINDOW_MS = 10 * 60_000;
/** The crash that makes the tab `failed` instead of restarting it. */
export const CRASHES_TO_FAIL = 3;
/** Backoff grows by this per earlier crash in the window: 0 s, 1 s, 2 s, ... */
export const RESTART_BACKOFF_STEP_MS = 1_000;

export interface ChildExit {
  code: number | null;
  /** Signal number, or null; 0 means none (node-pty reports 0 for a plain exit). */
  signal: number | null;
}

/** Exit code 0 and no signal is a clean exit; anything else is a crash. */
export function isCrash(exit: ChildExit): boolean {
  return !(exit.code === 0 && !exit.signal);
}

export type AfterExit =
  | { action: 'exited' }
  | { action: 'restart'; delayMs: number; crashTimes: number[] }
  | { action: 'fail'; crashTimes: number[] };

/** What to do after the child exits at `now`. `crashTimes` are earlier crashes as returned by the
 * previous decision; the returned ones are those still inside the window plus `now`. */
export function decideAfterExit(exit: ChildExit, crashTimes: readonly number[], now: number): AfterExit {
  if (!isCrash(exit)) return { action: 'exited' };
  const recent = crashTimes.filter((t) => now - t < CRASH_WINDOW_MS);
  const times = [...recent, now];
  if (times.length >= CRASHES_TO_FAIL) return { action: 'fail', crashTimes: times };
  return { action: 'restart', delayMs: recent.length * RESTART_BACKOFF_STEP_MS, crashTimes: times };
}
