// Limits and idleness (SPEC §10, §12; issue 7): the tab limit refuses a new tab in one sentence,
// holder starts beyond tabsMaxConcurrentStarts wait their turn instead of running at once, an
// unviewed idle agent tab that can resume sleeps and wakes resumed when viewed, and a server with
// no client and no running tab (asleep ones included) exits.
import fs from 'node:fs';
import { setTimeout as pause } from 'node:timers/promises';
import { describe, it, expect, afterEach } from 'vitest';
import path from 'node:path';
import { e2e, listing, protocolClient, PROMPT_SEEN, serverPids, stateDir, waitForStrip, type E2E } from './harness.js';
import {
  agentStarts,
  argvOf,
  isSameAlive,
  listedTab,
  newAgentTab,
  procRef,
  readJsonLines,
  sessionsOf,
  useFakeAgent,
  waitForStatus,
  waitForTabSession,
} from './lifecycleHarness.js';
import { isAlive, pidsWithEnv } from '../helpers/procs.js';
import { waitFor } from '../helpers/wait.js';

let t: E2E;
afterEach(async () => {
  await t?.teardown();
});

async function newTab(...args: string[]): Promise<string> {
  const r = await t.run('new', ...args);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout.trim();
}

/** The tab each live holder process of this profile serves (its A1_HOLDER_TAB). */
function holderTabs(): string[] {
  const tabs: string[] = [];
  for (const pid of pidsWithEnv('A1_HOME', t.home.dir)) {
    if (!argvOf(pid).includes('__holder') || !isAlive(pid)) continue;
    try {
      const env = fs.readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0');
      const tab = env.find((e) => e.startsWith('A1_HOLDER_TAB='));
      if (tab) tabs.push(tab.slice('A1_HOLDER_TAB='.length));
    } catch {
      // Exited meanwhile.
    }
  }
  return tabs;
}

/** Waits until the server has run at least `ms`, by its own clock: a duration without a sleep. */
async function serverUptimeAtLeast(ms: number): Promise<void> {
  await waitFor(async () => {
    const r = await t.run('tabs', 'host', 'status', '--json');
    return (JSON.parse(r.stdout).server?.uptimeMs ?? 0) >= ms;
  }, { what: `the server up for ${ms} ms`, timeoutMs: ms + 30_000 });
}

describe('limits', () => {
  it('tabsMax: a1 new at the limit fails in one sentence with a non-zero status and creates nothing', async () => {
    t = e2e({ tabsMax: 2 });
    await newTab('--name', 'one');
    await newTab('--name', 'two');
    const refused = await t.run('new', '--name', 'three');
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toBe('a1: The tab limit of 2 is reached; close a tab to open another.\n');
    expect((await listing(t)).tabs.map((x) => x.name)).toEqual(['one', 'two']);
  });

  it('tabsMaxConcurrentStarts: slow starts beyond the limit wait their turn, and every tab starts', async () => {
    t = e2e({ tabsMaxConcurrentStarts: 2 });
    // Each holder start takes at least this long between spawn and binding.
    t.env.A1_TEST_BIND_DELAY_MS = '1500';
    const first = await newTab('--name', 'tab1');
    const client = await protocolClient(t);
    try {
      const made = Promise.all([2, 3, 4, 5].map((n) => newTab('--name', `tab${n}`)));
      let most = 0;
      let running = 0;
      const deadline = Date.now() + 60_000;
      // In flight: a tab with a holder process that is not running yet (spawned, not yet bound).
      // Counted by tab: a holder forking its child shows twice until the child execs.
      while (running < 5) {
        const holders = new Set(holderTabs());
        const l = await client.request('list');
        const runningIds = new Set(l.tabs.filter((x) => x.status === 'running').map((x) => x.id));
        const inFlight = [...holders].filter((id) => !runningIds.has(id)).length;
        most = Math.max(most, inFlight);
        expect(inFlight, `starts in flight; listing ${JSON.stringify(l.tabs)}`).toBeLessThanOrEqual(2);
        running = runningIds.size;
        if (Date.now() > deadline) throw new Error(`only ${running} of 5 tabs started`);
        // A sampling interval, not a wait for a condition: short next to the 1.5 s starts.
        await pause(10);
      }
      const ids = await made;
      expect(ids).toHaveLength(4);
      expect(ids).not.toContain(first);
      // The limit was reached, not merely never approached.
      expect(most).toBe(2);
      expect(new Set(holderTabs()).size).toBe(5);
    } finally {
      client.close();
    }
  });
});

describe('client queue', () => {
  it('clientQueueBytes: a stopped client is not queued for past the limit, and gets the whole tab list when it reads again', async () => {
    const limit = 1024 * 1024;
    t = e2e({ clientQueueBytes: limit });
    // Every topology message carries the tab's cwd: a long one makes each about 3 KB.
    const deep = path.join(t.home.dir, ...Array.from({ length: 14 }, (_, i) => `${i}`.padEnd(200, 'd')));
    fs.mkdirSync(deep, { recursive: true });
    const a = t.attach();
    await a.waitForText(PROMPT_SEEN);
    const tabId = await newTab('--cwd', deep, '--name', 'n0');
    await waitForStrip(a, ['agent', 'n0']);
    process.kill(a.pid, 'SIGSTOP');
    const driver = await protocolClient(t);
    const behind = () => readJsonLines(path.join(stateDir(t), 'logs', 'server.log')).some((e) => e.event === 'client-behind');
    let renames = 0;
    try {
      // 2,000 renames are about 6 MB of messages: far past the socket's buffer and the limit.
      while (!behind() && renames < 2_000) {
        for (let i = 0; i < 50; i++) await driver.request('rename', { tabId, name: `n${++renames}` });
      }
    } finally {
      driver.close();
      process.kill(a.pid, 'SIGCONT');
    }
    expect(behind(), `no client-behind after ${renames} renames`).toBe(true);
    // More than the limit's worth of messages were held back, yet the client ends up current.
    expect(renames * 3_000).toBeGreaterThan(limit);
    await waitForStrip(a, ['agent', `n${renames}`]);
  });
});

describe('idle suspension and idle exit', () => {
  it('an unviewed idle agent tab sleeps after the interval; a viewed agent and a shell stay; viewing wakes it resumed', async () => {
    // 6 s: long enough for the test to attach its client to the agent it must keep viewed.
    t = e2e({ idleSuspendMinutes: 0.1, closeGraceMs: 300 });
    const dir = useFakeAgent(t);
    const viewedId = await newAgentTab(t, 'viewed');
    const a1 = t.attach();
    const viewed = await waitForTabSession(t, viewedId);
    await a1.waitForText(`fake-agent session ${viewed.sessionId} (new)`);
    const idleId = await newAgentTab(t, 'idle');
    const shellId = await newTab('--name', 'shell');
    const idle = await waitForTabSession(t, idleId);
    const idleAgent = procRef(Number(agentStarts(dir, idle.sessionId).at(-1)?.pid));
    expect(idleAgent).not.toBeNull();
    // The shell's child is listed once it has started: compare with its pid, not with the start.
    const before = await waitFor(async () => {
      const l = await listing(t);
      return [viewedId, shellId].every((id) => listedTab(l, id).childPid !== null) ? l : null;
    }, { what: 'the viewed agent and the shell running' });

    await waitForStatus(t, idleId, 'asleep');
    await waitFor(() => !isSameAlive(idleAgent!), { what: 'the idle agent process ended' });
    expect((await sessionsOf(t)).find((s) => s.sessionId === idle.sessionId)).toMatchObject({ tabId: idleId, state: 'asleep', record: 'sleep' });
    // Two more intervals by the server's clock: the viewed agent and the shell are left alone.
    const up = JSON.parse((await t.run('tabs', 'host', 'status', '--json')).stdout).server.uptimeMs as number;
    await serverUptimeAtLeast(up + 12_000);
    const after = await listing(t);
    for (const id of [viewedId, shellId]) {
      expect(listedTab(after, id).status).toBe('running');
      expect(listedTab(after, id).childPid).toBe(listedTab(before, id).childPid);
    }
    expect(agentStarts(dir, viewed.sessionId)).toHaveLength(1);

    // Viewing it (Alt+2) wakes it: the same session, resumed.
    a1.write('\x1b2');
    await waitFor(() => agentStarts(dir, idle.sessionId).length === 2, { what: 'the idle agent resumed' });
    expect(agentStarts(dir, idle.sessionId)[1]).toMatchObject({ resumed: true });
    await a1.waitForText(`fake-agent session ${idle.sessionId} (resumed)`);
    await waitForStatus(t, idleId, 'running');
  });

  it('with every tab asleep and no client the server exits; the next a1 resumes the session', async () => {
    t = e2e({ idleSuspendMinutes: 0.02, serverIdleExitMinutes: 0.02, closeGraceMs: 300 });
    const dir = useFakeAgent(t);
    const id = await newAgentTab(t, 'agent');
    const { sessionId } = await waitForTabSession(t, id);
    await waitForStatus(t, id, 'asleep');
    // Watched through /proc: every `a1 tabs` would be a client and keep the server up. It may
    // have exited already: the listing that saw the tab asleep was its last client.
    await waitFor(() => serverPids(t).length === 0, { what: 'the idle server exited', timeoutMs: 30_000 });
    const l = await listing(t);
    expect(l.server).toBeNull();
    expect(listedTab(l, id).status).toBe('asleep');
    await waitFor(() => pidsWithEnv('A1_HOME', t.home.dir).filter(isAlive).length === 0, { what: 'no process of the profile left' });
    expect(agentStarts(dir, sessionId)).toHaveLength(1);

    const a1 = t.attach();
    await a1.waitForText(`fake-agent session ${sessionId} (resumed)`);
    expect(agentStarts(dir, sessionId)[1]).toMatchObject({ resumed: true });
  });
});
