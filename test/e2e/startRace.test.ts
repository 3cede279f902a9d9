// Two launches race (SPEC §15 "Starting and finding the server", "Races"): the race is forced with
// the test-only start barrier (A1_TEST_SERVER_START_BARRIER), which holds each starting server
// before it asks for the writer lease until the test has seen both arrive, then releases them
// together. One takes the lease and serves; the other exits 0 saying nothing but `lost`, and
// every client attaches to the winner.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { e2e, listing, logEntries, PROMPT_SEEN, serverPids, stateDir, type E2E } from './harness.js';
import { readDiskRegistry, spawnServer, type ServerProcess } from './serverProcess.js';
import { lockHolder } from '../../src/lockHolder.js';
import { isAlive, killTracked } from '../helpers/procs.js';
import { waitFor } from '../helpers/wait.js';

let t: E2E | undefined;
afterEach(async () => {
  killTracked();
  await t?.teardown();
  t = undefined;
});

/** The crash records the profile has (a losing server must leave none). */
function crashRecords(e: E2E): string[] {
  const dir = path.join(stateDir(e), 'crash');
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
}

/** The pids that have arrived at the barrier `file` (each server creates `<file>.<pid>`). */
function arrivals(file: string): number[] {
  const base = path.basename(file);
  return fs
    .readdirSync(path.dirname(file))
    .filter((n) => n.startsWith(`${base}.`))
    .map((n) => Number(n.slice(base.length + 1)));
}

async function attachedClients(e: E2E): Promise<number> {
  const r = await e.run('tabs', 'host', 'status', '--json');
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { server: { clients: number } | null }).server?.clients ?? 0;
}

/** Both arrived, neither has asked for the lease yet: the lock is free. Then both go at once. */
async function release(e: E2E, barrier: string, count: number): Promise<number[]> {
  const arrived = await waitFor(() => {
    const pids = arrivals(barrier);
    return pids.length === count ? pids : null;
  }, { what: `${count} servers at the start barrier` });
  expect(lockHolder(path.join(stateDir(e), 'writer.lock'))).toBeNull();
  fs.writeFileSync(barrier, '');
  return arrived;
}

describe('two launches race', () => {
  it('two servers released together: one takes the lease and serves, the other exits 0 saying only "lost"; two clients attach to the winner', async () => {
    t = e2e();
    const barrier = path.join(t.home.dir, 'start-barrier');
    const servers: ServerProcess[] = [spawnServer(t, { A1_TEST_SERVER_START_BARRIER: barrier }), spawnServer(t, { A1_TEST_SERVER_START_BARRIER: barrier })];
    expect((await release(t, barrier, 2)).sort()).toEqual(servers.map((s) => s.pid).sort());
    const statuses = await Promise.all(servers.map((s) => s.status));
    const ready = servers.filter((_, i) => statuses[i]?.ready === true);
    expect(ready, JSON.stringify(statuses)).toHaveLength(1);
    const winner = ready[0];
    const loser = servers.find((s) => s !== winner)!;
    // The loser says nothing but what SPEC §15 lets it say (or nothing at all), exits 0, and
    // leaves no log entry and no crash record.
    const lost = statuses[servers.indexOf(loser)];
    expect([null, { lost: true }]).toContainEqual(lost);
    expect(await loser.exited).toEqual({ code: 0, signal: null });
    expect(statuses[servers.indexOf(winner)]).toEqual({ ready: true, pid: winner.pid, epoch: 1 });
    // One writer: the kernel's lock and the lease row name the winner, at the one epoch.
    expect(lockHolder(path.join(stateDir(t), 'writer.lock'))).toBe(winner.pid);
    expect(readDiskRegistry(t)).toMatchObject({ epoch: 1, writer: { pid: winner.pid, epoch: 1 } });
    expect(logEntries(t, /^server/).filter((l) => l.pid === loser.pid)).toEqual([]);
    expect(crashRecords(t)).toEqual([]);

    const a = t.attach();
    const b = t.attach();
    for (const c of [a, b]) {
      await c.waitForText(PROMPT_SEEN);
      await c.waitForText('agent');
    }
    const l = await listing(t);
    expect(l.server).toMatchObject({ pid: winner.pid, epoch: 1 });
    expect(l.tabs).toHaveLength(1);
    await waitFor(async () => (await attachedClients(t!)) === 2, { what: 'both clients attached to the winner' });
    expect(serverPids(t)).toEqual([winner.pid]);
  });

  it('two a1 launched together, their servers released into the race at once: one server, both attached, one tab', async () => {
    t = e2e();
    const barrier = path.join(t.home.dir, 'start-barrier');
    // Each client starts its own server with its environment, so both servers wait at the barrier.
    t.env.A1_TEST_SERVER_START_BARRIER = barrier;
    const a = t.attach();
    const b = t.attach();
    const arrived = await release(t, barrier, 2);
    for (const c of [a, b]) {
      await c.waitForText(PROMPT_SEEN);
      await c.waitForText('agent');
    }
    const l = await listing(t);
    expect(l.tabs).toHaveLength(1);
    expect(arrived).toContain(l.server!.pid);
    const loser = arrived.find((pid) => pid !== l.server!.pid)!;
    await waitFor(() => !isAlive(loser), { what: 'the losing server gone' });
    expect(serverPids(t)).toEqual([l.server!.pid]);
    expect(readDiskRegistry(t)).toMatchObject({ epoch: 1, writer: { pid: l.server!.pid } });
    expect(logEntries(t, /^server/).filter((x) => x.pid === loser)).toEqual([]);
    expect(crashRecords(t)).toEqual([]);
    await waitFor(async () => (await attachedClients(t!)) === 2, { what: 'both clients attached to the one server' });
    // Both view the one tab's shell: what its controller (whichever claimed it first) types,
    // both see; the other's keys are refused as read-only.
    for (const c of [a, b]) c.write('echo race-$((20+22))\r');
    for (const c of [a, b]) await c.waitForText('race-42');
  });
});
