// Carries out a retirement plan (SPEC §9 "Termination"): a graceful request, a bounded grace
// window, then SIGKILL, each signal verified by pid + start time. The effects are injected so the
// order and the timing can be tested with a fake clock.
import { setTimeout as delay } from 'node:timers/promises';
import { isLiveProcess, listProcesses, processGroupOf, signalVerified } from '../proc.js';
import type { PlannedProcess, ProcessRef, RetirementPlan } from './retirement.js';

export type TerminateSignal = 'SIGHUP' | 'SIGCONT' | 'SIGKILL';

export interface TerminateIO {
  signalGroup(pgid: number, signal: TerminateSignal): void;
  /** Verifies pid + start time first; false when the process is gone or not the same one. */
  signalProcess(ref: ProcessRef, signal: TerminateSignal): boolean;
  /** The same process, and not a zombie. */
  isAlive(ref: ProcessRef): boolean;
  sleep(ms: number): Promise<void>;
  now(): number;
}

/** Short enough that a close finishes soon after the last process exits, long enough not to spin. */
export const TERMINATE_POLL_MS = 25;
/** SIGKILL takes effect as soon as the process runs again; one still alive this long after it
 * cannot be ended by a1 (stuck in the kernel, or not ours to signal) and is reported as such,
 * never waited on for good. */
export const KILL_CONFIRM_MS = 2_000;
/** Group ids at or below this are never signalled: kill(-1) reaches every process we may signal. */
const LOWEST_SIGNALLABLE_GROUP = 2;

export const realTerminateIO: TerminateIO = {
  signalGroup(pgid, signal) {
    // Never our own group: that would end the server (or test runner) issuing the close.
    if (!Number.isSafeInteger(pgid) || pgid < LOWEST_SIGNALLABLE_GROUP || pgid === processGroupOf(process.pid)) return;
    try {
      process.kill(-pgid, signal);
    } catch (error) {
      // Gone, or only other users' processes left in it: nothing this user can end.
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ESRCH' && code !== 'EPERM') throw error;
    }
  },
  signalProcess(ref, signal) {
    try {
      return signalVerified(ref, signal);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EPERM') return false;
      throw error;
    }
  },
  isAlive: (ref) => isLiveProcess(ref),
  sleep: (ms) => delay(ms),
  now: () => Date.now(),
};

/**
 * Test-only (A1_TEST_SIGNAL_REFUSED, src/diag/testFaults.ts): signals to the processes `refused`
 * picks fail as the kernel fails them for a process a1 may not signal (EPERM), a group signal
 * still reaching the group's other members; so a test can close a tab one of whose processes
 * cannot be ended.
 */
export function refusingSignals(io: TerminateIO, refused: (pid: number) => boolean): TerminateIO {
  return {
    ...io,
    signalGroup(pgid, signal) {
      const members = listProcesses().filter((p) => p.pgid === pgid);
      if (!members.some((p) => refused(p.pid))) return io.signalGroup(pgid, signal);
      for (const p of members) if (!refused(p.pid)) io.signalProcess({ pid: p.pid, startTime: p.startTime }, signal);
    },
    signalProcess: (ref, signal) => !refused(ref.pid) && io.signalProcess(ref, signal),
  };
}

export interface TerminationResult {
  /** Processes asked to end gracefully. */
  signalled: number;
  /** Processes still alive when the grace window closed, sent SIGKILL. */
  killed: number;
  /** Processes still alive KILL_CONFIRM_MS after their SIGKILL: a1 could not end them. */
  unended: ProcessRef[];
}

/** Graceful first (SIGHUP+SIGCONT to each group, and to each process not in a signalled group),
 * then poll until all are gone or graceMs passes, then SIGKILL the groups and each survivor
 * (verified), and confirm they are gone. Idempotent: a plan with nothing live resolves at once. */
export async function executeTermination(plan: RetirementPlan, opts: { graceMs: number; io?: TerminateIO }): Promise<TerminationResult> {
  const io = opts.io ?? realTerminateIO;
  const live = uniqueByPid(plan.processes).filter((p) => io.isAlive(p));
  if (live.length === 0) return { signalled: 0, killed: 0, unended: [] };

  // A group is signalled only while one of its planned members is still the same process: then
  // its id cannot have been recycled for an unrelated group.
  const groups = plan.groups.filter((g) => live.some((p) => p.pgid === g));
  for (const g of groups) {
    io.signalGroup(g, 'SIGHUP');
    io.signalGroup(g, 'SIGCONT');
  }
  const grouped = new Set(groups);
  let signalled = 0;
  for (const p of live) {
    if (grouped.has(p.pgid)) signalled += 1;
    else if (io.signalProcess(p, 'SIGHUP')) {
      io.signalProcess(p, 'SIGCONT');
      signalled += 1;
    }
  }

  let survivors = await waitGone(io, live, opts.graceMs);
  if (survivors.length === 0) return { signalled, killed: 0, unended: [] };

  // Killing the group too reaches anything forked into it after the snapshot.
  for (const g of groups) if (survivors.some((p) => p.pgid === g)) io.signalGroup(g, 'SIGKILL');
  let killed = 0;
  for (const p of survivors) {
    if (io.signalProcess(p, 'SIGKILL') || grouped.has(p.pgid)) killed += 1;
  }
  survivors = await waitGone(io, survivors, KILL_CONFIRM_MS);
  return { signalled, killed, unended: survivors.map(({ pid, startTime }) => ({ pid, startTime })) };
}

/** No grace: SIGKILL to each process, verified by pid + start time. For a child ended on purpose
 * to start again at once (a restart on request, an unresponsive agent); a close uses
 * executeTermination. Returns how many were signalled. */
export function killWithoutGrace(processes: readonly ProcessRef[], io: TerminateIO = realTerminateIO): number {
  let killed = 0;
  for (const p of processes) if (io.signalProcess(p, 'SIGKILL')) killed += 1;
  return killed;
}

/** Polls until every process is gone or `ms` passes; returns those still alive. */
async function waitGone<T extends ProcessRef>(io: TerminateIO, processes: T[], ms: number): Promise<T[]> {
  const deadline = io.now() + ms;
  let alive = processes;
  for (;;) {
    alive = alive.filter((p) => io.isAlive(p));
    const left = deadline - io.now();
    if (alive.length === 0 || left <= 0) return alive;
    await io.sleep(Math.min(TERMINATE_POLL_MS, left));
  }
}

function uniqueByPid(processes: readonly PlannedProcess[]): PlannedProcess[] {
  const seen = new Map<number, PlannedProcess>();
  for (const p of processes) if (!seen.has(p.pid)) seen.set(p.pid, p);
  return [...seen.values()];
}
