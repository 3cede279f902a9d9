// One registry writer, even when a server hangs (SPEC §15 "Starting and finding the server",
// "How to test races"): the OS lock is the authority and the `leases` row its evidence. A
// stopped server keeps its lock, so it is replaced only after its recorded identity (pid and
// start time) is verified and it is killed; what cannot be verified is reported as "recovery
// blocked" and left alone, never answered with a second writer.
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { isLiveProcess, signalVerified } from '../proc.js';
import { writerLockPath } from '../store/layout.js';
import { lockHolder } from '../lockHolder.js';
import { Registry, WriterLease, type WriterRecord } from '../store/registry.js';

export class RecoveryBlockedError extends Error {
  readonly code = 'recovery-blocked';
  constructor(message: string) {
    super(message);
    this.name = 'RecoveryBlockedError';
  }
}

/** A lease winner records itself within its start (lease, registry check, epoch commit). */
export const OWNER_RECORD_WAIT_MS = 3_000;
/** SIGKILL ends even a stopped process at once; this only bounds a stuck kernel. */
const OWNER_EXIT_WAIT_MS = 2_000;
const POLL_MS = 25;

/** What the `leases` row says about the writer, from `self`'s point of view. */
export type OwnerState = 'none' | 'self' | 'live' | 'gone';

export function ownerState(owner: WriterRecord | null, self: number, isLive: (o: WriterRecord) => boolean): OwnerState {
  if (owner === null) return 'none';
  if (owner.pid === self) return 'self';
  // A recorded pid that now belongs to another process (other start time) is gone (SPEC §4).
  return isLive(owner) ? 'live' : 'gone';
}

/** The recorded writer, or null when the registry cannot be read now (a winner may be recovering it). */
function recordedWriter(stateDir: string): WriterRecord | null | 'unreadable' {
  try {
    return Registry.recordedWriter(stateDir);
  } catch {
    return 'unreadable';
  }
}

export type LeaseAtStart = { kind: 'acquired'; lease: WriterLease } | { kind: 'lost' } | { kind: 'blocked'; error: RecoveryBlockedError };

/**
 * A starting server's lease decision. It takes the lease unless the recorded writer is still
 * alive without it (its lock was lost: it must not get a second writer beside it). It loses the
 * race quietly to a verified live writer. A lease held by a process the row cannot vouch for,
 * once the winner has had time to record itself, blocks the start.
 */
export async function leaseAtStart(stateDir: string, self: number = process.pid): Promise<LeaseAtStart> {
  const deadline = Date.now() + OWNER_RECORD_WAIT_MS;
  for (;;) {
    const lease = WriterLease.tryAcquire(stateDir);
    const owner = recordedWriter(stateDir);
    const state = owner === 'unreadable' ? 'none' : ownerState(owner, self, isLiveProcess);
    if (lease) {
      if (state !== 'live') return { kind: 'acquired', lease };
      // A writer exiting cleanly releases its lock a moment before its process ends.
      const previous = owner as WriterRecord;
      while (isLiveProcess(previous) && Date.now() < deadline) await delay(POLL_MS);
      if (!isLiveProcess(previous)) return { kind: 'acquired', lease };
      lease.release();
      const { pid } = previous;
      return {
        kind: 'blocked',
        error: new RecoveryBlockedError(`Recovery blocked: the recorded a1 server (pid ${pid}) still runs without the writer lease; stop it, then start a1 again.`),
      };
    }
    const holder = lockHolder(writerLockPath(path.resolve(stateDir)));
    if (state === 'live' && (holder === undefined || holder === (owner as WriterRecord).pid)) return { kind: 'lost' };
    // Only a server that took the lock and has not recorded itself yet is worth waiting for; a
    // lock held by anything else (or by a pid the record misdescribes) blocks at once.
    // (No holder: the lock was just released; the next round takes it.)
    const starting = holder === undefined || holder === null || ((owner === 'unreadable' || owner?.pid !== holder) && isServerProcess(holder));
    if (!starting || Date.now() >= deadline) {
      const who = owner !== 'unreadable' && owner !== null ? ` (recorded pid ${owner.pid})` : '';
      return {
        kind: 'blocked',
        error: new RecoveryBlockedError(`Recovery blocked: another process holds this profile's writer lease and its recorded owner${who} cannot be verified.`),
      };
    }
    await delay(POLL_MS);
  }
}

/**
 * Ends a server that accepts connections but does not answer: only the writer the `leases` row
 * names, verified by pid and start time, and only once it is seen gone does the caller start
 * another. Returns the pid it ended; throws RecoveryBlockedError when the owner cannot be
 * verified or does not end.
 */
export async function endUnresponsiveOwner(stateDir: string, self: number = process.pid): Promise<number> {
  const owner = recordedWriter(stateDir);
  const state = owner === 'unreadable' ? 'none' : ownerState(owner, self, isLiveProcess);
  if (state !== 'live') {
    throw new RecoveryBlockedError('Recovery blocked: the a1 server is not responding and its recorded owner cannot be verified; nothing was stopped.');
  }
  const id = owner as WriterRecord;
  signalVerified(id, 'SIGKILL');
  const deadline = Date.now() + OWNER_EXIT_WAIT_MS;
  while (isLiveProcess(id)) {
    if (Date.now() >= deadline) throw new RecoveryBlockedError(`Recovery blocked: the unresponsive a1 server (pid ${id.pid}) did not end.`);
    await delay(POLL_MS);
  }
  return id.pid;
}

/** Whether `pid` runs `a1 __server` (its argv, read from /proc). */
function isServerProcess(pid: number): boolean {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes('__server');
  } catch {
    return false;
  }
}
