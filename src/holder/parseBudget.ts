// How much of the CPU a tab's output may take to parse (SPEC §7): a tab nobody views parses at
// most a share of each window, so a background flood leaves the CPU to the tab someone types in.

/** A tab nobody views may spend this many ms parsing per window of UNVIEWED_WINDOW_MS: about
 * 3% of a core, so 9 flooding background tabs leave the viewed tab's echo p99 within 1.25x of
 * idle (2 ms per 16 ms measured 2.55x). Such a tab still reads about 0.4 MB/s, far above what
 * agents print; viewing it reads at full speed. */
export const UNVIEWED_PARSE_MS = 1;
export const UNVIEWED_WINDOW_MS = 32;

/** A duty cycle: time spent per window, and how long to wait once the share is used up. */
export class ParseBudget {
  private windowStart = 0;
  private spent = 0;
  constructor(
    private readonly shareMs: number = UNVIEWED_PARSE_MS,
    private readonly windowMs: number = UNVIEWED_WINDOW_MS,
  ) {}

  spend(from: number, to: number): void {
    if (from - this.windowStart >= this.windowMs) {
      this.windowStart = from;
      this.spent = 0;
    }
    this.spent += to - from;
  }

  waitMs(now: number): number {
    if (this.spent < this.shareMs) return 0;
    return Math.max(1, Math.ceil(this.windowStart + this.windowMs - now));
  }
}

/** How long the PTY pauses after a chunk of output: a viewed tab never waits (SPEC §7: flow
 * control slows only a background flood, never the tab someone types in); an unviewed one waits
 * out its budget. */
export function readPauseMs(viewed: boolean, budget: ParseBudget, now: number): number {
  return viewed ? 0 : budget.waitMs(now);
}
