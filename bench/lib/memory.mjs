// Proportional set size (PSS) from /proc/<pid>/smaps_rollup: each shared page counts as its share
// among the processes mapping it, so the PSS of a set of processes sums to what they really cost.

import fs from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';

/** The process's PSS in KiB; throws if it is gone. */
export function pssKiB(pid) {
  const rollup = fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
  const match = /^Pss:\s+(\d+) kB$/m.exec(rollup);
  if (!match) throw new Error(`no Pss line in /proc/${pid}/smaps_rollup`);
  return Number(match[1]);
}

/**
 * The process's private memory (USS) in KiB: pages no other process maps. Unlike PSS it does not
 * depend on how many other processes on the machine share the same binary's pages.
 */
export function privateKiB(pid) {
  const rollup = fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
  const field = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB$`, 'm').exec(rollup)?.[1] ?? NaN);
  const kib = field('Private_Clean') + field('Private_Dirty');
  if (!Number.isFinite(kib)) throw new Error(`no Private lines in /proc/${pid}/smaps_rollup`);
  return kib;
}

/** Two readings this far apart that agree count as settled: output parsed, allocations done. */
const SETTLE_INTERVAL_MS = 300;
/** Agreement within this is noise (a GC, a timer's allocation), not work still in progress. */
const SETTLE_TOLERANCE_KIB = 256;
const SETTLE_READINGS = 3;

/**
 * The summed PSS of `pids` once it has stopped moving: `SETTLE_READINGS` readings in a row within
 * `SETTLE_TOLERANCE_KIB` of each other, or the last reading at the deadline (reported, not hidden).
 */
export async function settledPssKiB(pids, { timeoutMs, log }) {
  const deadline = Date.now() + timeoutMs;
  const readings = [];
  for (;;) {
    readings.push(pids.reduce((sum, pid) => sum + pssKiB(pid), 0));
    const recent = readings.slice(-SETTLE_READINGS);
    if (recent.length === SETTLE_READINGS && Math.max(...recent) - Math.min(...recent) <= SETTLE_TOLERANCE_KIB) return recent.at(-1);
    if (Date.now() >= deadline) {
      log?.(`PSS of ${pids.join('+')} still moving after ${timeoutMs} ms (${recent.join(', ')} KiB); taking the last reading`);
      return recent.at(-1);
    }
    await delay(SETTLE_INTERVAL_MS);
  }
}
