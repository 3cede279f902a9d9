// What a close may end (SPEC §9 "Retirement", the seed's invariant 4 and "Termination fails"):
// its candidates minus whatever another live tab claims as its own, and when one of its processes
// cannot be ended, the tab stays closed, its session is not resumable, and the failure is logged
// and shown. The process that cannot be ended is made so by the test-only fault
// A1_TEST_SIGNAL_REFUSED (src/diag/testFaults.ts): a1's signals to it fail as for a process a1
// may not signal.
import { describe, it, expect, afterEach } from 'vitest';
import { e2e, listing, livePids, waitForStrip, type E2E } from './harness.js';
import {
  agentStarts,
  fakeAgentArgv,
  isSameAlive,
  killRef,
  listedTab,
  procRef,
  resumeRecordsOf,
  serverLogErrors,
  sessionsOf,
  tabProcesses,
  useFakeAgent,
  waitForTabSession,
  type ProcRef,
} from './lifecycleHarness.js';
import { waitFor } from '../helpers/wait.js';

const GRACE_MS = 300;
/** The program name the fault refuses to signal. */
const UNKILLABLE = 'a1-test-unkillable';

let t: E2E;
const survivors: ProcRef[] = [];
afterEach(async () => {
  for (const ref of survivors.splice(0)) killRef(ref);
  await t?.teardown();
});

/** Waits until the tab's marked processes include exactly one whose argv[0] is `name`. */
function waitForProgram(tabId: string, name: string, argv1?: string): Promise<ProcRef> {
  return waitFor(() => {
    const found = tabProcesses(tabId).filter((p) => p.argv[0] === name && (argv1 === undefined || p.argv[1] === argv1));
    return found.length === 1 ? found[0] : null;
  }, { what: `${name} ${argv1 ?? ''} in tab ${tabId}` });
}

/** The processes carrying A1_TAB_ID=<tabId> whose argv is `sleep <seconds>`. */
function waitForSleep(markerTab: string, seconds: number): Promise<ProcRef> {
  return waitForProgram(markerTab, 'sleep', String(seconds));
}

describe('a close that cannot end one of its processes', () => {
  it('leaves the tab closed and its session not resumable, and says so in the log, to clients and to a1 tabs stop', async () => {
    t = e2e({ closeGraceMs: GRACE_MS });
    const dir = useFakeAgent(t);
    t.env.A1_TEST_SIGNAL_REFUSED = UNKILLABLE;
    // The agent tab starts a process that left its session (found by the tab's marker) and that
    // a1 may not signal; "$@" passes resume arguments on, so a resume could happen: the test can fail.
    const script = `setsid bash -c 'exec -a ${UNKILLABLE} sleep 1000' & exec ${fakeAgentArgv().join(' ')} "$@"`;
    const made = await t.run('new', '--agent', 'generic', '--name', 'stuck', '--', '/bin/bash', '-c', script, 'bash');
    expect(made.code, made.stderr).toBe(0);
    const tabId = made.stdout.trim();
    const { sessionId } = await waitForTabSession(t, tabId);
    const unkillable = await waitForProgram(tabId, UNKILLABLE);
    survivors.push(unkillable);
    const tab = listedTab(await listing(t), tabId);
    const agent = procRef(tab.childPid!)!;
    const holder = procRef(tab.holderPid!)!;
    const viewer = t.attach();
    await waitForStrip(viewer, ['stuck'], 'stuck');

    const stopped = await t.run('tabs', 'stop', tabId);
    const sentence = `Tab "stuck" is closed, but 1 of its processes could not be ended (pid ${unkillable.pid}).`;
    expect(stopped.code).toBe(1);
    expect(stopped.stdout).toContain('stopped stuck (1/1)');
    expect(stopped.stderr).toBe(`a1: ${sentence}\n`);
    // Every other process of the tab ended; the refused one really is still running.
    expect(isSameAlive(agent)).toBe(false);
    await waitFor(() => !isSameAlive(holder), { what: 'the closed tab\'s holder gone' });
    expect(isSameAlive(unkillable)).toBe(true);
    // Shown to the client that was viewing it, and logged by event name.
    await viewer.waitForText(sentence);
    await waitForStrip(viewer, []);
    expect(serverLogErrors(t)).toEqual([expect.objectContaining({ event: 'termination-incomplete', tab: tabId, count: 1, reason: 'user' })]);

    // The tab stays closed and its session goes to history; nothing gives resume authority back.
    const expectRetired = async () => {
      expect((await listing(t)).tabs.map((x) => x.id)).not.toContain(tabId);
      expect(resumeRecordsOf(t).filter((r) => r.tabId === tabId || r.sessionId === sessionId)).toEqual([]);
      expect((await sessionsOf(t)).find((s) => s.sessionId === sessionId)).toMatchObject({ state: 'closed', tabId: null });
    };
    await expectRetired();
    const hostStopped = await t.run('tabs', 'host', 'stop');
    expect(hostStopped.code, hostStopped.stderr).toBe(0);
    await waitFor(() => livePids(t).every((pid) => pid === unkillable.pid), { what: 'nothing of the profile left but the refused process' });
    const after = await t.run('new', '--name', 'after');
    expect(after.code, after.stderr).toBe(0);
    await waitFor(async () => (await listing(t)).tabs.map((x) => x.name).join() === 'after', { what: 'only the new tab after the restart' });
    await expectRetired();
    expect(agentStarts(dir, sessionId)).toHaveLength(1);
  });
});

describe('a process another live tab claims', () => {
  it('is never ended by this tab\'s close, however it carries this tab\'s marker', async () => {
    t = e2e({ closeGraceMs: GRACE_MS });
    useFakeAgent(t);
    // Tab A, an agent: its own escapee must end with it (the close can fail this test).
    const a = await t.run('new', '--agent', 'generic', '--name', 'A', '--', '/bin/bash', '-c', `setsid sleep 1010 & exec ${fakeAgentArgv().join(' ')}`);
    expect(a.code, a.stderr).toBe(0);
    const aId = a.stdout.trim();
    await waitForTabSession(t, aId);
    const aEscapee = await waitForSleep(aId, 1010);
    const aAgent = procRef(listedTab(await listing(t), aId).childPid!)!;

    // Tab B, an agent whose whole tree carries A's marker: its child, a job in its session, and
    // a descendant that left its session. A's close finds all three by marker; B claims all three.
    const tree = `sleep 1011 & setsid sleep 1012 & exec sleep 1013`;
    const b = await t.run('new', '--agent', 'generic', '--name', 'B', '--', '/usr/bin/env', `A1_TAB_ID=${aId}`, '/bin/bash', '-c', tree);
    expect(b.code, b.stderr).toBe(0);
    const bId = b.stdout.trim();
    const bJob = await waitForSleep(aId, 1011);
    const bEscapee = await waitForSleep(aId, 1012);
    const bChild = await waitForSleep(aId, 1013);
    survivors.push(aEscapee, bJob, bEscapee, bChild);
    await waitFor(async () => listedTab(await listing(t), bId).childPid === bChild.pid, { what: 'tab B running its child' });

    const stopA = await t.run('tabs', 'stop', aId);
    expect(stopA.code, stopA.stderr).toBe(0);
    expect(isSameAlive(aAgent)).toBe(false);
    expect(isSameAlive(aEscapee)).toBe(false);
    for (const p of [bChild, bJob, bEscapee]) expect(isSameAlive(p), `${p.argv.join(' ')} of tab B`).toBe(true);
    expect(listedTab(await listing(t), bId)).toMatchObject({ status: 'running', childPid: bChild.pid });

    // B's own close ends them: they were B's all along.
    const stopB = await t.run('tabs', 'stop', bId);
    expect(stopB.code, stopB.stderr).toBe(0);
    for (const p of [bChild, bJob, bEscapee]) expect(isSameAlive(p), `${p.argv.join(' ')} after B's close`).toBe(false);
    expect(serverLogErrors(t)).toEqual([]);
  });
});
