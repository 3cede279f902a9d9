// One agent session, one agent process (SPEC §9, §10, §15; issue 15): a holder killed while its
// agent ignores SIGHUP, or killed together with the server, never leaves the old agent running
// beside the one that resumes the session. The fake agent (FAKE_AGENT_IGNORE_HUP=1) outlives its
// terminal, and a watcher samples the live processes of the session throughout the recovery.
import path from 'node:path';
import { describe, it, expect, afterEach } from 'vitest';
import { e2e, listing, stateDir, type E2E } from './harness.js';
import {
  agentStarts,
  argvOf,
  FAKE_AGENT,
  fakeAgentArgv,
  isSameAlive,
  killRef,
  listedTab,
  procRef,
  readJsonLines,
  useFakeAgent,
  waitForStatus,
  waitForTabSession,
  type ProcRef,
} from './lifecycleHarness.js';
import { isAlive } from '../helpers/procs.js';
import { waitFor } from '../helpers/wait.js';

/** Short, so an agent that ignores SIGHUP gets its SIGKILL soon; SPEC §15 lets tests shorten it. */
const GRACE_MS = 300;
/** How often the watcher looks for a second agent process: far below any start's duration. */
const WATCH_MS = 10;

let t: E2E;
const leftovers: ProcRef[] = [];
const watchers: NodeJS.Timeout[] = [];
afterEach(async () => {
  for (const w of watchers.splice(0)) clearInterval(w);
  for (const ref of leftovers.splice(0)) killRef(ref);
  await t?.teardown();
});

/** The fake agent processes of `sessionId` alive now: every recorded start whose pid still runs
 * the fake agent, so a pid recycled by anything else never counts. */
function liveAgents(dir: string, sessionId: string): number[] {
  return agentStarts(dir, sessionId)
    .map((s) => Number(s.pid))
    .filter((pid) => isAlive(pid) && argvOf(pid).includes(FAKE_AGENT));
}

/** Samples the session's live agent processes every WATCH_MS until the test ends; `most()` is
 * the largest number seen at once, with the pids seen then. */
function watchAgents(dir: string, sessionId: string): { most: () => { count: number; pids: number[] } } {
  let most = { count: 0, pids: [] as number[] };
  const sample = () => {
    const pids = liveAgents(dir, sessionId);
    if (pids.length > most.count) most = { count: pids.length, pids };
  };
  sample();
  watchers.push(setInterval(sample, WATCH_MS));
  return { most: () => most };
}

/** An agent tab running the fake agent that outlives its terminal; waits until it holds its
 * session and returns the tab, the session and the agent process. */
async function stubbornAgentTab(): Promise<{ id: string; dir: string; sessionId: string; agent: ProcRef }> {
  const dir = useFakeAgent(t);
  t.env.FAKE_AGENT_IGNORE_HUP = '1';
  const made = await t.run('new', '--agent', 'generic', '--name', 'stubborn', '--', ...fakeAgentArgv());
  expect(made.code, made.stderr).toBe(0);
  const id = made.stdout.trim();
  const { sessionId } = await waitForTabSession(t, id);
  const agent = procRef(Number(agentStarts(dir, sessionId)[0]?.pid));
  expect(agent, 'the fake agent runs').not.toBeNull();
  leftovers.push(agent!);
  return { id, dir, sessionId, agent: agent! };
}

/** Waits until the session was resumed by a second start that still runs, and returns it. */
async function waitForResumedAgent(dir: string, sessionId: string): Promise<ProcRef> {
  const start = await waitFor(() => {
    const s = agentStarts(dir, sessionId)[1];
    return s && isAlive(Number(s.pid)) ? s : null;
  }, { what: `a second start of session ${sessionId}, running`, timeoutMs: 40_000 });
  expect(start).toMatchObject({ resumed: true, argv: ['--resume', sessionId] });
  const ref = procRef(Number(start.pid));
  expect(ref).not.toBeNull();
  leftovers.push(ref!);
  return ref!;
}

function serverLog(): Record<string, unknown>[] {
  return readJsonLines(path.join(stateDir(t), 'logs', 'server.log'));
}

describe('never two agent processes for one session', () => {
  it('a holder killed while its agent ignores SIGHUP: the old agent is ended before the session resumes', async () => {
    t = e2e({ closeGraceMs: GRACE_MS });
    const { id, dir, sessionId, agent } = await stubbornAgentTab();
    const watcher = watchAgents(dir, sessionId);
    const holder = listedTab(await listing(t), id).holderPid!;

    process.kill(holder, 'SIGKILL');
    const resumed = await waitForResumedAgent(dir, sessionId);

    expect(watcher.most(), 'live agent processes of the session at once').toMatchObject({ count: 1 });
    expect(isSameAlive(agent), 'the old agent was ended').toBe(false);
    expect(agentStarts(dir, sessionId)).toHaveLength(2);
    expect(isSameAlive(resumed)).toBe(true);
  });

  it('holder and server killed together: the replacement server ends the old agent before it resumes the session', async () => {
    t = e2e({ closeGraceMs: GRACE_MS });
    const { id, dir, sessionId, agent } = await stubbornAgentTab();
    const watcher = watchAgents(dir, sessionId);
    const l = await listing(t);
    const server = procRef(l.server!.pid)!;
    const holder = procRef(listedTab(l, id).holderPid!)!;

    // The same instant: the replacement server finds no live holder state at all.
    process.kill(server.pid, 'SIGKILL');
    process.kill(holder.pid, 'SIGKILL');
    await waitFor(() => !isSameAlive(server) && !isSameAlive(holder), { what: 'server and holder gone' });
    expect(isSameAlive(agent), 'the agent outlived its holder').toBe(true);

    const a1 = t.attach();
    const resumed = await waitForResumedAgent(dir, sessionId);

    expect(watcher.most(), 'live agent processes of the session at once').toMatchObject({ count: 1 });
    expect(isSameAlive(agent), 'the old agent was ended').toBe(false);
    expect(agentStarts(dir, sessionId)).toHaveLength(2);
    expect(isSameAlive(resumed)).toBe(true);
    await a1.waitForText(`fake-agent session ${sessionId} (resumed)`);
  });

  it('an earlier agent that cannot be ended: the tab reports the conflict instead of starting beside it', async () => {
    t = e2e({ closeGraceMs: GRACE_MS });
    // Injected fault: the server's signals to the tab's earlier processes are lost.
    t.env.A1_TEST_EARLIER_SIGNALS_LOST = '1';
    const { id, dir, sessionId, agent } = await stubbornAgentTab();
    const watcher = watchAgents(dir, sessionId);
    const holder = listedTab(await listing(t), id).holderPid!;

    process.kill(holder, 'SIGKILL');
    const failed = await waitForStatus(t, id, 'failed');
    expect(failed.holderPid).toBeNull();
    expect(serverLog().filter((l) => l.event === 'start-refused')).toContainEqual(expect.objectContaining({ tab: id, childPid: agent.pid, reason: 'alive' }));
    const host = await t.run('tabs', 'host', 'status', '--json');
    expect((JSON.parse(host.stdout) as { counters: { degraded: number } }).counters.degraded).toBeGreaterThan(0);
    expect(isSameAlive(agent), 'the earlier agent, never ended, still runs').toBe(true);
    expect(agentStarts(dir, sessionId), 'no second start beside it').toHaveLength(1);

    // Closing the tab is the user's way out: the close ends what the tab left behind.
    const stop = await t.run('tabs', 'stop', id);
    expect(stop.code, stop.stderr).toBe(0);
    await waitFor(() => !isSameAlive(agent), { what: 'the earlier agent ended by the close' });
    expect(agentStarts(dir, sessionId)).toHaveLength(1);
    expect(watcher.most()).toMatchObject({ count: 1 });
  });
});

