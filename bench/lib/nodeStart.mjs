// The start-up floor: `node -e 0` spawned the way the bench spawns a client (the same node, the
// same environment, a fresh 120x40 PTY), timed from the spawn until it has exited. No Node client
// can paint anything sooner. Attach and cold start spawn one between each of their own runs, so
// their p95 is judged against a floor taken in the same seconds on this shared, noisy machine.

import { performance } from 'node:perf_hooks';
import { BenchClient } from './client.mjs';
import { killAllWithEnv } from './procs.mjs';
import { INSTANCE_MARKER, benchEnv, newInstance } from './systems.mjs';

/**
 * `{ time(), end() }`: `time()` spawns one `node -e 0` and resolves with its spawn-to-exit time in
 * ms; `end()` ends, by pid, anything a failed run left behind.
 */
export function nodeStartFloor(ctx) {
  const instance = newInstance(ctx);
  const env = benchEnv(instance, {});
  return {
    async time() {
      const spawnedAt = performance.now();
      const client = new BenchClient({ argv: [process.execPath, '-e', '0'], env, cwd: ctx.runDir, cols: ctx.cols, rows: ctx.rows });
      try {
        const { exitCode } = await client.exited;
        const at = performance.now();
        if (exitCode !== 0) throw new Error(`node -e 0 exited with code ${exitCode}`);
        return at - spawnedAt;
      } finally {
        client.dispose();
      }
    },
    end: () => killAllWithEnv(INSTANCE_MARKER, instance),
  };
}

/** The metrics a measure adds for the floor it took between its runs. */
export function nodeStartMetrics(runs) {
  return [
    { key: 'nodeP50', label: `node -e 0 spawned between those runs, spawn to exit, p50 (${runs} runs)`, unit: 'ms' },
    { key: 'nodeP95', label: `node -e 0 spawned between those runs, spawn to exit, p95 (${runs} runs)`, unit: 'ms' },
  ];
}
