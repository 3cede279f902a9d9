// The two races of the close contract (SPEC §9, seed 000 "Failure and race handling"), forced
// rather than timed: a spawn that completes after its tab was closed, and a status report that
// arrives while the tab's processes are being ended.
import fs from 'node:fs';
import path from 'node:path';
import { describe, it, expect, afterEach } from 'vitest';
import { e2e, listing, livePids, type E2E } from './harness.js';
import { sessionsOf } from './lifecycleHarness.js';
import { waitFor } from '../helpers/wait.js';
import { A1_BIN } from '../helpers/pty.js';
import { pidsWithEnv, isAlive } from '../helpers/procs.js';

let t: E2E;
afterEach(async () => {
  await t?.teardown();
});

interface Sessions {
  sessions: { sessionId: string; tabId: string | null; state: string }[];
}

function sessions(t: E2E): Sessions {
  return { sessions: sessionsOf(t) };
}

describe('closing races', () => {
  it('kills a spawn that completes after its tab was closed, and the tab never comes back', async () => {
    t = e2e({ closeGraceMs: 300 });
    // The server holds every new holder this long between its spawn and its binding.
    t.env.A1_TEST_BIND_DELAY_MS = '3000';
    const created = await t.run('new', '--name', 'late', '--', '/bin/sh', '-c', 'exec sleep 1000');
    expect(created.code, created.stderr).toBe(0);
    const id = created.stdout.trim();
    // The holder and its child exist, unbound: the close cannot know their pids.
    const spawned = await waitFor(() => {
      const pids = pidsWithEnv('A1_HOLDER_TAB', id).filter(isAlive);
      return pids.length > 0 ? pids : null;
    }, { what: 'the holder spawned for the tab' });
    const server = (await listing(t)).server!.pid;
    const stop = await t.run('tabs', 'stop', id);
    expect(stop.code, stop.stderr).toBe(0);
    expect((await listing(t)).tabs).toEqual([]);
    // Once the spawn completes it is killed before it is bound, with its child.
    await waitFor(() => spawned.every((pid) => !isAlive(pid)) && pidsWithEnv('A1_TAB_ID', id).filter(isAlive).length === 0, {
      what: 'the late holder and its child gone',
    });
    expect(livePids(t).filter((pid) => pid !== server)).toEqual([]);
    // Nothing was bound or recorded: after a restart the tab is still gone.
    const stopHost = await t.run('tabs', 'host', 'stop');
    expect(stopHost.code, stopHost.stderr).toBe(0);
    await waitFor(() => livePids(t).length === 0, { what: 'the host stopped' });
    delete t.env.A1_TEST_BIND_DELAY_MS;
    const other = await t.run('new', '--name', 'next');
    expect(other.code, other.stderr).toBe(0);
    expect((await listing(t)).tabs.map((x) => x.name)).toEqual(['next']);
  });

  it('a status reported while the tab is being closed recreates no session or record', async () => {
    t = e2e({ closeGraceMs: 5000 });
    const marks = fs.mkdtempSync(path.join(t.home.dir, 'marks-'));
    // On hang-up the child reports a new session id, then says it did, then exits.
    const script = [
      `trap '"${process.execPath}" "${A1_BIN}" status working --session-id late-1 --agent generic && touch "${marks}/late-sent"; exit 0' HUP`,
      `"${process.execPath}" "${A1_BIN}" status idle --session-id first-1 --agent generic`,
      'while :; do sleep 0.05; done',
    ].join('\n');
    const created = await t.run('new', '--name', 'agent', '--agent', 'generic', '--', '/bin/bash', '-c', script);
    expect(created.code, created.stderr).toBe(0);
    const id = created.stdout.trim();
    await waitFor(async () => (await sessions(t)).sessions.some((s) => s.sessionId === 'first-1' && s.tabId === id), {
      what: 'the first session recorded for the tab',
    });
    const stop = await t.run('tabs', 'stop', id);
    expect(stop.code, stop.stderr).toBe(0);
    // The late report was admitted by the holder while the close was in progress.
    expect(fs.existsSync(path.join(marks, 'late-sent'))).toBe(true);
    const after = await sessions(t);
    expect(after.sessions.find((s) => s.sessionId === 'first-1')).toMatchObject({ tabId: null, state: 'closed' });
    expect(after.sessions.some((s) => s.sessionId === 'late-1')).toBe(false);
    expect((await listing(t)).tabs).toEqual([]);
  });
});
