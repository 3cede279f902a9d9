// Crash points (SPEC §14, issue 7): the server is SIGKILLed at each documented point before and
// after a persistence or IPC step (src/crashPoints.ts), with a mutation in flight. The registry
// on disk then holds exactly the complete prior state or the complete new one, never an empty or
// partial one; the next start loads it, adopts the holders it can verify (their pids unchanged)
// and brings every tab that should run to running.
import fs from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CRASH_AT_ENV, CRASH_POINTS, type CrashPointName } from '../../src/crashPoints.js';
import { e2e, listing, protocolClient, stateDir, subscribe, tabId, tabNames, type E2E, type Listing } from './harness.js';
import { fakeAgentArgv, useFakeAgent, waitForTabSession } from './lifecycleHarness.js';
import { readDiskRegistry, spawnServer, type DiskRegistry } from './serverProcess.js';
import { isAlive, killTracked } from '../helpers/procs.js';
import { waitFor } from '../helpers/wait.js';

let t: E2E | undefined;
afterEach(async () => {
  killTracked();
  await t?.teardown();
  t = undefined;
});

/** What the armed server is asked to do once it is up (a point on its start path fires first). */
type Action = 'create' | 'createAgent' | 'wake' | 'rename' | 'reorder' | 'close' | 'view' | 'reboot';

interface Case {
  point: CrashPointName;
  action: Action;
  /** Whether the step's transaction is durable when the server dies. */
  committed: boolean;
}

const start = (point: CrashPointName, committed = false): Case => ({ point, action: 'create', committed });
const CASES: Case[] = [
  // The start path, before the create request is even read.
  start('lease.acquire.before'),
  start('lease.acquire.after'),
  start('registry.startServer.before'),
  start('registry.startServer.after'),
  start('backup.generation.before'),
  start('backup.generation.after'),
  start('holder.adopt.before'),
  start('holder.adopt.after'),
  start('server.ready.before'),
  start('server.ready.after'),
  // Create: the row, the pending incarnation, the spawn and the binding of its holder.
  start('registry.insertTab.before'),
  start('registry.insertTab.after', true),
  start('registry.updateTab.before', true),
  start('registry.updateTab.after', true),
  start('holder.spawn.before', true),
  start('holder.spawn.after', true),
  start('holder.bind.before', true),
  start('holder.bind.after', true),
  { point: 'registry.putResumeRecord.before', action: 'createAgent', committed: false },
  { point: 'registry.putResumeRecord.after', action: 'createAgent', committed: true },
  { point: 'registry.deleteResumeRecords.before', action: 'wake', committed: false },
  { point: 'registry.deleteResumeRecords.after', action: 'wake', committed: true },
  { point: 'registry.updateTopology.before', action: 'rename', committed: false },
  { point: 'registry.updateTopology.after', action: 'rename', committed: true },
  { point: 'registry.reorderTabs.before', action: 'reorder', committed: false },
  { point: 'registry.reorderTabs.after', action: 'reorder', committed: true },
  { point: 'registry.retireTab.before', action: 'close', committed: false },
  { point: 'registry.retireTab.after', action: 'close', committed: true },
  { point: 'holder.terminate.before', action: 'close', committed: true },
  { point: 'holder.terminate.after', action: 'close', committed: true },
  { point: 'registry.setMeta.before', action: 'view', committed: false },
  { point: 'registry.setMeta.after', action: 'view', committed: true },
  { point: 'holder.setController.before', action: 'view', committed: false },
  { point: 'holder.setController.after', action: 'view', committed: false },
  { point: 'registry.moveAllTabsToHistory.before', action: 'reboot', committed: false },
  { point: 'registry.moveAllTabsToHistory.after', action: 'reboot', committed: true },
];

/** Points no server path reaches: the Registry methods exist for tools and tests. */
const NOT_REACHED: CrashPointName[] = ['registry.deleteTab.before', 'registry.deleteTab.after', 'registry.addHistory.before', 'registry.addHistory.after'];
/** Points of a step every process shares, each killed at in test/atomicWrite.test.ts. */
const TESTED_ELSEWHERE: CrashPointName[] = ['atomicWrite.rename.before', 'atomicWrite.rename.after'];

/** The ordered tab names the registry must hold after the crash. */
function expectedNames(c: Case): string[] {
  const onThree = c.action === 'rename' || c.action === 'reorder' || c.action === 'close' || c.action === 'view';
  const prior = onThree ? ['a', 'k', 'b'] : ['a', 'k'];
  // The agent's tab is committed before its resume record, the step under test.
  if (c.action === 'createAgent' || c.action === 'wake') return [...prior, 'ag'];
  if (!c.committed) return prior;
  switch (c.action) {
    case 'create':
      return [...prior, 'b'];
    case 'rename':
      return ['c', 'k', 'b'];
    case 'reorder':
      return ['k', 'a', 'b'];
    case 'close':
      return ['a', 'b'];
    case 'reboot':
      return [];
    default:
      return prior;
  }
}

function backupCount(e: E2E): number {
  const dir = path.join(stateDir(e), 'backups');
  return fs.existsSync(dir) ? fs.readdirSync(dir).filter((n) => n.endsWith('.db')).length : 0;
}

/** Two running tabs under a first server, which then exits cleanly: its holders keep running
 * and, the exit being clean, start no replacement. With `fakeAgent`, the fake agent's settings
 * are in the environment of every process of the profile from the start: the server after the
 * crash may be started by one of these holders rather than by the test, and tabs it starts get
 * its environment. */
async function priorState(fakeAgent: boolean): Promise<Listing> {
  t = e2e({ closeGraceMs: 300 });
  if (fakeAgent) useFakeAgent(t);
  for (const name of ['a', 'k']) {
    const r = await t.run('new', '--name', name);
    expect(r.code, r.stderr).toBe(0);
  }
  const before = await waitFor(async () => {
    const l = await listing(t!);
    return l.tabs.length === 2 && l.tabs.every((x) => x.status === 'running' && x.holderPid && x.childPid) ? l : null;
  }, { what: 'tabs a and k running' });
  process.kill(before.server!.pid, 'SIGTERM');
  await waitFor(() => !isAlive(before.server!.pid), { what: 'the first server gone' });
  return before;
}

async function act(c: Case, ready: boolean): Promise<void> {
  const e = t!;
  if (!ready) return;
  let client: Awaited<ReturnType<typeof protocolClient>> | undefined;
  try {
    // A server killed right after reporting ready refuses this connection.
    client = await protocolClient(e);
    const create = (name: string, extra: object = {}) => client!.request('create', { name, cwd: e.home.dir, env: e.env, ...extra });
    if (c.action === 'create') await create('b');
    else if (c.action === 'createAgent') await create('ag', { agent: 'generic', command: fakeAgentArgv() });
    else if (c.action === 'wake') {
      // An agent tab put to sleep (a `sleep` record), then viewed: waking spends that record.
      const { tabId: ag } = (await create('ag', { agent: 'generic', command: fakeAgentArgv() })) as { tabId: string };
      await waitForTabSession(e, ag);
      await client!.request('sleep', { tabId: ag });
      await subscribe(client!, 'crash-waker');
      await client!.request('view', { tabId: ag });
    } else if (c.action !== 'reboot') {
      // The step under test runs against three running tabs.
      await create('b');
      const three = await waitFor(async () => {
        const l = await listing(e);
        return l.tabs.length === 3 && l.tabs.every((x) => x.status === 'running') ? l : null;
      }, { what: 'tabs a, k and b running' });
      if (c.action === 'rename') await client!.request('rename', { tabId: tabId(three, 'a'), name: 'c' });
      else if (c.action === 'reorder') await client!.request('reorder', { tabId: tabId(three, 'k'), toIndex: 0 });
      else if (c.action === 'close') await client!.request('close', { tabId: tabId(three, 'k') });
      else if (c.action === 'view') {
        await subscribe(client!, 'crash-viewer');
        await client!.request('view', { tabId: tabId(three, 'a') });
      }
    }
  } catch {
    // The server died under the request: what it left on disk is what the test checks.
  } finally {
    client?.close();
  }
}

describe('crash points', () => {
  it('every documented point has a scenario below, or a reason it is not reached', () => {
    const covered = new Set<string>([...CASES.map((c) => c.point), ...NOT_REACHED, ...TESTED_ELSEWHERE]);
    expect(CRASH_POINTS.filter((p) => !covered.has(p))).toEqual([]);
    expect(new Set(CASES.map((c) => c.point)).size).toBe(CASES.length);
  });

  for (const c of CASES) {
    it(`${c.point}: the registry holds the ${c.committed ? 'new' : 'prior'} state, complete`, async () => {
      const before = await priorState(c.action === 'createAgent' || c.action === 'wake');
      const e = t!;
      const priorEpoch = readDiskRegistry(e).epoch;
      const priorBackups = backupCount(e);
      const armed = spawnServer(e, {
        [CRASH_AT_ENV]: c.point,
        ...(c.action === 'reboot' ? { A1_TEST_BOOT_ID: 'crash-point-boot' } : {}),
      });
      const status = await Promise.race([armed.status, armed.exited.then(() => null)]);
      await act(c, status?.ready === true);
      // Some steps run after the request is answered (a spawn, the agent's report over the bridge).
      const how = await waitFor(() => Promise.race([armed.exited, delay(250).then(() => null)]), { what: `the server killed at ${c.point}`, timeoutMs: 30_000 });
      // Killed at the point, by its own SIGKILL: not an exit, not a crash elsewhere.
      expect(how).toEqual({ code: null, signal: 'SIGKILL' });

      const disk: DiskRegistry = readDiskRegistry(e);
      expect(disk.tabs.map((x) => x.name)).toEqual(expectedNames(c));
      if (c.point === 'lease.acquire.before' || c.point === 'lease.acquire.after' || c.point === 'registry.startServer.before') {
        expect(disk.epoch).toBe(priorEpoch);
      } else {
        expect(disk.epoch).toBe(priorEpoch + 1);
      }
      if (c.point === 'backup.generation.after') expect(backupCount(e)).toBe(priorBackups + 1);
      if (c.point === 'backup.generation.before') expect(backupCount(e)).toBe(priorBackups);
      const agRecords = () => {
        const ag = disk.tabs.find((x) => x.name === 'ag')!;
        return disk.resumeRecords.filter((r) => r.tabId === ag.id).map((r) => r.origin).sort();
      };
      if (c.action === 'createAgent') expect(agRecords()).toEqual(c.committed ? ['live'] : []);
      if (c.action === 'wake') expect(agRecords()).toEqual(c.committed ? ['live'] : ['live', 'sleep']);
      if (c.action === 'reboot') {
        expect(disk.history).toBe(c.committed ? 2 : 0);
        // A reboot's previous tab set is not started again: the next start is not checked here.
        return;
      }

      // The next start (a client's, or a holder's when the crash left the socket behind) loads
      // that registry, adopts the verified holders and converges every tab that should run to
      // running (a wake cut short included: it is committed to run before its checkpoint is spent).
      const settled = (x: Listing['tabs'][number]) => x.status === 'running';
      const again = await e.run('new', '--name', 'after');
      expect(again.code, again.stderr).toBe(0);
      const after = await waitFor(async () => {
        const l = await listing(e);
        return l.server && l.tabs.every(settled) ? l : null;
      }, { what: 'every tab settled after the restart', timeoutMs: 40_000 });
      expect(tabNames(after).filter((n) => n !== 'after')).toEqual(expectedNames(c));
      for (const name of ['a', 'k']) {
        const was = before.tabs.find((x) => x.name === name)!;
        const now = after.tabs.find((x) => x.id === was.id);
        if (!now) continue; // closed by the step under test
        expect({ holderPid: now.holderPid, childPid: now.childPid }, `tab ${name} kept its processes`).toEqual({ holderPid: was.holderPid, childPid: was.childPid });
      }
    });
  }
});
