// A server invariant violation (SPEC §3: crash-only, fail fast): the server checks after every
// commit and every tick that its memory and the registry agree on the tabs and the revision. The
// fault is a tab row renamed behind its back (what a lost or stray write would leave): the server
// writes a crash record and exits non-zero, and its replacement starts from the registry and
// adopts every holder as it is, so no tab notices.
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { e2e, listing, logEntries, probeViewed, serverPids, stateDir, tabId, waitForListing, waitForStrip, type E2E } from './harness.js';
import { spawnServer } from './serverProcess.js';
import { listCrashRecords, CRASH_EXIT_CODE } from '../../src/diag/crashRecord.js';
import { isAlive, killTracked } from '../helpers/procs.js';
import { waitFor } from '../helpers/wait.js';

let t: E2E | undefined;
afterEach(async () => {
  killTracked();
  await t?.teardown();
  t = undefined;
});

/** Renames a tab in the registry file without the server knowing. */
function renameBehindServersBack(e: E2E, id: string, name: string): void {
  const db = new Database(path.join(stateDir(e), 'registry.db'), { timeout: 5_000 });
  try {
    db.prepare('UPDATE tabs SET name = ? WHERE id = ?').run(name, id);
  } finally {
    db.close();
  }
}

describe('server invariants', () => {
  it('a registry that contradicts the server ends it with a crash record; the replacement adopts every holder and no tab notices', async () => {
    t = e2e();
    // Started by the test, so that how it ends is seen.
    const server = spawnServer(t);
    expect(await server.status).toMatchObject({ ready: true, pid: server.pid });
    for (const name of ['a', 'b']) {
      const r = await t.run('new', '--name', name);
      expect(r.code, r.stderr).toBe(0);
    }
    const before = await waitForListing(t, ['a', 'b']);
    const a1 = t.attach();
    await waitForStrip(a1, ['a', 'b'], 'a');
    await probeViewed(a1, tabId(before, 'a'));

    renameBehindServersBack(t, tabId(before, 'b'), 'renamed');
    await waitFor(() => !isAlive(server.pid), { what: 'the contradicted server ending by itself' });
    expect(await server.exited).toEqual({ code: CRASH_EXIT_CODE, signal: null });
    const [record] = listCrashRecords(path.join(stateDir(t), 'crash'));
    expect(record).toMatchObject({ role: 'server', pid: server.pid, reason: 'invariant-violation', detail: { kind: 'name' } });
    expect(logEntries(t, /^server/).filter((l) => l.pid === server.pid && l.level === 'error').map((l) => l.event)).toEqual(['invariant-violation']);

    // The client starts the replacement, which takes the registry's word and adopts both holders.
    const after = await waitFor(async () => {
      const l = await listing(t!);
      return l.server && l.server.pid !== server.pid && l.tabs.length === 2 && l.tabs.every((x) => x.status === 'running') ? l : null;
    }, { what: 'a replacement server with both tabs running' });
    expect(after.server!.epoch).toBe(before.server!.epoch + 1);
    expect(after.tabs.map((x) => ({ id: x.id, name: x.name, holderPid: x.holderPid, childPid: x.childPid }))).toEqual([
      { id: tabId(before, 'a'), name: 'a', holderPid: before.tabs[0].holderPid, childPid: before.tabs[0].childPid },
      { id: tabId(before, 'b'), name: 'renamed', holderPid: before.tabs[1].holderPid, childPid: before.tabs[1].childPid },
    ]);
    for (const x of before.tabs) expect(isAlive(x.childPid!)).toBe(true);
    expect(serverPids(t)).toEqual([after.server!.pid]);
    await waitForStrip(a1, ['a', 'renamed'], 'a');
    await probeViewed(a1, tabId(before, 'a'));
    // The replacement agrees with its registry: it stays up through its ticks and a commit.
    const made = await t.run('new', '--name', 'c');
    expect(made.code, made.stderr).toBe(0);
    await waitForListing(t, ['a', 'renamed', 'c']);
    expect((await listing(t)).server!.pid).toBe(after.server!.pid);
    expect(listCrashRecords(path.join(stateDir(t), 'crash'))).toHaveLength(1);
  });
});
