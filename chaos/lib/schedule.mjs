// When the chaos run kills the server, and how fast tabs print: pure, and seeded, so a failing
// run can be repeated with its printed seed.

/**
 * Lines per tab the run aims at. A tab's retained lines are read from the recovery file its
 * holder writes when the child exits, which keeps the screen and 2,000 lines of history
 * (RECOVERY_SCROLLBACK_LINES in src/holder/recovery.ts): a margin below it, so every line the
 * run printed is still there to check.
 */
export const LINE_BUDGET = 1_500;
/** Printing also spans the last replacement, the after-listing and the process count. */
export const SETTLE_ALLOWANCE_MS = 20_000;
/** Faster than this, five tabs would be a flood benchmark, not a line count. */
export const MIN_INTERVAL_MS = 5;

/** The bench's seeded generator (mulberry32), so a run's kill moments can be repeated. */
export { seededRandom } from '../../bench/lib/stats.mjs';

/**
 * `kills` moments in [0, seconds), as ms from the start of the kill phase, ascending: uniform
 * and independent, so some fall close together (a kill as soon as the replacement serves) and
 * some far apart.
 */
export function killOffsets(kills, seconds, random) {
  const offsets = [];
  for (let i = 0; i < kills; i++) offsets.push(Math.floor(random() * seconds * 1000));
  return offsets.sort((a, b) => a - b);
}

/** The print interval that keeps a tab's lines within LINE_BUDGET over the run. */
export function printIntervalMs(seconds) {
  return Math.max(MIN_INTERVAL_MS, Math.ceil((seconds * 1000 + SETTLE_ALLOWANCE_MS) / LINE_BUDGET));
}
