// Cold start (a1 only): the time from spawning `a1` in a fresh 120x40 PTY, with no server running
// and an empty A1_HOME, until the full first screen is painted: the strip with the first tab's chip
// and the `+` chip, and that tab's shell prompt on the surface below. Each run has its own fresh
// A1_HOME, and every process it started (client, server, holder, shell) is ended by pid after it.
// Before each run, one `node -e 0` is spawned the same way (lib/nodeStart.mjs): the floor the
// target judges cold start's p95 against, taken in the same seconds.

import { performance } from 'node:perf_hooks';
import { nodeStartFloor, nodeStartMetrics } from '../lib/nodeStart.mjs';
import { percentile } from '../lib/stats.mjs';
import { PROMPT, freshA1Home, newInstance } from '../lib/systems.mjs';

/** Enough for a p95 (the 19th of 20), as many as attach. */
export const COLD_START_RUNS = 20;
/** Far above any target: a slow start is measured, a stuck one fails. */
const COLD_START_TIMEOUT_MS = 30_000;
const PROMPT_SEEN = PROMPT.trimEnd();

/** The strip (row 1) shows a chip and the trailing `+`, and the surface below shows the prompt. */
export function firstScreenPainted(lines) {
  const strip = lines[0]?.trimEnd() ?? '';
  return strip.endsWith('+') && strip.length > 1 && lines.slice(1).some((line) => line.includes(PROMPT_SEEN));
}

async function timeColdStart(ctx) {
  const { a1Client, remove } = freshA1Home(ctx, newInstance(ctx), { firstRun: true });
  try {
    const spawnedAt = performance.now();
    const client = a1Client();
    try {
      const { at } = await client.waitForScreen(firstScreenPainted, { timeoutMs: COLD_START_TIMEOUT_MS, what: 'the strip and the first tab\'s prompt' });
      return at - spawnedAt;
    } finally {
      client.dispose();
    }
  } finally {
    await remove();
  }
}

async function timeColdStarts(ctx) {
  const samples = [];
  const floor = nodeStartFloor(ctx);
  const floorSamples = [];
  try {
    for (let run = 0; run < COLD_START_RUNS; run++) {
      floorSamples.push(await floor.time());
      samples.push(await timeColdStart(ctx));
    }
  } finally {
    await floor.end();
  }
  return { p50: percentile(samples, 50), p95: percentile(samples, 95), nodeP50: percentile(floorSamples, 50), nodeP95: percentile(floorSamples, 95) };
}

export const coldStart = {
  name: 'cold-start',
  description: 'a1 with no server and an empty A1_HOME to the strip and first prompt, p50/p95 of 20 (a1)',
  metrics: [
    { key: 'p50', label: `cold start, no server, to the strip and first prompt, p50 (${COLD_START_RUNS} runs)`, unit: 'ms' },
    { key: 'p95', label: `cold start, no server, to the strip and first prompt, p95 (${COLD_START_RUNS} runs)`, unit: 'ms' },
    ...nodeStartMetrics(COLD_START_RUNS),
  ],
  prepare: () => ({}),
  drivers: { a1: (ctx) => timeColdStarts(ctx) },
};
