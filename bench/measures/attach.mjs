// Attach: the time from spawning a client (`a1`; `tmux attach`) until the last row of a full
// screen is painted. The tab/pane holds a screen filled with distinct rows whose last row is a
// marker, printed last and left on screen by a program that then waits; each run spawns a fresh
// client in a fresh 120x40 PTY and ends it by pid, which both systems treat as a detach. Before
// each attach, one `node -e 0` is spawned the same way (lib/nodeStart.mjs): the floor the target
// judges attach's p95 against, taken in the same seconds.

import { performance } from 'node:perf_hooks';
import { nodeStartFloor, nodeStartMetrics } from '../lib/nodeStart.mjs';
import { percentile } from '../lib/stats.mjs';
import { a1, tmux, withSystem } from '../lib/systems.mjs';

/** The figure. */
export const ATTACH_RUNS = 20;
/** More rows than any surface, so every row of the screen holds text. */
const FILL_ROWS = 60;
/** Typed as `ATTACH-%s LAST-ROW` so the command's own echo never contains it. */
const MARKER = 'ATTACH-LAST-ROW';
const FILL_TIMEOUT_MS = 10_000;
/** Far above any target: a slow attach is measured, a stuck one fails. */
const ATTACH_TIMEOUT_MS = 15_000;

const markerShown = (lines) => lines.some((line) => line.includes(MARKER));

async function fillScreen(client) {
  client.write(
    `clear; for i in $(seq 1 ${FILL_ROWS}); do printf 'row %03d of a full screen, each one distinct: %s\\n' $i $((i * 7919)); done; ` +
      `printf 'ATTACH-%s' LAST-ROW; exec sleep 1000000\r`,
  );
  await client.waitForScreen(markerShown, { timeoutMs: FILL_TIMEOUT_MS, what: 'the full screen' });
}

async function timeAttaches(ctx, client, instance) {
  await fillScreen(client);
  client.dispose();
  await client.exited;
  const samples = [];
  const floor = nodeStartFloor(ctx);
  const floorSamples = [];
  try {
    for (let run = 0; run < ATTACH_RUNS; run++) {
      floorSamples.push(await floor.time());
      samples.push(await timeAttach(instance));
    }
  } finally {
    await floor.end();
  }
  return { p50: percentile(samples, 50), p95: percentile(samples, 95), nodeP50: percentile(floorSamples, 50), nodeP95: percentile(floorSamples, 95) };
}

async function timeAttach(instance) {
  const spawnedAt = performance.now();
  const attached = instance.attach();
  try {
    const { at, lines } = await attached.waitForScreen(markerShown, { timeoutMs: ATTACH_TIMEOUT_MS, what: 'the last row after attaching' });
    // A screen painted only down to the marker is not the full screen the issue asks for.
    if (!lines.some((line) => line.startsWith('row '))) throw new Error('the marker arrived without the rows above it');
    return at - spawnedAt;
  } finally {
    attached.dispose();
    await attached.exited;
  }
}

export const attach = {
  name: 'attach',
  description: 'attach a client to a full screen, server running, p50/p95 of 20 (a1, tmux)',
  metrics: [
    { key: 'p50', label: `attach to a full screen p50 (${ATTACH_RUNS} runs)`, unit: 'ms' },
    { key: 'p95', label: `attach to a full screen p95 (${ATTACH_RUNS} runs)`, unit: 'ms' },
    ...nodeStartMetrics(ATTACH_RUNS),
  ],
  prepare: () => ({}),
  drivers: {
    a1: (ctx) => withSystem(a1, ctx, (client, instance) => timeAttaches(ctx, client, instance)),
    tmux: (ctx) => withSystem(tmux, ctx, (client, instance) => timeAttaches(ctx, client, instance)),
  },
};
