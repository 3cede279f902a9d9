// Who the recorded writer is, seen by a starting server or a client facing an unresponsive one
// (src/server/ownerCheck.ts), and the lease decision against a real lock and registry.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { leaseAtStart, ownerState } from '../../src/server/ownerCheck.js';
import { lockHolder } from '../../src/lockHolder.js';
import { Registry, WriterLease } from '../../src/store/registry.js';

const owner = { pid: 4242, startTime: '99', epoch: 3 };
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function stateDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'a1-owner-'));
  dirs.push(dir);
  return dir;
}

describe('ownerState', () => {
  it('names no owner, this process, a live owner and a gone one', () => {
    expect(ownerState(null, 1, () => true)).toBe('none');
    expect(ownerState(owner, 4242, () => true)).toBe('self');
    expect(ownerState(owner, 1, () => true)).toBe('live');
    // A recorded pid now naming another process (another start time) is gone.
    expect(ownerState(owner, 1, () => false)).toBe('gone');
  });
});

describe('leaseAtStart', () => {
  it('takes a free lease when no writer is recorded, or the recorded one is gone', async () => {
    const dir = stateDir();
    const first = await leaseAtStart(dir);
    expect(first.kind).toBe('acquired');
    if (first.kind !== 'acquired') return;
    const { registry } = Registry.open({ stateDir: dir });
    // Recorded as a process that does not exist (pid beyond any pid_max).
    registry.startServer(first.lease, { pid: 2 ** 30, startTime: '1', bootId: 'b' });
    registry.close();
    first.lease.release();
    const second = await leaseAtStart(dir);
    expect(second.kind).toBe('acquired');
    if (second.kind === 'acquired') second.lease.release();
  });

  it('is blocked when the lease is free but the recorded writer still runs without it', async () => {
    const dir = stateDir();
    const lease = WriterLease.tryAcquire(dir)!;
    const { registry } = Registry.open({ stateDir: dir });
    // This test process plays the live writer whose lock was lost; the start runs as another pid.
    const { procStartTime } = await import('../../src/proc.js');
    registry.startServer(lease, { pid: process.pid, startTime: procStartTime(process.pid)!, bootId: 'b' });
    registry.close();
    lease.release();
    const result = await leaseAtStart(dir, process.pid + 1);
    expect(result).toMatchObject({ kind: 'blocked', error: { code: 'recovery-blocked' } });
    // Blocked starts leave the lease free.
    const again = WriterLease.tryAcquire(dir);
    expect(again).not.toBeNull();
    again?.release();
  }, 10_000);
});

describe('lockHolder', () => {
  it('names the process holding the writer lock, from /proc/locks, and nobody once it is released', () => {
    const dir = stateDir();
    const lease = WriterLease.tryAcquire(dir)!;
    const file = path.join(dir, 'writer.lock');
    expect(lockHolder(file)).toBe(process.pid);
    lease.release();
    expect(lockHolder(file)).toBeNull();
  });

  it('a start facing a lock held by something that is not a server is blocked at once', async () => {
    const dir = stateDir();
    const lease = WriterLease.tryAcquire(dir)!;
    const started = Date.now();
    const result = await leaseAtStart(dir, process.pid + 1);
    lease.release();
    expect(result).toMatchObject({ kind: 'blocked', error: { code: 'recovery-blocked' } });
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});
