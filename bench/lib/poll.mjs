// Waiting on conditions the bench cannot be told about (a process's memory, a registry row):
// polled, with a deadline, never a fixed sleep.

import { setTimeout as delay } from 'node:timers/promises';

/** Often enough that a measured wait is not dominated by the poll; rare enough to stay off the CPU. */
export const POLL_INTERVAL_MS = 50;

/** Resolves with the first truthy value of `probe()`; throws after `timeoutMs`. */
export async function pollUntil(probe, { timeoutMs, intervalMs = POLL_INTERVAL_MS, what }) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() >= deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await delay(intervalMs);
  }
}
