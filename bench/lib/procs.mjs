// Ending what a bench run started, by pid: each run marks its processes with an environment
// variable, which every descendant inherits (tmux panes, a1's server, holders and tabs).

import fs from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';

/** Ending a tree can take a few rounds when a supervisor restarts what was just killed. */
const KILL_ALL_TIMEOUT_MS = 10_000;
const KILL_ALL_INTERVAL_MS = 50;

/** True while the process exists and is not a zombie waiting to be reaped. */
export function isAlive(pid) {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if (error.code !== 'EPERM') return false;
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** Pids of every live process (other than this one) whose environment has `key=value`. */
export function pidsWithEnv(key, value) {
  const wanted = `${key}=${value}`;
  const pids = [];
  for (const entry of fs.readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    let environ;
    try {
      environ = fs.readFileSync(`/proc/${entry}/environ`, 'latin1');
    } catch {
      continue; // exited meanwhile, or another user's process
    }
    if (environ.split('\0').includes(wanted) && isAlive(pid)) pids.push(pid);
  }
  return pids;
}

export function sigkill(pid) {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

/** SIGKILLs every process with `key=value` until none is left; throws if some survive. */
export async function killAllWithEnv(key, value) {
  const deadline = Date.now() + KILL_ALL_TIMEOUT_MS;
  for (;;) {
    const pids = pidsWithEnv(key, value);
    if (pids.length === 0) return;
    if (Date.now() >= deadline) throw new Error(`processes with ${key}=${value} survived SIGKILL: ${pids.join(', ')}`);
    pids.forEach(sigkill);
    await delay(KILL_ALL_INTERVAL_MS);
  }
}
