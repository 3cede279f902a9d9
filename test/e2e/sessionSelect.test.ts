// Explicit session selection (SPEC §11, §15; the seed's "Explicit session selection belongs to the
// originating launch instance" and "Normal A1 accepts explicit session selection"): each
// `a1 --session` opens its own session in its own tab and views it, whoever else launches at the
// same time; a later bare `a1` reuses nothing of it; a session whose agent cannot start fails in
// its own tab only; the same session named by id, path or link is one tab; help lists both forms.
import fs from 'node:fs';
import path from 'node:path';
import { describe, it, expect, afterEach } from 'vitest';
import { e2e, hostStop, listing, livePids, probeViewed, PROMPT_SEEN, readStrip, waitForStrip, type E2E } from './harness.js';
import {
  agentStarts,
  agentTranscript,
  controlAgent,
  FAILED_NOTICE,
  isSameAlive,
  listedTab,
  newAgentTab,
  procRef,
  serverSocketExists,
  sessionsOf,
  tabProcesses,
  useFakeAgent,
  waitForStatus,
  waitForTabSession,
  type ProcRef,
} from './lifecycleHarness.js';
import type { PtyDriver } from '../helpers/pty.js';
import { waitFor } from '../helpers/wait.js';

let t: E2E;
afterEach(async () => {
  await t?.teardown();
});

/** A closed agent session: its tab is gone, its identity is in history, resumable on purpose. */
interface Past {
  name: string;
  sessionId: string;
  /** The tab that held it, closed now. */
  tabId: string;
  /** The A1_* variables its agent ran with: what a shell that once ran in the tab still carries. */
  markers: Record<string, string>;
}

/** Agent tabs called `names`, each answered one prompt and was then closed. */
async function closedSessions(dir: string, names: readonly string[]): Promise<Past[]> {
  const past: Past[] = [];
  for (const name of names) {
    const tabId = await newAgentTab(t, name);
    const { sessionId } = await waitForTabSession(t, tabId);
    controlAgent(dir, sessionId, `remember ${name}`);
    await waitFor(() => agentTranscript(dir, sessionId).length === 2, { what: `the first turn of ${name}` });
    const markers = tabMarkers(listedTab(await listing(t), tabId).childPid!);
    const stopped = await t.run('tabs', 'stop', tabId);
    expect(stopped.code, stopped.stderr).toBe(0);
    past.push({ name, sessionId, tabId, markers });
  }
  const sessions = await sessionsOf(t);
  for (const p of past) expect(sessions.find((s) => s.sessionId === p.sessionId)).toMatchObject({ state: 'closed', tabId: null });
  return past;
}

/** The A1_TAB_ID, A1_BRIDGE and A1_BRIDGE_TOKEN in a process's environment. */
function tabMarkers(pid: number): Record<string, string> {
  const markers: Record<string, string> = {};
  for (const entry of fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0')) {
    const eq = entry.indexOf('=');
    const key = entry.slice(0, eq);
    if (key === 'A1_TAB_ID' || key === 'A1_BRIDGE' || key === 'A1_BRIDGE_TOKEN') markers[key] = entry.slice(eq + 1);
  }
  expect(Object.keys(markers).sort()).toEqual(['A1_BRIDGE', 'A1_BRIDGE_TOKEN', 'A1_TAB_ID']);
  return markers;
}

/** Runs `fn` with `extra` in the environment the test's a1 processes get. */
async function withEnv<T>(extra: Record<string, string>, fn: () => T | Promise<T>): Promise<T> {
  Object.assign(t.env, extra);
  try {
    return await fn();
  } finally {
    for (const key of Object.keys(extra)) delete t.env[key];
  }
}

/** The resumed fake agent of `p` shows its banner and the turn it had before it was closed. */
function waitForResumed(a1: PtyDriver, p: Past): Promise<string[]> {
  return a1.waitForScreen(
    (lines) => lines.some((l) => l.includes(`fake-agent session ${p.sessionId} (resumed)`)) && lines.includes(`reply 1 to: remember ${p.name}`),
    undefined,
    `session ${p.name} resumed with its first turn`,
  );
}

/** Leaves as a closed terminal does (SIGHUP): unlike Ctrl+C twice, nothing reaches the tab, and
 * the fake agent, like the real ones, exits on a second Ctrl+C at its prompt. */
async function hangUp(a1: PtyDriver): Promise<void> {
  a1.kill('SIGHUP');
  await a1.exited;
}

/** The running agent process of the session, by pid and start time. */
function agentProcess(dir: string, sessionId: string): ProcRef {
  const ref = procRef(Number(agentStarts(dir, sessionId).at(-1)?.pid));
  if (ref === null) throw new Error(`the agent of ${sessionId} is not running`);
  return ref;
}

/** The id of the tab holding `sessionId`, from `a1 tabs --json`. */
async function tabOf(sessionId: string): Promise<string> {
  return waitFor(async () => (await listing(t)).tabs.find((x) => x.agent?.sessionId === sessionId)?.id, { what: `the tab holding ${sessionId}` });
}

describe('a1 --session belongs to the launch that names it', () => {
  it('two launches at once with different sessions: each views its own, and closing one leaves the other running', async () => {
    t = e2e({ closeGraceMs: 300 });
    const dir = useFakeAgent(t);
    const [one, two] = await closedSessions(dir, ['one', 'two']);
    // No server: both launches race to start it, as two terminals would.
    await hostStop(t);

    const first = t.attach('--session', one.sessionId);
    const second = t.attach('--session', two.sessionId);
    const [firstScreen, secondScreen] = await Promise.all([waitForResumed(first, one), waitForResumed(second, two)]);
    expect(firstScreen.join('\n')).not.toContain(two.sessionId);
    expect(secondScreen.join('\n')).not.toContain(one.sessionId);
    await waitFor(async () => (await readStrip(first)).viewed === 'one' && (await readStrip(second)).viewed === 'two', { what: 'each launch viewing its own tab' });

    const tabs = (await listing(t)).tabs;
    expect(tabs.map((x) => x.name).sort()).toEqual(['one', 'two']);
    for (const p of [one, two]) {
      const starts = agentStarts(dir, p.sessionId);
      expect(starts).toHaveLength(2);
      expect(starts[1]).toMatchObject({ resumed: true, argv: ['--resume', p.sessionId] });
      expect(starts[1].error).toBeUndefined();
    }
    const oneTab = await tabOf(one.sessionId);
    const twoTab = await tabOf(two.sessionId);
    const twoAgent = agentProcess(dir, two.sessionId);
    const oneAgent = agentProcess(dir, one.sessionId);

    const stopped = await t.run('tabs', 'stop', oneTab);
    expect(stopped.code, stopped.stderr).toBe(0);
    await waitFor(() => !isSameAlive(oneAgent), { what: 'the closed session\'s agent ended' });
    await waitForStrip(first, ['two']);
    await waitForStrip(second, ['two'], 'two');
    expect(isSameAlive(twoAgent)).toBe(true);
    expect(listedTab(await listing(t), twoTab)).toMatchObject({ status: 'running', childPid: twoAgent.pid });
    // The other session still takes its user's prompts.
    second.write('still here\r');
    await second.waitForText('reply 2 to: still here');
    expect(agentStarts(dir, two.sessionId)).toHaveLength(2);
    expect((await sessionsOf(t)).find((s) => s.sessionId === one.sessionId)).toMatchObject({ state: 'closed', tabId: null });
  });

  it('a bare a1 after a1 --session attaches to the tabs there are, with or without stale A1_* variables, and opens nothing', async () => {
    t = e2e({ closeGraceMs: 300 });
    const dir = useFakeAgent(t);
    const [past] = await closedSessions(dir, ['resumed']);
    const launch = t.attach('--session', past.sessionId);
    await waitForResumed(launch, past);
    await hangUp(launch);
    const tabId = await tabOf(past.sessionId);
    const agent = agentProcess(dir, past.sessionId);

    const expectNothingNew = async (a1: PtyDriver): Promise<void> => {
      await waitForStrip(a1, ['resumed'], 'resumed');
      await waitForResumed(a1, past);
      const l = await listing(t);
      expect(l.tabs.map((x) => x.id)).toEqual([tabId]);
      expect(listedTab(l, tabId).childPid).toBe(agent.pid);
      expect(agentStarts(dir, past.sessionId)).toHaveLength(2);
    };
    const bare = t.attach();
    await expectNothingNew(bare);
    await hangUp(bare);

    // A shell that once ran in the closed tab still carries its variables: they name a tab that
    // no longer exists, so a1 neither refuses as if nested nor passes them on.
    const stale = await withEnv(past.markers, () => t.attach());
    await expectNothingNew(stale);
    await hangUp(stale);

    // The same variables of a live tab do mean nesting: a1 refuses and opens nothing.
    const live = tabMarkers(agent.pid);
    const nested = await withEnv(live, () => t.run());
    expect(nested.code).toBe(1);
    expect(nested.stderr).toBe('a1: a1 is already running in this tab; use "a1 new" to open another tab.\n');
    expect((await listing(t)).tabs.map((x) => x.id)).toEqual([tabId]);

    // With no tab left, the stale launch makes one fresh tab, which has its own id and bridge.
    const stopped = await t.run('tabs', 'stop', tabId);
    expect(stopped.code, stopped.stderr).toBe(0);
    const fresh = await withEnv(past.markers, () => t.attach());
    await fresh.waitForText(PROMPT_SEEN);
    const [tab] = (await listing(t)).tabs;
    expect((await listing(t)).tabs).toHaveLength(1);
    expect(tab.id).not.toBe(past.tabId);
    await probeViewed(fresh, tab.id);
    fresh.write('echo "bridge=$A1_BRIDGE"\r');
    await fresh.waitForText(/bridge=\/\S+/);
    expect(fresh.screenText().join('\n')).not.toContain(`bridge=${past.markers.A1_BRIDGE}`);
    expect(agentStarts(dir, past.sessionId)).toHaveLength(2);
  });

  it('a session whose agent cannot start fails in its own tab; the other client and tab carry on', async () => {
    t = e2e({ closeGraceMs: 300 });
    const dir = useFakeAgent(t);
    const [gone] = await closedSessions(dir, ['gone']);
    // The agent's own session file is gone: its resume exits 3 at start (test/fixtures/fake-agent.mjs).
    fs.rmSync(path.join(dir, `${gone.sessionId}.jsonl`));
    const keepTab = await newAgentTab(t, 'keep');
    const { sessionId: keepSession } = await waitForTabSession(t, keepTab);
    const other = t.attach();
    await waitForStrip(other, ['keep'], 'keep');
    await other.waitForText(`fake-agent session ${keepSession} (new)`);
    const keepAgent = agentProcess(dir, keepSession);

    const launch = t.attach('--session', gone.sessionId);
    await launch.waitForText(FAILED_NOTICE);
    // The user sees why: the agent's own words, on the failed tab's last screen.
    await launch.waitForText(`no session ${gone.sessionId} to resume`);
    expect((await readStrip(launch)).viewed).toBe('gone');
    const goneTab = await tabOf(gone.sessionId);
    await waitForStatus(t, goneTab, 'failed');
    // Every start after the close tried to resume that session, and failed.
    const starts = agentStarts(dir, gone.sessionId);
    expect(starts.slice(1).map((s) => [s.resumed, s.error])).toEqual([
      [true, 'no-session'],
      [true, 'no-session'],
      [true, 'no-session'],
    ]);
    // None of its processes is left running.
    await waitFor(() => tabProcesses(goneTab).length === 0, { what: 'no process of the failed tab left' });

    expect(isSameAlive(keepAgent)).toBe(true);
    expect(listedTab(await listing(t), keepTab)).toMatchObject({ status: 'running', childPid: keepAgent.pid });
    expect((await readStrip(other)).viewed).toBe('keep');
    other.write('unaffected\r');
    await other.waitForText('reply 1 to: unaffected');
    expect(agentStarts(dir, keepSession)).toHaveLength(1);
  });
});

describe('a1 --session beside resident tabs', () => {
  it('opens the session in a new tab beside the running ones and views it; by path, relative path or link it focuses that tab', async () => {
    t = e2e({ closeGraceMs: 300 });
    const dir = useFakeAgent(t);
    const [past] = await closedSessions(dir, ['aliased']);
    const resident = t.attach();
    await resident.waitForText(PROMPT_SEEN);
    const made = await t.run('new', '--name', 'second');
    expect(made.code, made.stderr).toBe(0);
    const before = await waitFor(async () => {
      const l = await listing(t);
      return l.tabs.length === 2 && l.tabs.every((x) => x.status === 'running') ? l : null;
    }, { what: 'two resident tabs running' });
    const residentChildren = before.tabs.map((x) => procRef(x.childPid!)!);

    const launch = t.attach('--session', past.sessionId);
    await waitForResumed(launch, past);
    await waitForStrip(launch, ['agent', 'second', 'aliased'], 'aliased');
    await waitForStrip(resident, ['agent', 'second', 'aliased']);
    const tabId = await tabOf(past.sessionId);
    expect(residentChildren.every(isSameAlive)).toBe(true);
    expect(agentStarts(dir, past.sessionId)).toHaveLength(2);

    // The session's file names the same session, however it is reached.
    const file = path.join(dir, `${past.sessionId}.jsonl`);
    const link = path.join(t.home.dir, 'my-session.jsonl');
    fs.symlinkSync(file, link);
    for (const alias of [file, path.relative(t.home.dir, file), link]) {
      const again = t.attach('--session', alias);
      await waitForStrip(again, ['agent', 'second', 'aliased'], 'aliased');
      await waitForResumed(again, past);
      expect((await listing(t)).tabs.map((x) => x.id)).toEqual([...before.tabs.map((x) => x.id), tabId]);
      expect(agentStarts(dir, past.sessionId), alias).toHaveLength(2);
      await hangUp(again);
    }
  });
});

describe('a1 --help', () => {
  it.each([['--help'], ['-h']])('%s lists both session forms and starts nothing', async (flag) => {
    t = e2e();
    const r = await t.run(flag);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('a1 --session <id|path> [--session-dir DIR]');
    expect(r.stdout).toMatch(/--session-dir DIR\]\s+open an agent session as a tab/);
    expect(serverSocketExists(t)).toBe(false);
    expect(livePids(t)).toEqual([]);
  });
});
