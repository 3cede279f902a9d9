// One simulated run: a served world, a generated schedule of faults and activity, then (for the
// convergence property) a calm period. Returns every invariant the world saw broken.
import { apply, type Action } from './actions.js';
import { convergenceViolations, prelude, settle } from './settle.js';
import { newWorld, type Booter, type Reducer } from './world.js';

/** Interleavings across both properties: 10,000 in CI (issue 7); A1_SIM_RUNS sets another count. */
export const SIM_RUNS = Number(process.env.A1_SIM_RUNS) || 10_000;
export const SCHEDULE_LENGTH = 80;

/** Runs one schedule; returns every invariant the world saw broken. `seen` collects how often each
 * situation arose. */
export function simulate(schedule: Action[], opts: { reducer?: Reducer; booter?: Booter; settle?: boolean; seen?: Record<string, number>; keepsStrays?: boolean } = {}): string[] {
  const w = newWorld(opts.reducer, opts.booter);
  w.keepsStrays = opts.keepsStrays;
  if (opts.seen) w.seen = opts.seen;
  prelude(w);
  for (const a of schedule) {
    apply(w, a);
    if (w.violations.length > 0) return w.violations;
  }
  if (!opts.settle) return w.violations;
  settle(w);
  return [...w.violations, ...convergenceViolations(w)];
}

