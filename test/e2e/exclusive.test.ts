// One agent session, one agent process (SPEC §9, §10, §15; issue 15): a holder killed while its
// agent ignores SIGHUP, or killed together with the server, never leaves the old agent running
// beside the one that resumes the session; an earlier process that cannot be ended or verified
// keeps the tab from starting. The fake agent (FAKE_AGENT_IGNORE_HUP=1) outlives its terminal,
// and a watcher samples the live processes of the session throughout the recovery. Also the child
// lifecycle's own rows: a late exit of a replaced child is discarded, and two crashes in a row
// leave two distinct crash records.
import fs from 'node:fs';
import path from 'node:path';
import { describe, it, expect, afterEach } from 'vitest';
import { e2e, KEY, listing, stateDir, type E2E } from './harness.js';
import {
  agentStarts,
  isSameAlive,
  killRef,
  listedTab,
  liveAgents,
  newAgentTab,
  procRef,
  readJsonLines,
  runPromptCommand,
  useFakeAgent,
  waitForNewChild,
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
/** A replacement server tries a silent holder 10 times, each up to two 2 s timeouts apart. */
const UNVERIFIABLE_WITHIN_MS = 90_000;
/** How long after a child's exit the holder is handed it again (A1_TEST_LATE_EXIT_MS): well after
 * the forced restart has started its successor. */
const LATE_EXIT_MS = 2_000;

let t: E2E;
const leftovers: ProcRef[] = [];
const stopped: ProcRef[] = [];
const watchers: NodeJS.Timeout[] = [];
afterEach(async () => {
  for (const w of watchers.splice(0)) clearInterval(w);
  for (const ref of stopped.splice(0)) if (isSameAlive(ref)) process.kill(ref.pid, 'SIGCONT');
  for (const ref of leftovers.splice(0)) killRef(ref);
  await t?.teardown();
});

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
  const id = await newAgentTab(t, 'stubborn');
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

function holderLog(tabId: string): Record<string, unknown>[] {
  return readJsonLines(path.join(stateDir(t), 'logs', `holder-${tabId}.log`));
}

interface CrashRecord {
  at: string;
  role: string;
  incarnation: string | null;
  reason: string;
  detail: Record<string, unknown>;
  file: string;
}

/** The child-exit crash records the tab's holder wrote, oldest first. */
function childExitRecords(tabId: string): CrashRecord[] {
  const dir = path.join(stateDir(t), 'crash');
  const names = fs.existsSync(dir) ? fs.readdirSync(dir).filter((n) => n.endsWith('.json')).sort() : [];
  return names
    .map((file) => ({ ...(JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as Omit<CrashRecord, 'file'>), file }))
    .filter((r) => r.reason === 'child-exit' && r.role === `holder-${tabId}`);
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
    expect(serverLog(), 'ended by the server before the start').toContainEqual(expect.objectContaining({ event: 'earlier-ended', tab: id }));
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
    expect(serverLog(), 'ended by the server before the start').toContainEqual(expect.objectContaining({ event: 'earlier-ended', tab: id }));
    expect(agentStarts(dir, sessionId)).toHaveLength(2);
    expect(isSameAlive(resumed)).toBe(true);
    await a1.waitForText(`fake-agent session ${sessionId} (resumed)`);
  });

  it('an earlier agent that cannot be ended: the tab reports the conflict instead of starting beside it, and a1 still attaches', async () => {
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

    // The failed tab never stands between the user and a1: the client stays, says what r, f and
    // Alt+W do, and closing the tab is the user's way out: the close ends what it left behind.
    const a1 = t.attach();
    await a1.waitForText('r retries, f starts fresh, Alt+W closes it.');
    expect(a1.line(0)).toContain('stubborn');
    a1.write(KEY.closeTab);
    await waitFor(async () => (await listing(t)).tabs.length === 0, { what: 'the failed tab closed from the client' });
    await waitFor(() => !isSameAlive(agent), { what: 'the earlier agent ended by the close' });
    expect(agentStarts(dir, sessionId)).toHaveLength(1);
    expect(watcher.most()).toMatchObject({ count: 1 });
  });

  it('a previous holder that lives but cannot be verified: the tab reports the conflict instead of starting', async () => {
    t = e2e({ closeGraceMs: GRACE_MS });
    const { id, dir, sessionId, agent } = await stubbornAgentTab();
    const watcher = watchAgents(dir, sessionId);
    const l = await listing(t);
    const server = procRef(l.server!.pid)!;
    const holder = procRef(listedTab(l, id).holderPid!)!;

    // The holder lives but answers nothing; its server dies, and a replacement must decide.
    process.kill(holder.pid, 'SIGSTOP');
    stopped.push(holder);
    process.kill(server.pid, 'SIGKILL');
    await waitFor(() => !isSameAlive(server), { what: 'the server gone' });
    const other = await t.run('new', '--name', 'other');
    expect(other.code, other.stderr).toBe(0);

    const failed = await waitFor(async () => {
      const tab = listedTab(await listing(t), id);
      return tab.status === 'failed' ? tab : null;
    }, { what: `tab ${id} failed`, timeoutMs: UNVERIFIABLE_WITHIN_MS });
    expect(failed.holderPid, 'the unverified holder stays recorded').toBe(holder.pid);
    expect(serverLog()).toContainEqual(expect.objectContaining({ event: 'adopt-unverifiable', tab: id, holderPid: holder.pid }));
    // Left untouched, and nothing started beside it.
    expect(isSameAlive(holder)).toBe(true);
    expect(isSameAlive(agent)).toBe(true);
    expect(agentStarts(dir, sessionId)).toHaveLength(1);
    expect(watcher.most()).toMatchObject({ count: 1 });
  });
});

describe('the child lifecycle', () => {
  it('an exit of a replaced child that arrives late is discarded: its successor runs on, no crash counted', async () => {
    t = e2e({ closeGraceMs: GRACE_MS });
    // Injected delay: each child's exit reaches the holder a second time, LATE_EXIT_MS later.
    t.env.A1_TEST_LATE_EXIT_MS = String(LATE_EXIT_MS);
    const { id, dir, sessionId, agent } = await stubbornAgentTab();
    const watcher = watchAgents(dir, sessionId);
    const a1 = t.attach();
    await a1.waitForText(`fake-agent session ${sessionId} (new)`);

    await runPromptCommand(a1, 'restart');
    const successor = await waitForResumedAgent(dir, sessionId);
    await waitFor(() => holderLog(id).some((l) => l.event === 'child-exit-superseded' && l.childPid === agent.pid), {
      what: 'the replaced child\'s exit delivered again, and set aside',
    });

    expect(listedTab(await listing(t), id)).toMatchObject({ status: 'running', childPid: successor.pid });
    expect(isSameAlive(successor)).toBe(true);
    expect(agentStarts(dir, sessionId)).toHaveLength(2);
    expect(watcher.most()).toMatchObject({ count: 1 });
    // The restart was asked for: no crash record, no crash restart, one exit handled.
    const events = holderLog(id).map((l) => l.event);
    expect(events.filter((e) => e === 'child-exited')).toHaveLength(1);
    expect(events).not.toContain('child-respawn');
    expect(childExitRecords(id)).toEqual([]);
    // The successor still has its terminal: what is typed reaches it and it answers.
    a1.write('still one\r');
    await a1.waitForText('reply 1 to: still one');
  });

  it('two crashes in a row leave two child-exit crash records, both kept, told apart by child and time', async () => {
    t = e2e({ closeGraceMs: GRACE_MS });
    const dir = useFakeAgent(t);
    const id = await newAgentTab(t, 'crashy');
    const { sessionId } = await waitForTabSession(t, id);

    const first = Number(agentStarts(dir, sessionId)[0].pid);
    process.kill(first, 'SIGKILL');
    const second = await waitForNewChild(t, id, first);
    // Killed only once it runs as the agent (restarted, resumed), as a second crash would be.
    await waitFor(() => agentStarts(dir, sessionId).some((s) => s.pid === second), { what: 'the restarted agent running' });
    process.kill(second, 'SIGKILL');
    await waitForNewChild(t, id, second);

    const records = await waitFor(() => {
      const r = childExitRecords(id);
      return r.length === 2 ? r : null;
    }, { what: 'two child-exit crash records' });
    expect(records.map((r) => r.detail.childPid)).toEqual([first, second]);
    expect(records.map((r) => r.detail.signal)).toEqual([9, 9]);
    const [a, b] = records.map((r) => r.detail.childInc);
    expect(typeof a === 'string' && typeof b === 'string' && a !== b, `child incarnations ${a} and ${b}`).toBe(true);
    expect(Date.parse(records[0].at)).toBeLessThan(Date.parse(records[1].at));
    expect(records[0].file).not.toBe(records[1].file);
    // One holder wrote both: its own incarnation is the records' writer, the same for both.
    expect(records[0].incarnation).toBe(records[1].incarnation);
  });
});

