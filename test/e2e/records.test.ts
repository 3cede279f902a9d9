// Resume records end to end (SPEC §9, the seed's lifecycle matrix, invariants 7 and 8): an agent's
// natural exit or crash keeps its records and ends nothing else, a close revokes them; a sleep
// record never expires by age while a quit record does; a holder's own crash restart resumes only
// from a record that still passes the validator; and a reboot keeps every session resumable.
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, it, expect, afterEach } from 'vitest';
import { e2e, KEY, listing, livePids, PROMPT_SEEN, readStrip, stateDir, waitForStrip, type E2E } from './harness.js';
import {
  agentStartOf,
  agentStarts,
  agentTranscript,
  controlAgent,
  fakeAgentArgv,
  isSameAlive,
  killRef,
  listedTab,
  newAgentTab,
  procRef,
  readJsonLines,
  resumeRecordsOf,
  sessionsOf,
  tabProcesses,
  useFakeAgent,
  waitForNewChild,
  waitForStatus,
  waitForTabSession,
  type ProcRef,
} from './lifecycleHarness.js';
import { RESUME_RECORD_MAX_AGE_MS } from '../../src/lifecycle/records.js';
import type { PtyDriver } from '../helpers/pty.js';
import { waitFor } from '../helpers/wait.js';

/** Past the documented maximum age of live and quit records. */
const AGED_MS = RESUME_RECORD_MAX_AGE_MS + 60_000;

let t: E2E;
const survivors: ProcRef[] = [];
afterEach(async () => {
  for (const ref of survivors.splice(0)) killRef(ref);
  await t?.teardown();
});

/** Has the fake agent of `sessionId` answer `prompt` through its control file; waits for the turn. */
async function oneTurn(dir: string, sessionId: string, prompt: string): Promise<void> {
  const before = agentTranscript(dir, sessionId).length;
  controlAgent(dir, sessionId, prompt);
  await waitFor(() => agentTranscript(dir, sessionId).length === before + 2, { what: `the turn "${prompt}"` });
}

/** The tab's resume records, as origins, sorted. */
function originsOf(tabId: string): string[] {
  return resumeRecordsOf(t)
    .filter((r) => r.tabId === tabId)
    .map((r) => r.origin)
    .sort();
}

/** Moves every resume record's capture time back by `ms` (the profile's server must be down). */
function ageRecords(ms: number): void {
  const db = new Database(path.join(stateDir(t), 'registry.db'));
  try {
    db.prepare('UPDATE resume_records SET captured_at = captured_at - ?').run(ms);
  } finally {
    db.close();
  }
}

/** What the tab's holder logged, by event name. */
function holderEvents(tabId: string, event: string): Record<string, unknown>[] {
  return readJsonLines(path.join(stateDir(t), 'logs', `holder-${tabId}.log`)).filter((e) => e.event === event);
}

/** The resumed agent of `sessionId` on screen with every earlier turn of its transcript. */
function waitForReplay(a1: PtyDriver, sessionId: string, turns: readonly string[]): Promise<string[]> {
  return a1.waitForScreen(
    (lines) => lines.some((l) => l.includes(`fake-agent session ${sessionId} (resumed)`)) && turns.every((p, i) => lines.includes(`> ${p}`) && lines.includes(`reply ${i + 1} to: ${p}`)),
    undefined,
    `session ${sessionId} resumed, replaying ${JSON.stringify(turns)}`,
  );
}

/** Kills the tab's child with SIGKILL; returns its pid. */
async function crashChild(tabId: string): Promise<number> {
  const pid = listedTab(await listing(t), tabId).childPid;
  if (pid === null) throw new Error(`tab ${tabId} has no child`);
  process.kill(pid, 'SIGKILL');
  return pid;
}

describe('natural exit and close are distinct intents', () => {
  it('a crash and an exit 0 keep the records and end nothing else; a close revokes them and ends what the agent left', async () => {
    t = e2e({ closeGraceMs: 300 });
    const dir = useFakeAgent(t);
    // On its first start only, the agent leaves one process outside its session and one inside
    // that ignores hangups: siblings a natural exit must not end.
    const script = `if [ $# -eq 0 ]; then setsid sleep 1020 & nohup sleep 1021 >/dev/null 2>&1 & fi; exec ${fakeAgentArgv().join(' ')} "$@"`;
    const id = await newAgentTab(t, 'nat', ['/bin/bash', '-c', script, 'bash']);
    const other = await newAgentTab(t, 'other');
    const { sessionId } = await waitForTabSession(t, id);
    await waitForTabSession(t, other);
    const otherAgent = procRef(listedTab(await listing(t), other).childPid!)!;
    const siblings = await waitFor(() => {
      const procs = tabProcesses(id).filter((p) => p.argv[0] === 'sleep');
      return procs.length === 2 ? procs : null;
    }, { what: 'the agent\'s two sleeps' });
    survivors.push(...siblings);
    await oneTurn(dir, sessionId, 'before the crash');
    const records = resumeRecordsOf(t).filter((r) => r.tabId === id);
    expect(records.map((r) => [r.origin, r.sessionId])).toEqual([['live', sessionId]]);
    const untouched = () => {
      expect(siblings.every(isSameAlive), 'the agent\'s siblings').toBe(true);
      expect(isSameAlive(otherAgent), 'the other tab\'s agent').toBe(true);
    };

    // A crash: restarted, resumed from the kept record.
    const crashed = await crashChild(id);
    await waitForNewChild(t, id, crashed);
    await waitFor(() => agentStarts(dir, sessionId).length === 2, { what: 'the crashed agent resumed' });
    expect(agentStarts(dir, sessionId)[1]).toMatchObject({ resumed: true, argv: ['--resume', sessionId] });
    expect(originsOf(id)).toEqual(['live']);
    expect((await sessionsOf(t)).find((s) => s.sessionId === sessionId)).toMatchObject({ tabId: id, state: 'open', record: 'live' });
    untouched();

    // An exit 0: the tab shows exited, is not restarted, and its session stays resumable.
    controlAgent(dir, sessionId, '/exit');
    await waitForStatus(t, id, 'exited');
    expect(resumeRecordsOf(t).filter((r) => r.tabId === id).map((r) => [r.origin, r.sessionId])).toEqual([['live', sessionId]]);
    expect((await sessionsOf(t)).find((s) => s.sessionId === sessionId)).toMatchObject({ tabId: id, state: 'open', record: 'live' });
    untouched();
    expect(agentStarts(dir, sessionId)).toHaveLength(2);

    // A close revokes: no record left, the session in history as closed, the siblings ended.
    const stopped = await t.run('tabs', 'stop', id);
    expect(stopped.code, stopped.stderr).toBe(0);
    expect(originsOf(id)).toEqual([]);
    expect((await sessionsOf(t)).find((s) => s.sessionId === sessionId)).toMatchObject({ tabId: null, state: 'closed' });
    await waitFor(() => siblings.every((p) => !isSameAlive(p)), { what: 'the closed agent\'s siblings ended' });
    expect(isSameAlive(otherAgent)).toBe(true);
  });
});

describe('record expiry', () => {
  it('a sleep record past the maximum age still resumes its tab; a quit record as old moves its tab to history', async () => {
    t = e2e({ closeGraceMs: 300 });
    const dir = useFakeAgent(t);
    const sleeper = await newAgentTab(t, 'sleeper');
    const quitter = await newAgentTab(t, 'quitter');
    const { sessionId } = await waitForTabSession(t, sleeper);
    const { sessionId: quitSession } = await waitForTabSession(t, quitter);
    await oneTurn(dir, sessionId, 'before sleeping');
    const slept = await t.run('tabs', 'sleep', sleeper);
    expect(slept.code, slept.stderr).toBe(0);
    await waitForStatus(t, sleeper, 'asleep');
    const stop = await t.run('tabs', 'host', 'stop');
    expect(stop.code, stop.stderr).toBe(0);
    await waitFor(() => livePids(t).length === 0, { what: 'the profile stopped' });
    expect(originsOf(sleeper)).toEqual(['live', 'sleep']);
    expect(originsOf(quitter)).toEqual(['live', 'quit']);
    ageRecords(AGED_MS);

    // A server start decides on both: the quitter's records expired, the sleeper's did not.
    const more = await t.run('new', '--name', 'more');
    expect(more.code, more.stderr).toBe(0);
    const l = await waitFor(async () => {
      const now = await listing(t);
      return now.tabs.length === 2 ? now : null;
    }, { what: 'the quitter gone from the tab set' });
    expect(l.tabs.map((x) => [x.id, x.status])).toEqual([
      [sleeper, 'asleep'],
      [more.stdout.trim(), expect.any(String)],
    ]);
    const sessions = await sessionsOf(t);
    expect(sessions.find((s) => s.sessionId === quitSession)).toMatchObject({ tabId: null, state: 'expired' });
    expect(sessions.find((s) => s.sessionId === sessionId)).toMatchObject({ tabId: sleeper, state: 'asleep', record: 'sleep' });
    expect(agentStarts(dir, quitSession)).toHaveLength(1);

    // Viewing the sleeping tab wakes it: its session resumes, with its transcript.
    const a1 = t.attach();
    await waitForStrip(a1, ['sleeper', 'more']);
    if ((await readStrip(a1)).viewed !== 'sleeper') a1.write('\x1b1');
    await waitForReplay(a1, sessionId, ['before sleeping']);
    await waitForStatus(t, sleeper, 'running');
    const starts = agentStarts(dir, sessionId);
    expect(starts).toHaveLength(2);
    expect(starts[1]).toMatchObject({ resumed: true, argv: ['--resume', sessionId] });
    expect(starts[1].error).toBeUndefined();
  });
});

describe('the holder\'s own restarts pass the validator', () => {
  it('a crash restart resumes only while the record is valid: one that expired meanwhile starts the agent fresh', async () => {
    t = e2e({ closeGraceMs: 300 });
    const dir = useFakeAgent(t);
    // The control tab's holder keeps the real clock.
    const fresh = await newAgentTab(t, 'fresh');
    // For this tab's holder, time runs past the maximum age: as after a server outage that long,
    // with nobody capturing its live record again meanwhile.
    t.env.A1_TEST_HOLDER_CLOCK_SKEW_MS = String(AGED_MS);
    const aged = await newAgentTab(t, 'aged');
    delete t.env.A1_TEST_HOLDER_CLOCK_SKEW_MS;
    const sessions = { fresh: (await waitForTabSession(t, fresh)).sessionId, aged: (await waitForTabSession(t, aged)).sessionId };
    // Each holder has been given its record by the server.
    for (const tabId of [fresh, aged]) {
      await waitFor(() => holderEvents(tabId, 'resume-set').some((e) => e.state === 'live'), { what: `holder of ${tabId} given its live record` });
    }

    const killed = { fresh: await crashChild(fresh), aged: await crashChild(aged) };
    const restarted = { fresh: await waitForNewChild(t, fresh, killed.fresh), aged: await waitForNewChild(t, aged, killed.aged) };
    const start = async (pid: number) => waitFor(() => agentStartOf(dir, pid), { what: `the start of agent ${pid}` });
    expect(await start(restarted.fresh)).toMatchObject({ resumed: true, argv: ['--resume', sessions.fresh] });
    // The expired record was not used: a new session, not a resume of the old one.
    expect(await start(restarted.aged)).toMatchObject({ resumed: false, argv: [] });
    expect(agentStarts(dir, sessions.aged)).toHaveLength(1);
    expect(holderEvents(aged, 'resume-refused')).toEqual([expect.objectContaining({ reason: 'expired' })]);
    expect(holderEvents(fresh, 'resume-refused')).toEqual([]);
    const now = await waitFor(async () => {
      const held = (await sessionsOf(t)).find((s) => s.tabId === aged);
      return held && held.sessionId !== sessions.aged ? held : null;
    }, { what: 'the aged tab holding its new session' });
    expect(now.record).toBe('live');
  });
});

describe('reboot', () => {
  it('with three agent tabs: one new tab, all three sessions listed and in the picker, and one reopens with its transcript', async () => {
    t = e2e({ closeGraceMs: 300 });
    const dir = useFakeAgent(t);
    t.env.A1_TEST_BOOT_ID = 'boot-1';
    const names = ['alpha', 'beta', 'gamma'];
    const past: { name: string; tabId: string; sessionId: string }[] = [];
    for (const name of names) {
      const tabId = await newAgentTab(t, name);
      const { sessionId } = await waitForTabSession(t, tabId);
      await oneTurn(dir, sessionId, `note ${name}`);
      past.push({ name, tabId, sessionId });
    }
    // A reboot ends every process without a host stop. All are stopped first, so no holder sees
    // its child die and restarts it, and no holder starts a server, before the kills land.
    const everything = livePids(t).map((pid) => procRef(pid)).filter((p): p is ProcRef => p !== null);
    for (const p of everything) if (isSameAlive(p)) process.kill(p.pid, 'SIGSTOP');
    for (const p of everything) killRef(p);
    await waitFor(() => livePids(t).length === 0, { what: 'every process of boot 1 gone' });

    t.env.A1_TEST_BOOT_ID = 'boot-2';
    const a1 = t.attach();
    await a1.waitForText(PROMPT_SEEN);
    const l = await listing(t);
    expect(l.tabs).toHaveLength(1);
    expect(past.map((p) => p.tabId)).not.toContain(l.tabs[0].id);
    // The strip is drawn after the prompt: wait for it rather than for however long a listing takes.
    await waitForStrip(a1, ['agent']);
    const sessions = await sessionsOf(t);
    for (const p of past) {
      expect(sessions.find((s) => s.sessionId === p.sessionId), p.name).toMatchObject({ name: p.name, agent: 'generic', tabId: null, state: 'resumable', record: 'live' });
      expect(agentStarts(dir, p.sessionId), p.name).toHaveLength(1);
    }

    a1.write(KEY.tabsPicker);
    await a1.waitForScreen(
      (lines) => names.every((name) => lines.slice(1).some((l) => new RegExp(` ${name} +live `).test(l))),
      undefined,
      'the three sessions in the picker',
    );
    a1.write('beta');
    await a1.waitForScreen((lines) => !lines.slice(1).some((l) => / alpha +live /.test(l)), undefined, 'the filter applied');
    a1.write('\r');
    await waitForStrip(a1, ['agent', 'beta'], 'beta');
    const beta = past[1];
    await waitForReplay(a1, beta.sessionId, ['note beta']);
    expect(agentStarts(dir, beta.sessionId)[1]).toMatchObject({ resumed: true, argv: ['--resume', beta.sessionId] });
    expect(agentTranscript(dir, beta.sessionId).map((x) => x.text)).toEqual(['note beta', 'reply 1 to: note beta']);
    for (const p of [past[0], past[2]]) expect(agentStarts(dir, p.sessionId), p.name).toHaveLength(1);
  });
});
