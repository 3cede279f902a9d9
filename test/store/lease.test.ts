import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WriterLease } from '../../src/store/lease.js';
import { isAlive, killTracked } from '../helpers/procs.js';
import { waitFor } from '../helpers/wait.js';
import { bundleRegistry, makeStateDir, modeOf, runChild, type Child } from './helpers.js';

/**
 * Takes the lease, says whether it got it, and if so holds it until killed. The lease stays
 * reachable from globalThis: a module-level const no closure uses may be collected, and
 * better-sqlite3 closes a collected connection, which drops the lock (a CI run saw the parent take
 * a lease its living child had just reported).
 */
const LEASE_CHILD = `
const { WriterLease } = await import(process.env.STORE_BUNDLE);
const lease = WriterLease.tryAcquire(process.env.STATE_DIR);
globalThis.heldLease = lease;
console.log(lease ? 'acquired' : 'busy');
if (lease) setInterval(() => {}, 60_000);
`;

/**
 * "At once": a refusal that queued behind the holder would take at least SQLite's busy timeout
 * (better-sqlite3's default and the registry's are 5 s). Half of that leaves a stalled, busy
 * machine seconds of slack while still catching a lease that waits.
 */
const AT_ONCE_MAX_MS = 2_500;

let bundleDir: string;
let bundle: string;
const dirs: string[] = [];
const leases: WriterLease[] = [];

beforeAll(async () => {
  bundleDir = makeStateDir();
  bundle = await bundleRegistry(bundleDir);
});
afterAll(() => fs.rmSync(bundleDir, { recursive: true, force: true }));
afterEach(() => {
  killTracked();
  for (const lease of leases.splice(0)) lease.release();
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function stateDir(): string {
  const dir = makeStateDir();
  dirs.push(dir);
  return dir;
}

function acquire(dir: string): WriterLease | null {
  const lease = WriterLease.tryAcquire(dir);
  if (lease) leases.push(lease);
  return lease;
}

function leaseChild(dir: string): Child {
  return runChild(LEASE_CHILD, { STORE_BUNDLE: bundle, STATE_DIR: dir });
}

async function answerOf(child: Child): Promise<string> {
  return waitFor(() => child.lines[0], { what: `lease child ${child.pid} to answer` });
}

describe('WriterLease', () => {
  it('refuses a second connection in the same process at once, and frees on release', () => {
    const dir = stateDir();
    const first = acquire(dir);
    expect(first).not.toBeNull();
    const started = Date.now();
    expect(acquire(dir)).toBeNull();
    expect(Date.now() - started).toBeLessThan(AT_ONCE_MAX_MS);
    first!.release();
    first!.release();
    expect(first!.held).toBe(false);
    expect(acquire(dir)).not.toBeNull();
  });

  it('is exclusive across processes, and a refused competitor does not weaken the holder', async () => {
    const dir = stateDir();
    expect(acquire(dir)).not.toBeNull();
    // A failed in-process attempt closes its connection; POSIX would drop the process's locks on
    // close if SQLite did not guard against it. The lease must still hold against other processes.
    expect(acquire(dir)).toBeNull();
    const competitor = leaseChild(dir);
    expect(await answerOf(competitor)).toBe('busy');
    await competitor.exited;
  });

  it('is released by the kernel when its holder is killed with SIGKILL', async () => {
    const dir = stateDir();
    const holder = leaseChild(dir);
    expect(await answerOf(holder)).toBe('acquired');
    expect(acquire(dir)).toBeNull();
    const competitor = leaseChild(dir);
    expect(await answerOf(competitor)).toBe('busy');

    process.kill(holder.pid, 'SIGKILL');
    await holder.exited;
    await waitFor(() => !isAlive(holder.pid), { what: `lease holder ${holder.pid} to be gone` });
    const taken = await waitFor(() => acquire(dir), { what: 'the lease to be free after its holder died' });
    expect(taken.held).toBe(true);
  });

  it('keeps its lock files owner-only, whatever the umask', () => {
    const dir = stateDir();
    const previous = process.umask(0o022);
    let lease: WriterLease | null;
    try {
      lease = acquire(dir);
    } finally {
      process.umask(previous);
    }
    expect(lease).not.toBeNull();
    const files = fs.readdirSync(dir);
    expect(files).toContain('writer.lock');
    for (const file of files) expect(modeOf(path.join(dir, file)), file).toBe(0o600);
    lease!.release();
    expect(fs.readdirSync(dir)).toEqual(['writer.lock']);
  });
});
