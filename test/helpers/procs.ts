// Process cleanup for tests: every process a test starts is ended by pid, never by name. Pids
// are remembered with their start time so a pid recycled by an unrelated process is left alone.

import fs from 'node:fs';
import { waitFor } from './wait.js';

interface Tracked {
  pid: number;
  startTime: string | null;
  /** The test started this process as a process-group leader, so its group is the test's too. */
  group: boolean;
}

const tracked = new Map<number, Tracked>();

/** Ending a process tree can take a few rounds when a supervisor restarts what was just killed. */
const KILL_ALL_TIMEOUT_MS = 10_000;

/** The fields of /proc/<pid>/stat after the command name, from field 3 (the state) on, so that
 * field N is at index N - 3; null when the process is gone. */
export function statFields(pid: number): string[] | null {
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // The command name (field 2) is parenthesised and may itself contain spaces or parentheses.
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** Field 22 of /proc/<pid>/stat (start time in clock ticks since boot), or null if unreadable. */
export function startTimeOf(pid: number): string | null {
  return statFields(pid)?.[19] ?? null;
}

/** The process state letter, field 3 ('T' when stopped, 'Z' a zombie), or null if unreadable. */
export function stateOf(pid: number): string | null {
  return statFields(pid)?.[0] ?? null;
}

/** How many file descriptors the process holds (its /proc/<pid>/fd entries), or null once gone. */
export function fdCount(pid: number): number | null {
  try {
    return fs.readdirSync(`/proc/${pid}/fd`).length;
  } catch {
    return null;
  }
}

/** The process's resident set (VmRSS) in KiB, or null once gone. */
export function rssKiB(pid: number): number | null {
  try {
    const m = /^VmRSS:\s+(\d+) kB$/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

/** True while the process exists and is not a zombie waiting to be reaped. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  return stateOf(pid) !== 'Z';
}

export function track(pid: number, opts: { group?: boolean } = {}): void {
  tracked.set(pid, { pid, startTime: startTimeOf(pid), group: opts.group ?? false });
}

function sigkill(target: number): void {
  try {
    process.kill(target, 'SIGKILL');
  } catch {
    // Already gone: nothing left to end.
  }
}

/** SIGKILLs every tracked process that is still the process we tracked, then forgets them all. */
export function killTracked(): void {
  for (const { pid, startTime, group } of tracked.values()) {
    if (startTime !== null && startTimeOf(pid) !== startTime) continue;
    if (group) sigkill(-pid);
    sigkill(pid);
  }
  tracked.clear();
}

/** Pids of every process (other than this one) whose environment has `key=value`. */
export function pidsWithEnv(key: string, value: string): number[] {
  const wanted = `${key}=${value}`;
  const pids: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    let environ: string;
    try {
      environ = fs.readFileSync(`/proc/${entry}/environ`, 'latin1');
    } catch {
      continue; // exited meanwhile, or another user's process
    }
    if (environ.split('\0').includes(wanted)) pids.push(pid);
  }
  return pids;
}

/**
 * SIGKILLs every process whose environment has `key=value` (e.g. A1_HOME=<a test's home>) until
 * none is left, since a supervisor may start a replacement between two scans. Returns every pid
 * it signalled.
 */
export async function killAllWithEnv(key: string, value: string): Promise<number[]> {
  const killed = new Set<number>();
  await waitFor(
    () => {
      const pids = pidsWithEnv(key, value).filter(isAlive);
      for (const pid of pids) {
        sigkill(pid);
        killed.add(pid);
      }
      return pids.length === 0;
    },
    { timeoutMs: KILL_ALL_TIMEOUT_MS, what: `no process left with ${key}=${value}` },
  );
  return [...killed];
}
