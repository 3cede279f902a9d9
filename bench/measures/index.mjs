// Every measure the bench knows, in run order. A measure is
// `{ name, metrics: [{ key, label, unit }], prepare(ctx) -> input, drivers: { a1, tmux } }`,
// where each driver is `(ctx, input) -> { [metric key]: number }` and owns every process it starts.
// Lower is better for every metric, so the ratio a1/tmux reads the same way for all.

import { echo } from './echo.mjs';
import { throughput } from './throughput.mjs';

export const MEASURES = [throughput, echo];
