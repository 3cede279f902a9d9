// Reboot and `a1 --session` (SPEC §9, §10, §11; issue 4). A reboot is simulated with the
// test-only boot id override A1_TEST_BOOT_ID, which the server reads at start and inherits from
// the client that starts it. A new boot moves the previous tab set to history without starting
// it; bare `a1` then starts one new tab, and the previous agent session stays listed by
// `a1 sessions` and can be opened on purpose with `a1 --session <id>`.
import fs from 'node:fs';
import { describe, it, expect, afterEach } from 'vitest';
import { detach, e2e, hostStop, listing, livePids, probeViewed, PROMPT_SEEN, readStrip, runDir, type E2E } from './harness.js';
import {
  agentStarts,
  fakeAgentArgv,
  FAKE_AGENT,
  isSameAlive,
  newAgentTab,
  procRef,
  serverSocketExists,
  sessionsOf,
  useFakeAgent,
  waitForTabSession,
  type ProcRef,
} from './lifecycleHarness.js';
import { waitFor } from '../helpers/wait.js';

let t: E2E;
afterEach(async () => {
  await t?.teardown();
});

interface Previous {
  dir: string;
  sessionId: string;
  tabIds: string[];
  /** Holders and children of the previous boot's tabs. */
  processes: ProcRef[];
  serverPid: number;
}

/** Boot 1: an attached client with a shell tab and a fake agent tab that reported its session.
 * The client is detached at the end, so nothing restarts a killed server on its own. */
async function bootOne(config: object = {}): Promise<Previous> {
  t = e2e({ closeGraceMs: 300, ...config });
  const dir = useFakeAgent(t);
  t.env.A1_TEST_BOOT_ID = 'boot-1';
  const a1 = t.attach();
  await a1.waitForText(PROMPT_SEEN);
  const agentTab = await newAgentTab(t, 'fake');
  const { sessionId } = await waitForTabSession(t, agentTab);
  await waitFor(() => agentStarts(dir, sessionId).length === 1, { what: 'the fake agent started once' });
  const l = await listing(t);
  expect(l.tabs).toHaveLength(2);
  const processes = l.tabs.flatMap((tab) => [tab.holderPid, tab.childPid]).map((pid) => procRef(pid!));
  expect(processes.every((p) => p !== null)).toBe(true);
  await detach(a1);
  return { dir, sessionId, tabIds: l.tabs.map((x) => x.id), processes: processes as ProcRef[], serverPid: l.server!.pid };
}

/** Bare `a1` under boot 2 shows exactly one new tab running a fresh shell; returns its id. */
async function expectOneNewTab(previous: Previous): Promise<string> {
  t.env.A1_TEST_BOOT_ID = 'boot-2';
  const a1 = t.attach();
  await a1.waitForText(PROMPT_SEEN);
  const l = await listing(t);
  expect(l.tabs).toHaveLength(1);
  const [tab] = l.tabs;
  expect(previous.tabIds).not.toContain(tab.id);
  expect(tab.status).toBe('running');
  expect(previous.processes.map((p) => p.pid)).not.toContain(tab.childPid);
  // The surface paints before the strip (Ink loads with the first paint): wait for the chip.
  await waitFor(async () => (await readStrip(a1)).names.length === 1, { what: 'one chip on the strip' });
  expect((await readStrip(a1)).names).toHaveLength(1);
  await probeViewed(a1, tab.id);
  // The previous agent was not started again.
  expect(agentStarts(previous.dir, previous.sessionId)).toHaveLength(1);
  return tab.id;
}

describe('reboot', () => {
  it('after a host stop, a new boot id moves the tab set to history: one new tab, the session listed', async () => {
    const previous = await bootOne();
    await hostStop(t);
    await expectOneNewTab(previous);
    const row = (await sessionsOf(t)).find((s) => s.sessionId === previous.sessionId);
    // Host stop wrote a `quit` record; a reboot keeps records, so the session stays resumable.
    expect(row).toMatchObject({ agent: 'generic', name: 'fake', tabId: null, state: 'resumable', record: 'quit' });
  });

  it('with the server killed (-9) and its tabs still running, a new boot id ends them and starts one new tab', async () => {
    const previous = await bootOne();
    process.kill(previous.serverPid, 'SIGKILL');
    await waitFor(() => procRef(previous.serverPid) === null, { what: 'the killed server gone' });
    // Holders outlive their server; they are what the new boot must end.
    expect(previous.processes.every(isSameAlive)).toBe(true);
    await expectOneNewTab(previous);
    await waitFor(() => previous.processes.every((p) => !isSameAlive(p)), {
      what: `every holder and child of boot 1 ended: ${JSON.stringify(previous.processes.map((p) => p.pid))}`,
    });
    const row = (await sessionsOf(t)).find((s) => s.sessionId === previous.sessionId);
    // The running agent's periodic `live` record is kept through the reboot.
    expect(row).toMatchObject({ agent: 'generic', name: 'fake', tabId: null, state: 'resumable', record: 'live' });
  });
});

describe('a1 --session', () => {
  it('opens the previous session as a tab running the agent with --resume; a second open focuses that tab', async () => {
    const previous = await bootOne();
    await hostStop(t);
    t.env.A1_TEST_BOOT_ID = 'boot-2';
    const first = t.attach('--session', previous.sessionId);
    // On a timeout the screen shows what the tab ran instead.
    await first.waitForText(`fake-agent session ${previous.sessionId} (resumed)`);
    const starts = agentStarts(previous.dir, previous.sessionId);
    expect(starts).toHaveLength(2);
    expect(starts[1]).toMatchObject({ resumed: true, argv: ['--resume', previous.sessionId] });
    const opened = await listing(t);
    expect(opened.tabs).toHaveLength(1);
    const tabId = opened.tabs[0].id;
    expect(previous.tabIds).not.toContain(tabId);
    expect((await sessionsOf(t)).find((s) => s.sessionId === previous.sessionId)?.tabId).toBe(tabId);

    const second = t.attach(`--session=${previous.sessionId}`);
    await second.waitForText(`fake-agent session ${previous.sessionId} (resumed)`);
    expect((await listing(t)).tabs.map((x) => x.id)).toEqual([tabId]);
    expect(agentStarts(previous.dir, previous.sessionId)).toHaveLength(2);
  });

  it('with an agent kind whose resume template is complete, opens and then focuses the session', async () => {
    // The same flow where the resume command does not depend on the closed tab's own argv.
    const previous = await bootOne({ agents: { generic: { command: fakeAgentArgv(), resume: [process.execPath, FAKE_AGENT, '--resume', '{sessionId}'] } } });
    await hostStop(t);
    t.env.A1_TEST_BOOT_ID = 'boot-2';
    const first = t.attach('--session', previous.sessionId, '--session-dir', t.home.dir);
    await first.waitForText(`fake-agent session ${previous.sessionId} (resumed)`);
    const starts = agentStarts(previous.dir, previous.sessionId);
    expect(starts).toHaveLength(2);
    expect(starts[1]).toMatchObject({ resumed: true, argv: ['--resume', previous.sessionId] });
    const tabIds = (await listing(t)).tabs.map((x) => x.id);
    expect(tabIds).toHaveLength(1);

    const second = t.attach('--session-dir', t.home.dir, '--session', previous.sessionId);
    await second.waitForText(`fake-agent session ${previous.sessionId} (resumed)`);
    expect((await listing(t)).tabs.map((x) => x.id)).toEqual(tabIds);
    expect(agentStarts(previous.dir, previous.sessionId)).toHaveLength(2);
  });

  it('an unknown session id exits 1 with one sentence and opens no tab', async () => {
    t = e2e({ closeGraceMs: 300 });
    const a1 = t.attach('--session', 'no-such-session');
    const exit = await a1.exited;
    expect(exit.exitCode).toBe(1);
    const text = (await a1.flush(), a1.rawOutput());
    expect(text).toContain('a1 knows no agent session "no-such-session"');
    expect((await listing(t)).tabs).toHaveLength(0);
  });

  describe('misuse: one line on stderr, a non-zero exit, nothing started', () => {
    const cases: [string, string[]][] = [
      ['a missing value', ['--session']],
      ['an empty value', ['--session', '']],
      ['an empty = value', ['--session=']],
      ['a duplicate option', ['--session', 'a', '--session', 'b']],
      ['a duplicate --session-dir', ['--session-dir', '/tmp', '--session', 'a', '--session-dir=/tmp']],
      ['an unknown option', ['--session', 'a', '--bogus']],
      ['an extra argument', ['--session', 'a', 'extra']],
      ['--session-dir alone', ['--session-dir', '/tmp']],
    ];
    it.each(cases)('%s', async (_what, args) => {
      t = e2e();
      const r = await t.run(...args);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(serverSocketExists(t)).toBe(false);
      expect(livePids(t)).toEqual([]);
      const status = await t.run('tabs', 'host', 'status', '--json');
      expect(status.code).toBe(0);
      expect(JSON.parse(status.stdout).server).toBeNull();
      expect(fs.existsSync(runDir(t)) ? fs.readdirSync(runDir(t)).filter((f) => f.endsWith('.sock')) : []).toEqual([]);
      const lines = r.stderr.split('\n').filter((l) => l !== '');
      expect(lines, r.stderr).toHaveLength(1);
      expect(lines[0]).toMatch(/^a1: \S/);
    });
  });
});
