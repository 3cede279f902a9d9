// The holder's exit policy (SPEC §10, §15 "Exit, crash, restart"): which exits are crashes, and
// what a crash does. Pure: the holder keeps the crash times, the clock and the facts.
//
// Only an agent's exit can be a crash: a1 resumes an agent's session, so the restart budget is for
// agents. A plain tab's program (a shell, or a command given with `a1 new -- CMD`) that ends is
// never started again by itself, as in tmux and zellij: the server closes a shell tab, a command
// tab stays as it ended.

/** Crashes older than this no longer count towards failing the tab. */
export const CRASH_WINDOW_MS = 10 * 60_000;
/** The crash that makes the tab `failed` instead of restarting it. */
export const CRASHES_TO_FAIL = 3;
/** Backoff grows by this per earlier crash in the window: 0 s, 1 s, 2 s, ... */
export const RESTART_BACKOFF_STEP_MS = 1_000;
/** An agent that dies of its interrupt signal this soon after its controller typed the key that
 * sends it was ended by the person, not a crash. Long enough for an agent that cleans up first. */
export const INTERRUPT_KEY_WINDOW_MS = 5_000;

const SIGINT = 2;
const SIGQUIT = 3;
/** What a shell reports for a child that died of a signal: 128 + its number. */
const SHELL_SIGNAL_STATUS = 128;

export type InterruptKey = 'ctrl+c' | 'ctrl+\\';

export interface ChildExit {
  code: number | null;
  /** Signal number, or null; 0 means none (node-pty reports 0 for a plain exit). */
  signal: number | null;
}

/** What the holder knew when its child ended. */
export interface ExitFacts {
  /** The tab runs an agent: it has an agent kind, or something in it reported over its bridge. */
  agent: boolean;
  /** The agent's status said it was working (mid-turn). */
  working: boolean;
  /** When the controller last typed each interrupt key (ms, the exit's clock); absent: never. */
  interruptKeyAt: Partial<Record<InterruptKey, number>>;
  now: number;
}

/** The interrupt key whose signal (or a shell's 128 + signal status) ended the child, if any. */
function interruptOf(exit: ChildExit): InterruptKey | null {
  if (exit.signal === SIGINT || (!exit.signal && exit.code === SHELL_SIGNAL_STATUS + SIGINT)) return 'ctrl+c';
  if (exit.signal === SIGQUIT || (!exit.signal && exit.code === SHELL_SIGNAL_STATUS + SIGQUIT)) return 'ctrl+\\';
  return null;
}

/** Status 0 and no signal: the program finished. */
function isCleanExit(exit: ChildExit): boolean {
  return exit.code === 0 && !exit.signal;
}

/** A crash is an agent's exit that is neither clean nor its person's interrupt key: a non-zero
 * status, or a signal from elsewhere, or any end while its turn ran. A plain tab never crashes. */
export function isCrash(exit: ChildExit, f: ExitFacts): boolean {
  if (!f.agent || isCleanExit(exit)) return false;
  if (f.working) return true;
  const key = interruptOf(exit);
  const typedAt = key === null ? undefined : f.interruptKeyAt[key];
  return typedAt === undefined || f.now - typedAt > INTERRUPT_KEY_WINDOW_MS;
}

/** Kitty's modifier bits beyond Ctrl that leave Ctrl+C still Ctrl+C: caps and num lock. */
const KITTY_CTRL = 4;
const KITTY_LOCKS = 64 | 128;
/** A kitty `CSI code[:alternates] ; mods[:event] u` key; event 3 is a release. */
const KITTY_KEY = /\x1b\[(\d+)(?::\d*)*;(\d+)(?::(\d))?(?:;[\d:]*)?u/g;

/** The interrupt key one chunk of input bytes carries as its terminal sends it: the legacy control
 * byte (which the line discipline turns into the signal) or its kitty keyboard encoding (CSI 99;5u,
 * CSI 92;5u), which a program reading keys raw acts on itself. */
export function interruptKeyIn(bytes: string): InterruptKey | null {
  if (bytes.includes('\x03')) return 'ctrl+c';
  if (bytes.includes('\x1c')) return 'ctrl+\\';
  for (const [, code, mods, event] of bytes.matchAll(KITTY_KEY)) {
    if (event === '3' || ((Number(mods) - 1) & ~KITTY_LOCKS) !== KITTY_CTRL) continue;
    if (code === '99') return 'ctrl+c';
    if (code === '92') return 'ctrl+\\';
  }
  return null;
}

export type AfterExit =
  | { action: 'exited' }
  | { action: 'restart'; delayMs: number; crashTimes: number[] }
  | { action: 'fail'; crashTimes: number[] };

/** What to do after the child ended at `now`, `crash` as isCrash says. `crashTimes` are earlier
 * crashes as returned by the previous decision; the returned ones are those still inside the
 * window plus `now`. */
export function decideAfterExit(crash: boolean, crashTimes: readonly number[], now: number): AfterExit {
  if (!crash) return { action: 'exited' };
  const recent = crashTimes.filter((t) => now - t < CRASH_WINDOW_MS);
  const times = [...recent, now];
  if (times.length >= CRASHES_TO_FAIL) return { action: 'fail', crashTimes: times };
  return { action: 'restart', delayMs: recent.length * RESTART_BACKOFF_STEP_MS, crashTimes: times };
}
