// Fencing (SPEC §5, §15 "How to test races"; issue 7): holders refuse a lower epoch; a stopped
// (SIGSTOP) server keeps its lock, so a client replaces it only after verifying and killing the
// recorded owner, and reports "recovery blocked" when it cannot verify it; a server that starts
// beside an owner it cannot verify starts no second writer; and a server that was replaced while
// stopped can, once continued, neither commit nor command a holder.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { e2e, holderControl as connectAsServer, listing, logEntries, protocolClient, serverPids, stateDir, type E2E, type Listing } from './harness.js';
import { readDiskRegistry, spawnServer } from './serverProcess.js';
import { isAlive, killTracked, pidsWithEnv } from '../helpers/procs.js';
import { waitFor } from '../helpers/wait.js';
import type { HolderConnection } from '../../src/server/holderLink.js';
import { resolvePaths } from '../../src/paths.js';

/** A holder's control connection, as its server has it. */
async function holderControl(e: E2E, tabId: string): Promise<HolderConnection> {
  return (await connectAsServer(e, tabId)).conn;
}

let t: E2E | undefined;
const stopped: number[] = [];
afterEach(async () => {
  // A stopped process would ignore everything but SIGKILL; continue it so teardown ends it.
  for (const pid of stopped.splice(0)) {
    try {
      process.kill(pid, 'SIGCONT');
    } catch {
      // Already gone.
    }
  }
  killTracked();
  await t?.teardown();
  t = undefined;
});

function stop(pid: number): void {
  stopped.push(pid);
  process.kill(pid, 'SIGSTOP');
}

/** One running tab `a` under a first server. */
async function oneTab(): Promise<Listing> {
  t = e2e({ closeGraceMs: 300 });
  const r = await t.run('new', '--name', 'a');
  expect(r.code, r.stderr).toBe(0);
  return waitFor(async () => {
    const l = await listing(t!);
    return l.server && l.tabs.length === 1 && l.tabs[0].status === 'running' && l.tabs[0].childPid ? l : null;
  }, { what: 'tab a running' });
}

/** Makes the lease row name a process that is not the writer: its pid recycled, as it would read. */
function tamperWriterRecord(e: E2E): void {
  const db = new Database(path.join(stateDir(e), 'registry.db'), { timeout: 5_000 });
  try {
    db.prepare("UPDATE leases SET owner_start = 'not-a-start-time' WHERE name = 'writer'").run();
  } finally {
    db.close();
  }
}

/** The lock file the stopped writer holds is replaced: its lock is lost, it does not know. */
function loseWriterLock(e: E2E): void {
  for (const name of ['writer.lock', 'writer.lock-journal']) fs.rmSync(path.join(stateDir(e), name), { force: true });
}

function logEvents(e: E2E, role: RegExp): string[] {
  return logEntries(e, role).map((l) => l.event);
}

describe('fencing', () => {
  it('a holder refuses a command from a lower epoch, from a connection that proves its key, and obeys the current one', async () => {
    const l = await oneTab();
    const tab = l.tabs[0];
    const epoch = l.server!.epoch;
    const stale = await holderControl(t!, tab.id);
    const closed = new Promise<void>((resolve) => stale.onClose(() => resolve()));
    stale.send({ t: 'restartChild', epoch: epoch - 1, fresh: true, force: true });
    await closed;
    const after = await listing(t!);
    expect(after.tabs[0]).toMatchObject({ holderPid: tab.holderPid, childPid: tab.childPid, status: 'running' });
    expect(logEvents(t!, /^holder-/)).toContain('stale-epoch-refused');
    // The same command at the current epoch is obeyed: the refusal above was the epoch's doing.
    const current = await holderControl(t!, tab.id);
    current.send({ t: 'restartChild', epoch, fresh: true, force: true });
    await waitFor(async () => {
      const now = (await listing(t!)).tabs[0];
      return now.childPid && now.childPid !== tab.childPid && now.status === 'running';
    }, { what: 'the child restarted by a current-epoch command' });
    current.close();
  });

  it('a client replaces a stopped server only after killing its verified owner: one writer, holders kept', async () => {
    const l = await oneTab();
    const old = l.server!.pid;
    stop(old);
    const r = await t!.run('new', '--name', 'b');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`the a1 server (pid ${old}) was not responding`);
    expect(isAlive(old)).toBe(false);
    const now = await waitFor(async () => {
      const x = await listing(t!);
      return x.tabs.length === 2 && x.tabs.every((tab) => tab.status === 'running') ? x : null;
    }, { what: 'tabs a and b running under the replacement' });
    expect(now.server!.pid).not.toBe(old);
    expect(now.server!.epoch).toBe(l.server!.epoch + 1);
    expect(serverPids(t!)).toEqual([now.server!.pid]);
    expect(now.tabs[0]).toMatchObject({ name: 'a', holderPid: l.tabs[0].holderPid, childPid: l.tabs[0].childPid });
  });

  it('a client waits for a running server that is slow to answer, instead of replacing it', async () => {
    // A server starting tens of holders on a loaded machine can miss the 2 s handshake; one
    // that runs (not stopped) gets a longer one. Its loop is blocked here for 5 s.
    t = e2e({ closeGraceMs: 300 });
    t.env.A1_TEST_FAULT_SIGUSR2 = 'server=block:5000';
    expect((await t.run('new', '--name', 'a')).code).toBe(0);
    const l = await waitFor(async () => {
      const x = await listing(t!);
      return x.server && x.tabs[0]?.status === 'running' ? x : null;
    }, { what: 'tab a running' });
    const old = l.server!.pid;
    process.kill(old, 'SIGUSR2');
    const r = await t.run('new', '--name', 'b');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('was not responding');
    expect(isAlive(old)).toBe(true);
    const now = await listing(t);
    expect(now.server!.pid).toBe(old);
    expect(now.tabs.map((tab) => tab.name)).toEqual(['a', 'b']);
  });

  it('a client that cannot verify the stopped server reports recovery blocked, stops nothing and starts no writer', async () => {
    const l = await oneTab();
    const old = l.server!.pid;
    stop(old);
    tamperWriterRecord(t!);
    const r = await t!.run('new', '--name', 'b');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^a1: Recovery blocked: .*cannot be verified; nothing was stopped\.\n$/);
    expect(isAlive(old)).toBe(true);
    expect(serverPids(t!)).toEqual([old]);
    expect(readDiskRegistry(t!).epoch).toBe(l.server!.epoch);
    // Continued, the one writer carries on.
    process.kill(old, 'SIGCONT');
    expect((await listing(t!)).server!.pid).toBe(old);
  });

  it('a starting server beside a live recorded owner whose lock was lost reports recovery blocked', async () => {
    const l = await oneTab();
    const old = l.server!.pid;
    stop(old);
    loseWriterLock(t!);
    const s = spawnServer(t!);
    expect(await s.status).toEqual({ error: { code: 'recovery-blocked', message: expect.stringContaining(`(pid ${old}) still runs without the writer lease`) } });
    expect(await s.exited).toEqual({ code: 1, signal: null });
    expect(readDiskRegistry(t!).epoch).toBe(l.server!.epoch);
    expect(isAlive(old)).toBe(true);
  });

  it('a starting server that cannot verify who holds the lease reports recovery blocked', async () => {
    const l = await oneTab();
    const old = l.server!.pid;
    stop(old);
    tamperWriterRecord(t!);
    const s = spawnServer(t!);
    expect(await s.status).toEqual({ error: { code: 'recovery-blocked', message: expect.stringContaining('cannot be verified') } });
    expect(await s.exited).toEqual({ code: 1, signal: null });
    expect(readDiskRegistry(t!).epoch).toBe(l.server!.epoch);
    expect(isAlive(old)).toBe(true);
  });

  it('a server replaced while stopped, once continued, can neither commit nor command a holder', async () => {
    const l = await oneTab();
    const tab = l.tabs[0];
    const old = l.server!.pid;
    // A client of the old server, connected before it stopped.
    const client = await protocolClient(t!);
    stop(old);
    // Its lock lost and its record unverifiable: the one situation in which a second server can
    // start beside it. Only the epoch still fences it.
    loseWriterLock(t!);
    tamperWriterRecord(t!);
    const successor = spawnServer(t!);
    expect(await successor.status).toMatchObject({ ready: true, epoch: l.server!.epoch + 1 });
    await waitFor(async () => {
      const x = await listing(t!);
      return x.server?.pid === successor.pid && x.tabs[0]?.status === 'running';
    }, { what: 'the successor serving tab a' });
    process.kill(old, 'SIGCONT');
    const restart = client.request('restart', { tabId: tab.id, force: true }).then(() => 'done', (err: { code?: string }) => err.code);
    const rename = client.request('rename', { tabId: tab.id, name: 'stale' }).then(() => 'done', (err: { code?: string }) => err.code);
    // Commit: refused as fenced, or the old server already ended on noticing it was fenced.
    expect(['fenced', 'disconnected']).toContain(await rename);
    // Its reply does not matter (it may even have sent to the link the holder had closed): what
    // reached the holder is checked below.
    await restart;
    await waitFor(() => !isAlive(old), { what: 'the fenced server ended on its own' });
    expect(logEvents(t!, /^server/)).toContain('fenced');
    client.close();
    // Nothing it did took effect: the name, the holder, the child, the successor and its socket.
    const after = await listing(t!);
    expect(after.server!.pid).toBe(successor.pid);
    expect(after.tabs).toEqual([expect.objectContaining({ name: 'a', holderPid: tab.holderPid, childPid: tab.childPid, status: 'running' })]);
    expect(pidsWithEnv('A1_HOLDER_TAB', tab.id).filter(isAlive)).toEqual([tab.holderPid]);
    expect(readDiskRegistry(t!).epoch).toBe(l.server!.epoch + 1);
    // server.sock named the successor's socket, not its own: it was never bound again (SPEC §4).
    expect(logEvents(t!, /^server/)).not.toContain('socket-restored');
  });

  it('a server whose lock file was replaced does not bind a vanished server.sock again: only the lease holder may', async () => {
    const l = await oneTab();
    const old = l.server!.pid;
    const sock = resolvePaths({ env: t!.env }).serverSock;
    stop(old);
    loseWriterLock(t!);
    fs.rmSync(sock);
    process.kill(old, 'SIGCONT');
    // Its epoch is still the registry's, so it serves on; the kernel no longer names it the lock's holder.
    await waitFor(() => logEntries(t!, /^server/).some((e) => e.pid === old && e.event === 'socket-not-restored'), {
      what: 'the server declining to bind server.sock',
    });
    expect(fs.existsSync(sock)).toBe(false);
    expect(isAlive(old)).toBe(true);
    expect(logEvents(t!, /^server/)).not.toContain('socket-restored');
  });
});
