// How many runs a property test makes. `npm test` makes the full count each test names;
// `npm run test:fast` sets A1_PROPERTY_SHARE to make only that share of it, for feedback within a
// minute (issue 29). The simulation has its own knob, A1_SIM_RUNS (test/sim/run.ts).

/** fast-check's own default, for properties that name no count. */
export const FAST_CHECK_DEFAULT_RUNS = 100;

/** A reduced property still makes this many runs (or its full count, when that is fewer): fewer
 * would rarely reach past the simplest inputs. */
const MIN_REDUCED_RUNS = 20;

/** The runs for a property whose full count is `full`: all of them unless A1_PROPERTY_SHARE is a
 * share between 0 and 1. */
export function propertyRuns(full: number): number {
  const share = Number(process.env.A1_PROPERTY_SHARE);
  if (!(share > 0 && share < 1)) return full;
  return Math.max(Math.min(full, MIN_REDUCED_RUNS), Math.ceil(full * share));
}

/**
 * What a long property awaits each run so that its worker's event loop turns every `every` runs:
 * fast-check runs a property's runs back to back, and a worker thread whose loop is blocked for a
 * minute on a loaded machine misses vitest's own replies ("Timeout calling onTaskUpdate").
 */
export function loopTurns(every = 50): () => Promise<void> {
  let n = 0;
  return () => (++n % every === 0 ? new Promise<void>((resolve) => setImmediate(resolve)) : Promise.resolve());
}
