// Holder death, server idle exit, and nesting.
import { describe, it, expect, afterEach } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { e2e, listing as readListing, PROMPT_SEEN, type E2E } from './harness.js';
import { waitFor } from '../helpers/wait.js';
import { isAlive, pidsWithEnv } from '../helpers/procs.js';

let t: E2E;
afterEach(async () => {
  await t?.teardown();
});

interface Listing {
  server: { pid: number; epoch: number } | null;
  tabs: { id: string; status: string; holderPid: number | null; childPid: number | null }[];
}

async function listing(): Promise<Listing> {
  return readListing(t);
}

function serverPids(): number[] {
  return pidsWithEnv('A1_HOME', t.home.dir).filter((pid) => {
    try {
      return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes('__server') && isAlive(pid);
    } catch {
      return false;
    }
  });
}

describe('lifecycle', () => {
  it('a killed holder affects only its tab: the server starts a new one and the client views it', async () => {
    t = e2e();
    const a1 = t.attach();
    await a1.waitForText(PROMPT_SEEN);
    const before = (await listing()).tabs[0];
    process.kill(before.holderPid!, 'SIGKILL');
    const after = await waitFor(async () => {
      const tab = (await listing()).tabs[0];
      return tab.holderPid && tab.holderPid !== before.holderPid && tab.status === 'running' ? tab : null;
    }, { what: 'a new holder' });
    expect(after.id).toBe(before.id);
    a1.write('echo again-$((5*5))\r');
    await a1.waitForText('again-25');
  });

  it('a holder spawned just before the server died, pid not yet recorded, is adopted, not leaked', async () => {
    t = e2e();
    const a1 = t.attach();
    await a1.waitForText(PROMPT_SEEN);
    const before = await listing();
    a1.write('\x03\x03');
    await a1.exited;
    process.kill(before.server!.pid, 'SIGKILL');
    await waitFor(() => serverPids().length === 0, { what: 'the server is gone' });
    // The state a crash between "commit the pending incarnation" and "record the pid" leaves.
    const db = new Database(path.join(t.home.dir, 'state', 'default', 'registry.db'));
    db.prepare('UPDATE tabs SET holder_pid = NULL, holder_start = NULL').run();
    db.close();
    const again = t.attach();
    await again.waitForText(PROMPT_SEEN);
    const after = await listing();
    expect(after.tabs).toHaveLength(1);
    expect(after.tabs[0].holderPid).toBe(before.tabs[0].holderPid);
    expect(after.tabs[0].childPid).toBe(before.tabs[0].childPid);
    const holders = pidsWithEnv('A1_HOME', t.home.dir).filter((pid) => {
      try {
        return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes('__holder') && isAlive(pid);
      } catch {
        return false;
      }
    });
    expect(holders).toEqual([before.tabs[0].holderPid]);
  });

  it('the server exits when idle: no client and no running tab', async () => {
    t = e2e({ serverIdleExitMinutes: 0.02 });
    // An agent tab stays, exited (a plain shell tab that exits 0 closes: issue 18).
    const made = await t.run('new', '--agent', 'generic', '--', '/bin/sh', '-c', 'exit 0');
    expect(made.code).toBe(0);
    expect(made.stdout.trim()).toMatch(/^tab/);
    await waitFor(() => serverPids().length === 0, { what: 'the idle server exited', timeoutMs: 30_000 });
    const l = await listing();
    expect(l.server).toBeNull();
    expect(l.tabs[0].status).toBe('exited');
  });

  it('the server stays while a tab runs, even with no client', async () => {
    t = e2e({ serverIdleExitMinutes: 0.02 });
    const made = await t.run('new', '--', '/bin/sh', '-c', 'echo started > started.txt; sleep 1000');
    expect(made.code).toBe(0);
    await waitFor(() => fs.existsSync(`${t.home.dir}/started.txt`), { what: 'the tab started' });
    const pid = serverPids()[0];
    // Well past the idle interval (1.2 s), by the server's own clock.
    await waitFor(async () => {
      const r = await t.run('tabs', 'host', 'status', '--json');
      return (JSON.parse(r.stdout).server?.uptimeMs ?? 0) > 4_000;
    }, { what: 'the server outlived several idle intervals' });
    expect((await listing()).tabs[0].status).toBe('running');
    expect(serverPids()).toEqual([pid]);
  });

  it('bare a1 inside a tab refuses in one sentence', async () => {
    t = e2e();
    const a1 = t.attach();
    await a1.waitForText(PROMPT_SEEN);
    a1.write(`${process.execPath} ${process.cwd()}/bin/a1; echo "rc=$?"\r`);
    await a1.waitForText('rc=1');
    await a1.waitForText('already running in this tab');
  });
});
