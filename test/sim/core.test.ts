// The server core's decisions one interleaving at a time: the races the shell used to guard on its
// own (late reports and spawns after a close, duplicate close, held sessions) and the rules the
// simulation relies on (commit before acknowledge, one start in flight, the restart budget,
// controller transfer, fencing).
import { describe, expect, it } from 'vitest';
import { boot, DEFAULT_TAB_SPEC, step, HOLDER_LOSSES_ALLOWED, HOLDER_LOSS_WINDOW_MS, spendHolderRestart, VIEW_WAIT_MS } from '../../src/server/core/index.js';
import type { CommitResult, CoreEvent, CoreState, Effect, HolderReport, Lifecycle, Mutation } from '../../src/server/core/index.js';

type Answer = (m: Mutation) => CommitResult;
const ok: Answer = () => 'ok';

/** Feeds one event and answers its commits at once, as the registry adapter does. */
function drive(state: CoreState, event: CoreEvent, answer: Answer = ok): { state: CoreState; effects: Effect[]; commits: Mutation[] } {
  const effects: Effect[] = [];
  const commits: Mutation[] = [];
  const go = (s: CoreState, e: CoreEvent): CoreState => {
    const r = step(s, e);
    let next = r.state;
    for (const f of r.effects) {
      if (f.t === 'commit') {
        commits.push(f.mutation);
        next = go(next, { t: 'committed', id: f.id, result: answer(f.mutation) });
      } else effects.push(f);
    }
    return next;
  };
  return { state: go(state, event), effects, commits };
}

function served(): CoreState {
  const b = boot('s1', 0, { epoch: 4, rev: 0, tabs: {} });
  expect(b.effects).toEqual([{ t: 'commit', id: 1, epoch: 5, rev: 0, mutation: { t: 'startEpoch', epoch: 5 } }]);
  let s = drive(b.state, { t: 'committed', id: 1, result: 'ok' }).state;
  s = drive(s, { t: 'clientAttached', clientId: 'c1' }).state;
  return drive(s, { t: 'clientAttached', clientId: 'c2' }).state;
}

const req = (clientId: string, reqId: number, r: Extract<CoreEvent, { t: 'request' }>['req']): CoreEvent => ({ t: 'request', clientId, reqId, req: r });
const replies = (fx: Effect[]) => fx.filter((f) => f.t === 'reply').map((f) => (f as Extract<Effect, { t: 'reply' }>).reply);
const report = (lifecycle: Lifecycle, sessionId: string | null = null): HolderReport => ({ lifecycle, sessionId, agentKind: null, child: null, exit: null, glyph: null });
/** A command tab's command: it is not a shell. */
const NPM_TEST = ['/bin/sh', '-c', 'npm test'];
const spawns = (fx: Effect[]) => fx.filter((f): f is Extract<Effect, { t: 'spawnHolder' }> => f.t === 'spawnHolder');

/** The holder of `inc` comes up as pid `pid`: its spawn completes and it is verified, running. */
function bindHolder(s: CoreState, tabId: string, inc: string, pid: number): CoreState {
  s = drive(s, { t: 'spawned', tabId, inc, pid, startTime: `st${pid}` }).state;
  const facts = { pid, startTime: `st${pid}`, controller: { clientId: null, rev: 0 }, lifecycle: 'running' as const, sessionId: null, child: null, glyph: null, agentKind: null, exit: null };
  return drive(s, { t: 'holderVerified', tabId, inc, facts }).state;
}

/** A new agent tab is closed or put to sleep while its first spawn is in flight; then the spawn
 * completes as pid 77. */
function spawnCompletingAfter(end: 'close' | 'sleep') {
  let s = served();
  const created = drive(s, req('c1', 1, { op: 'create', name: 'a', sessionId: 'sess2' }));
  const [spawn] = spawns(created.effects);
  s = drive(created.state, req('c1', 2, { op: end, tabId: spawn.tabId })).state;
  return { late: drive(s, { t: 'spawned', tabId: spawn.tabId, inc: spawn.inc, pid: 77, startTime: 'st77' }), tabId: spawn.tabId };
}

/** A served core with one running tab whose holder is bound. */
/** A running tab; with `command`, a command tab (`a1 new -- CMD`), else a shell tab. */
function withRunningTab(sessionId: string | null = null, command: string[] | null = null, kind = DEFAULT_TAB_SPEC.kind) {
  let s = served();
  const spec = command || kind !== DEFAULT_TAB_SPEC.kind ? { spec: { ...DEFAULT_TAB_SPEC, kind, ...(command ? { command } : {}) } } : {};
  const created = drive(s, req('c1', 1, { op: 'create', name: 'a', sessionId, ...spec }));
  s = created.state;
  const tabId = (replies(created.effects)[0] as { tabId: string }).tabId;
  const [spawn] = spawns(created.effects);
  const spawned = drive(s, { t: 'spawned', tabId, inc: spawn.inc, pid: 50, startTime: 'st50' });
  s = spawned.state;
  expect(spawned.effects).toContainEqual({ t: 'verifyHolder', epoch: 5, tabId, ref: { inc: spawn.inc, pid: 50, startTime: 'st50' } });
  const facts = { pid: 50, startTime: 'st50', controller: { clientId: null, rev: 0 }, lifecycle: 'running' as const, sessionId: null, child: null, glyph: null, agentKind: null, exit: null };
  s = drive(s, { t: 'holderVerified', tabId, inc: spawn.inc, facts }).state;
  expect(s.tabs[tabId]).toMatchObject({ bound: true, lifecycle: 'running' });
  return { s, tabId, inc: spawn.inc };
}

/** A running tab whose holder is lost until the restart budget is spent: failed, no holder. */
function failedPastBudget() {
  let { s, tabId, inc } = withRunningTab();
  for (let loss = 0; s.tabs[tabId].lifecycle !== 'failed'; loss++) {
    s = drive(s, { t: 'linkClosed', tabId, inc }).state;
    const gone = drive(s, { t: 'holderGone', tabId, inc });
    s = gone.state;
    const [spawn] = spawns(gone.effects);
    if (!spawn) break;
    inc = spawn.inc;
    s = bindHolder(s, tabId, inc, 200 + loss);
  }
  return { s, tabId };
}

describe('start and fencing', () => {
  it('does nothing before its epoch is committed, and exits if it cannot commit it', () => {
    const b = boot('s1', 0, { epoch: 2, rev: 7, tabs: {} });
    expect(b.state.phase).toBe('starting');
    const early = drive(b.state, req('c1', 1, { op: 'create', name: 'a', sessionId: null }));
    expect(early.commits).toEqual([]);
    const failed = drive(b.state, { t: 'committed', id: 1, result: 'failed' });
    expect(failed.state.phase).toBe('stopped');
    expect(failed.effects).toEqual([{ t: 'exit', reason: 'fenced' }]);
  });

  it('stops at a fenced commit: no acknowledgement, and nothing afterwards', () => {
    const s = served();
    const r = drive(s, req('c1', 1, { op: 'create', name: 'a', sessionId: null }), () => 'fenced');
    expect(replies(r.effects)).toEqual([{ ok: false, code: 'write-failed' }]);
    expect(r.effects).toContainEqual({ t: 'exit', reason: 'fenced' });
    expect(drive(r.state, req('c1', 2, { op: 'create', name: 'b', sessionId: null })).effects).toEqual([]);
  });
});

describe('topology', () => {
  it('acknowledges a create only after its commit, at the next revision', () => {
    const r = drive(served(), req('c1', 1, { op: 'create', name: 'a', sessionId: null }));
    expect(r.commits[0]).toMatchObject({ t: 'insertTab', tab: { name: 'a' } });
    expect(replies(r.effects)).toEqual([{ ok: true, tabId: expect.any(String), rev: 1 }]);
    expect(r.state.rev).toBe(1);
  });

  it('never acknowledges a failed write, and keeps nothing of it in memory', () => {
    const r = drive(served(), req('c1', 1, { op: 'create', name: 'a', sessionId: null }), (m) => (m.t === 'insertTab' ? 'failed' : 'ok'));
    expect(replies(r.effects)).toEqual([{ ok: false, code: 'write-failed' }]);
    expect(r.state.tabs).toEqual({});
    expect(r.state.phase).toBe('serving');
  });

  it('refuses a mutation against an older revision whole', () => {
    const { s, tabId } = withRunningTab();
    const r = drive(s, req('c2', 9, { op: 'rename', tabId, name: 'b', expectedRev: 0 }));
    expect(replies(r.effects)).toEqual([{ ok: false, code: 'conflict' }]);
    expect(r.commits).toEqual([]);
  });

  it('closes once: the second close of the same tab is a no-op', () => {
    const { s, tabId } = withRunningTab();
    const first = drive(s, req('c1', 2, { op: 'close', tabId }));
    expect(first.commits).toEqual([{ t: 'retireTab', id: tabId, reason: 'closed' }]);
    expect(first.effects).toContainEqual({ t: 'kill', epoch: 5, tabId, pid: 50, startTime: 'st50' });
    const second = drive(first.state, req('c2', 3, { op: 'close', tabId }));
    expect(second.commits).toEqual([]);
    expect(replies(second.effects)).toEqual([{ ok: true, closed: false }]);
  });
});

describe('late events after a close', () => {
  it('kills a spawn that completes after its tab was closed, before binding it', () => {
    const { late, tabId } = spawnCompletingAfter('close');
    expect(late.commits).toEqual([]);
    expect(late.effects).toEqual([{ t: 'kill', epoch: 5, tabId, pid: 77, startTime: 'st77' }]);
  });

  it('launches a cleared start only while its tab still starts that incarnation', () => {
    const created = drive(served(), req('c1', 1, { op: 'create', name: 'a', sessionId: null }));
    const [spawn] = spawns(created.effects);
    const cleared = drive(created.state, { t: 'startCleared', tabId: spawn.tabId, inc: spawn.inc });
    expect(cleared.effects).toEqual([{ t: 'launchHolder', epoch: 5, tabId: spawn.tabId, inc: spawn.inc }]);
    expect(cleared.state.spawns).toEqual({ [spawn.inc]: spawn.tabId });
    // Closed while its earlier processes were being ended: nothing is launched, the spawn is done.
    const closed = drive(created.state, req('c1', 2, { op: 'close', tabId: spawn.tabId })).state;
    const late = drive(closed, { t: 'startCleared', tabId: spawn.tabId, inc: spawn.inc });
    expect(late.effects).toEqual([]);
    expect(late.commits).toEqual([]);
    expect(late.state.spawns).toEqual({});
  });

  it('ignores a holder state or bridge report that arrives after the close', () => {
    const { s, tabId, inc } = withRunningTab();
    const closed = drive(s, req('c1', 2, { op: 'close', tabId })).state;
    const late = drive(closed, { t: 'holderState', tabId, inc, report: report('failed', 'sess-late') });
    expect(late.commits).toEqual([]);
    expect(late.effects).toEqual([]);
    expect(late.state.tabs[tabId]).toBeUndefined();
  });

  it('ignores reports from a superseded holder incarnation', () => {
    const { s, tabId } = withRunningTab();
    const r = drive(s, { t: 'holderState', tabId, inc: 'old', report: report('failed', null) });
    expect(r.commits).toEqual([]);
  });
});

describe('agent sessions', () => {
  it('focuses the tab that holds a session instead of opening it twice', () => {
    const { s, tabId } = withRunningTab('sess1');
    const r = drive(s, req('c2', 5, { op: 'create', name: 'again', sessionId: 'sess1' }));
    expect(r.commits).toEqual([]);
    expect(replies(r.effects)).toEqual([{ ok: true, tabId, focused: true }]);
  });

  it('does not record a reported session that another live tab holds', () => {
    const first = withRunningTab('sess1');
    const created = drive(first.s, req('c1', 2, { op: 'create', name: 'b', sessionId: null }));
    const [spawn] = spawns(created.effects);
    let s = drive(created.state, { t: 'spawned', tabId: spawn.tabId, inc: spawn.inc, pid: 60, startTime: 'st60' }).state;
    const facts = { pid: 60, startTime: 'st60', controller: { clientId: null, rev: 0 }, lifecycle: 'running' as const, sessionId: null, child: null, glyph: null, agentKind: null, exit: null };
    s = drive(s, { t: 'holderVerified', tabId: spawn.tabId, inc: spawn.inc, facts }).state;
    const r = drive(s, { t: 'holderState', tabId: spawn.tabId, inc: spawn.inc, report: report('running', 'sess1') });
    expect(r.commits).toEqual([]);
    expect(r.state.tabs[spawn.tabId].sessionId).toBeNull();
  });
});

describe('holders', () => {
  it('spends at most HOLDER_LOSSES_ALLOWED restarts per window, and the window slides', () => {
    let times: number[] = [];
    for (let i = 0; i < HOLDER_LOSSES_ALLOWED; i++) {
      const spent = spendHolderRestart(times, 1_000 + i);
      expect(spent.ok).toBe(true);
      times = spent.times;
    }
    expect(spendHolderRestart(times, 2_000)).toEqual({ ok: false, times });
    const later = spendHolderRestart(times, 1_000 + HOLDER_LOSS_WINDOW_MS);
    expect(later.ok).toBe(true);
    expect(later.times).toEqual([1_001, 1_002, 1_000 + HOLDER_LOSS_WINDOW_MS]);
  });

  it('keeps at most one start in flight per tab', () => {
    const created = drive(served(), req('c1', 1, { op: 'create', name: 'a', sessionId: null }));
    expect(spawns(created.effects)).toHaveLength(1);
    let s = created.state;
    for (let t = 1; t <= 3; t++) {
      const r = drive(s, { t: 'tick', now: t * 1000 });
      expect(spawns(r.effects)).toEqual([]);
      s = r.state;
    }
  });

  it('commits the pending incarnation before spawning it', () => {
    const created = drive(served(), req('c1', 1, { op: 'create', name: 'a', sessionId: null }), (m) => (m.t === 'update' ? 'failed' : 'ok'));
    expect(spawns(created.effects)).toEqual([]);
  });

  it('replaces a lost holder within the budget, then fails the tab', () => {
    let { s, tabId, inc } = withRunningTab();
    for (let loss = 1; loss <= HOLDER_LOSSES_ALLOWED + 1; loss++) {
      const r = drive(s, { t: 'linkClosed', tabId, inc });
      expect(r.effects).toContainEqual({ t: 'verifyHolder', epoch: 5, tabId, ref: expect.objectContaining({ inc }) });
      const gone = drive(r.state, { t: 'holderGone', tabId, inc });
      s = gone.state;
      const [spawn] = spawns(gone.effects);
      if (loss <= HOLDER_LOSSES_ALLOWED) {
        expect(spawn).toBeDefined();
        inc = spawn.inc;
        s = bindHolder(s, tabId, inc, 100 + loss);
      } else {
        expect(spawn).toBeUndefined();
        expect(s.tabs[tabId].lifecycle).toBe('failed');
      }
    }
  });
});

describe('controller', () => {
  it('gives a viewed tab with no controller to its viewer, commits after the ack, and hands over when the viewer leaves', () => {
    const { s: s0, tabId, inc } = withRunningTab();
    const viewed = drive(s0, req('c1', 2, { op: 'view', tabId }));
    expect(viewed.effects).toContainEqual({ t: 'sendToHolder', epoch: 5, tabId, inc, cmd: { t: 'setController', clientId: 'c1', rev: 1 } });
    expect(viewed.commits).toEqual([]);
    const acked = drive(viewed.state, { t: 'controllerAck', tabId, inc, rev: 1 });
    expect(acked.commits).toEqual([{ t: 'update', id: tabId, patch: { controllerRev: 1 } }]);
    let s = drive(acked.state, req('c2', 3, { op: 'view', tabId })).state;
    expect(s.tabs[tabId].transfer).toBeNull();
    const gone = drive(s, { t: 'clientGone', clientId: 'c1' });
    expect(gone.effects).toContainEqual({ t: 'sendToHolder', epoch: 5, tabId, inc, cmd: { t: 'setController', clientId: 'c2', rev: 2 } });
    s = gone.state;
    const claim = drive(s, req('c1', 4, { op: 'claim', tabId }));
    expect(claim.effects).toEqual([]);
  });

  it('a passive page (a1 web) views without taking control, is never handed it, and keeps what it claimed', () => {
    const { s: s0, tabId, inc } = withRunningTab();
    const transfers = (fx: Effect[]) => fx.filter((f) => f.t === 'sendToHolder' && f.cmd.t === 'setController');
    let s = drive(s0, { t: 'clientAttached', clientId: 'web', passive: true }).state;
    // Viewing a tab nobody controls leaves it with nobody.
    const viewed = drive(s, req('web', 2, { op: 'view', tabId }));
    expect(transfers(viewed.effects)).toEqual([]);
    expect(replies(viewed.effects)).toEqual([{ ok: true, holderInc: inc, controller: false }]);
    // A terminal client views it and takes it, as from nobody; when it leaves, the page is not handed it.
    const terminal = drive(viewed.state, req('c1', 3, { op: 'view', tabId }));
    expect(transfers(terminal.effects)).toEqual([{ t: 'sendToHolder', epoch: 5, tabId, inc, cmd: { t: 'setController', clientId: 'c1', rev: 1 } }]);
    s = drive(terminal.state, { t: 'controllerAck', tabId, inc, rev: 1 }).state;
    const left = drive(s, { t: 'clientGone', clientId: 'c1' });
    expect(transfers(left.effects)).toEqual([{ t: 'sendToHolder', epoch: 5, tabId, inc, cmd: { t: 'setController', clientId: null, rev: 2 } }]);
    s = drive(left.state, { t: 'controllerAck', tabId, inc, rev: 2 }).state;
    // The page claims it, and keeps it while it views the tab, even with a terminal client viewing too.
    const claimed = drive(s, req('web', 4, { op: 'claim', tabId, force: true }));
    expect(transfers(claimed.effects)).toEqual([{ t: 'sendToHolder', epoch: 5, tabId, inc, cmd: { t: 'setController', clientId: 'web', rev: 3 } }]);
    s = drive(claimed.state, { t: 'controllerAck', tabId, inc, rev: 3 }).state;
    const another = drive(s, req('c2', 5, { op: 'view', tabId }));
    expect(transfers(another.effects)).toEqual([]);
    expect(drive(another.state, { t: 'tick', now: 1 }).effects.filter((f) => f.t === 'sendToHolder' && f.cmd.t === 'setController')).toEqual([]);
    // The terminal client takes it back with its key (a forced claim).
    const back = drive(another.state, req('c2', 6, { op: 'claim', tabId, force: true }));
    expect(transfers(back.effects)).toEqual([{ t: 'sendToHolder', epoch: 5, tabId, inc, cmd: { t: 'setController', clientId: 'c2', rev: 4 } }]);
    s = drive(back.state, { t: 'controllerAck', tabId, inc, rev: 4 }).state;
    // A claim without force (the page retaking its tab on a replacement server) takes only from nobody.
    expect(transfers(drive(s, req('web', 7, { op: 'claim', tabId, force: false })).effects)).toEqual([]);
    s = drive(drive(s, { t: 'clientGone', clientId: 'c2' }).state, { t: 'controllerAck', tabId, inc, rev: 5 }).state;
    expect(s.tabs[tabId].controller.clientId).toBeNull();
    const retaken = drive(s, req('web', 8, { op: 'claim', tabId, force: false }));
    expect(transfers(retaken.effects)).toEqual([{ t: 'sendToHolder', epoch: 5, tabId, inc, cmd: { t: 'setController', clientId: 'web', rev: 6 } }]);
  });
});

describe('sleep and wake', () => {
  it('commits the tab asleep before ending its holder, and viewing it starts a new one', () => {
    const { s, tabId } = withRunningTab('sess1');
    const slept = drive(s, req('c1', 2, { op: 'sleep', tabId }));
    expect(slept.commits).toEqual([{ t: 'update', id: tabId, patch: { desired: 'stopped', lifecycle: 'asleep', holder: null, child: null } }]);
    // The checkpoint is written before the commit, the holder ended after it.
    expect(slept.effects).toEqual([
      { t: 'putResumeRecord', epoch: 5, tabId, sessionId: 'sess1', origin: 'sleep' },
      { t: 'reply', clientId: 'c1', reqId: 2, reply: { ok: true, asleep: true } },
      { t: 'kill', epoch: 5, tabId, pid: 50, startTime: 'st50' },
    ]);
    // Asleep, it stays asleep: nothing starts it, a second sleep is a no-op.
    const tick = drive(slept.state, { t: 'tick', now: 1 });
    expect(spawns(tick.effects)).toEqual([]);
    expect(tick.effects).toContainEqual({ t: 'sweepOrphans', epoch: 5, owned: [] });
    const again = drive(tick.state, req('c2', 3, { op: 'sleep', tabId }));
    expect(again.commits).toEqual([]);
    expect(replies(again.effects)).toEqual([{ ok: true, asleep: true }]);
    // Viewing wakes it: wanted running first, then a holder starts.
    const woken = drive(again.state, req('c1', 4, { op: 'view', tabId }));
    expect(woken.commits[0]).toEqual({ t: 'update', id: tabId, patch: { desired: 'running', lifecycle: 'starting' } });
    // Live record first, then wanted running, then the spent checkpoint dropped.
    expect(woken.effects.slice(0, 2)).toEqual([
      { t: 'putResumeRecord', epoch: 5, tabId, sessionId: 'sess1', origin: 'live' },
      { t: 'dropResumeRecords', epoch: 5, tabId, origin: 'sleep' },
    ]);
    const [spawn] = spawns(woken.effects);
    expect(spawn).toBeDefined();
    // The view waits for the new holder, and gets it with control.
    expect(replies(woken.effects)).toEqual([]);
    const bound = drive(woken.state, { t: 'spawned', tabId, inc: spawn.inc, pid: 60, startTime: 'st60' });
    expect(replies(bound.effects)).toEqual([]);
    const facts = { pid: 60, startTime: 'st60', controller: { clientId: null, rev: 0 }, lifecycle: 'running' as const, sessionId: 'sess1', child: null, glyph: null, agentKind: null, exit: null };
    const verified = drive(bound.state, { t: 'holderVerified', tabId, inc: spawn.inc, facts });
    expect(verified.effects).toContainEqual({ t: 'reply', clientId: 'c1', reqId: 4, reply: { ok: true, holderInc: spawn.inc, controller: true } });
    expect(verified.state.views).toEqual([]);
  });

  it('refuses a tab with no agent session, and kills a spawn that completes after the tab slept', () => {
    const plain = withRunningTab();
    expect(replies(drive(plain.s, req('c1', 2, { op: 'sleep', tabId: plain.tabId })).effects)).toEqual([{ ok: false, code: 'not-resumable' }]);
    expect(replies(drive(plain.s, req('c1', 2, { op: 'sleep', tabId: 'nope' })).effects)).toEqual([{ ok: false, code: 'no-tab' }]);

    const { late, tabId } = spawnCompletingAfter('sleep');
    expect(late.commits).toEqual([]);
    expect(late.effects).toEqual([{ t: 'kill', epoch: 5, tabId, pid: 77, startTime: 'st77' }]);
  });

  it('acknowledges no sleep whose commit failed, and keeps the holder', () => {
    const { s, tabId } = withRunningTab('sess1');
    const failed = drive(s, req('c1', 2, { op: 'sleep', tabId }), (m) => (m.t === 'update' ? 'failed' : 'ok'));
    expect(replies(failed.effects)).toEqual([{ ok: false, code: 'write-failed' }]);
    expect(failed.effects.some((f) => f.t === 'kill')).toBe(false);
    expect(failed.state.tabs[tabId]).toMatchObject({ bound: true, lifecycle: 'running', desired: 'running' });
  });
});

describe('restart', () => {
  it('restarts an exited child in its holder, a running one only when forced', () => {
    const { s, tabId, inc } = withRunningTab(null, NPM_TEST);
    const exited = drive(s, { t: 'holderState', tabId, inc, report: report('exited', null) }).state;
    const r = drive(exited, req('c1', 2, { op: 'restart', tabId, fresh: true, force: false }));
    expect(r.effects).toContainEqual({ t: 'sendToHolder', epoch: 5, tabId, inc, cmd: { t: 'restartChild', fresh: true, force: false } });
    expect(replies(r.effects)).toEqual([{ ok: true, restarted: true }]);
    const running = drive(s, req('c1', 2, { op: 'restart', tabId, fresh: false, force: false }));
    expect(replies(running.effects)).toEqual([{ ok: true, restarted: false }]);
    const forced = drive(s, req('c1', 2, { op: 'restart', tabId, fresh: false, force: true }));
    expect(forced.effects).toContainEqual({ t: 'sendToHolder', epoch: 5, tabId, inc, cmd: { t: 'restartChild', fresh: false, force: true } });
  });

  it('f abandons the agent session: the tab holds none, its records go, then the holder restarts fresh; no report of it brings it back', () => {
    const { s, tabId, inc } = withRunningTab('sess1', null, 'claude');
    const exited = drive(s, { t: 'holderState', tabId, inc, report: { ...report('exited', 'sess1'), agent: true } }).state;
    expect(exited.tabs[tabId].sessionId).toBe('sess1');
    const r = drive(exited, req('c1', 2, { op: 'restart', tabId, fresh: true, force: false }));
    expect(r.commits).toEqual([{ t: 'update', id: tabId, patch: { sessionId: null } }]);
    expect(r.effects.filter((f) => f.t !== 'notifyClients')).toEqual([
      { t: 'dropResumeRecords', epoch: 5, tabId, origin: 'all' },
      { t: 'sendToHolder', epoch: 5, tabId, inc, cmd: { t: 'restartChild', fresh: true, force: false } },
      { t: 'reply', clientId: 'c1', reqId: 2, reply: { ok: true, restarted: true } },
    ]);
    expect(r.state.tabs[tabId]).toMatchObject({ sessionId: null, reported: { sessionId: null } });
    // The new agent has not reported yet: nothing the core does resumes the old session.
    const quiet = drive(drive(r.state, { t: 'tick', now: 1_000 }).state, { t: 'holderState', tabId, inc, report: report('running', null) });
    expect(quiet.commits).toEqual([{ t: 'update', id: tabId, patch: { lifecycle: 'running' } }]);
    expect(quiet.state.tabs[tabId].sessionId).toBeNull();
    expect(quiet.effects.some((f) => f.t === 'putResumeRecord')).toBe(false);
    // Its own session, once reported, is the tab's.
    const own = drive(quiet.state, { t: 'holderState', tabId, inc, report: report('running', 'sess2') });
    expect(own.commits).toEqual([{ t: 'update', id: tabId, patch: { sessionId: 'sess2' } }]);
    expect(own.effects).toContainEqual({ t: 'putResumeRecord', epoch: 5, tabId, sessionId: 'sess2', origin: 'live' });
  });

  it('acknowledges no f whose commit failed, and tells the holder nothing', () => {
    const { s, tabId, inc } = withRunningTab('sess1', null, 'claude');
    const exited = drive(s, { t: 'holderState', tabId, inc, report: { ...report('exited', 'sess1'), agent: true } }).state;
    const r = drive(exited, req('c1', 2, { op: 'restart', tabId, fresh: true, force: false }), () => 'failed');
    expect(replies(r.effects)).toEqual([{ ok: false, code: 'write-failed' }]);
    expect(r.effects.some((f) => f.t === 'sendToHolder' || f.t === 'dropResumeRecords')).toBe(false);
    expect(r.state.tabs[tabId].sessionId).toBe('sess1');
  });

  it('gives a tab failed past the holder budget a new holder with a fresh budget', () => {
    const { s, tabId } = failedPastBudget();
    expect(s.tabs[tabId]).toMatchObject({ lifecycle: 'failed', holder: null });
    const r = drive(s, req('c1', 9, { op: 'restart', tabId, fresh: false, force: false }));
    expect(r.commits[0]).toEqual({ t: 'update', id: tabId, patch: { lifecycle: 'starting', holder: null, child: null } });
    expect(spawns(r.effects)).toHaveLength(1);
    expect(r.state.tabs[tabId].losses).toEqual([]);
    expect(replies(r.effects)).toEqual([{ ok: true, restarted: true }]);
  });
});

describe('heartbeats and holders that cannot be verified', () => {
  const pings = (fx: Effect[]) => fx.filter((f) => f.t === 'sendToHolder' && f.cmd.t === 'ping');
  const kills = (fx: Effect[]) => fx.filter((f) => f.t === 'kill');

  it('pings a bound holder every tick; one that leaves three pings unanswered is killed and replaced', () => {
    let { s, tabId, inc } = withRunningTab();
    for (let beat = 1; beat <= 3; beat++) {
      const r = drive(s, { t: 'tick', now: beat * 5_000 });
      expect(pings(r.effects)).toHaveLength(1);
      expect(kills(r.effects)).toEqual([]);
      s = r.state;
    }
    const timeout = drive(s, { t: 'tick', now: 20_000 });
    expect(kills(timeout.effects)).toEqual([{ t: 'kill', epoch: 5, tabId, pid: 50, startTime: 'st50' }]);
    expect(timeout.commits[0]).toEqual({ t: 'update', id: tabId, patch: { holder: null, child: null, lifecycle: 'starting' } });
    expect(spawns(timeout.effects)).toHaveLength(1);
    expect(timeout.state.tabs[tabId]).toMatchObject({ bound: false, unanswered: 0, losses: [20_000] });
    // The dead holder's link closing afterwards changes nothing.
    expect(drive(timeout.state, { t: 'linkClosed', tabId, inc }).effects).toEqual([]);
  });

  it('counts anything the holder says as an answer', () => {
    let { s, tabId, inc } = withRunningTab();
    for (let beat = 1; beat <= 10; beat++) {
      s = drive(s, { t: 'tick', now: beat * 5_000 }).state;
      const answer: CoreEvent = beat % 2 === 0 ? { t: 'pong', tabId, inc } : { t: 'holderState', tabId, inc, report: report('running') };
      s = drive(s, answer).state;
      expect(s.tabs[tabId]).toMatchObject({ bound: true, unanswered: 0 });
    }
    // A pong from an older incarnation answers nothing.
    s = drive(s, { t: 'tick', now: 60_000 }).state;
    expect(drive(s, { t: 'pong', tabId, inc: 'other' }).state.tabs[tabId].unanswered).toBe(1);
  });

  it('leaves a live holder that does not prove itself untouched, fails its tab, and does not verify it again', () => {
    let { s, tabId, inc } = withRunningTab();
    const closed = drive(s, { t: 'linkClosed', tabId, inc });
    expect(closed.effects).toContainEqual({ t: 'verifyHolder', epoch: 5, tabId, ref: { inc, pid: 50, startTime: 'st50' } });
    const r = drive(closed.state, { t: 'holderUnverifiable', tabId, inc });
    expect(r.commits).toEqual([{ t: 'update', id: tabId, patch: { lifecycle: 'failed' } }]);
    expect(r.effects.filter((f) => f.t !== 'sweepOrphans')).toEqual([]);
    s = r.state;
    expect(s.tabs[tabId]).toMatchObject({ holder: { inc, pid: 50 }, unverified: inc, verifying: false, bound: false });
    const later = drive(s, { t: 'tick', now: 10_000 });
    expect(later.effects.filter((f) => f.t !== 'sweepOrphans')).toEqual([]);
    // It stays owned, so the sweep leaves it alone.
    expect(later.effects).toContainEqual({ t: 'sweepOrphans', epoch: 5, owned: [{ tabId, inc }] });
    // A restart lets it go: a new incarnation owns the tab.
    const restart = drive(later.state, req('c1', 7, { op: 'restart', tabId, fresh: false, force: false }));
    expect(restart.commits[0]).toEqual({ t: 'update', id: tabId, patch: { lifecycle: 'starting', holder: null, child: null } });
    const [spawn] = spawns(restart.effects);
    expect(spawn.inc).not.toBe(inc);
    expect(restart.state.tabs[tabId].unverified).toBeNull();
  });

  it('a start refused beside an earlier process fails the tab at once, unretried, until the user retries', () => {
    const { s, tabId, inc } = withRunningTab();
    const closed = drive(s, { t: 'linkClosed', tabId, inc }).state;
    const gone = drive(closed, { t: 'holderGone', tabId, inc });
    const [spawn] = spawns(gone.effects);
    const refused = drive(gone.state, { t: 'startRefused', tabId, inc: spawn.inc });
    expect(refused.commits).toEqual([{ t: 'update', id: tabId, patch: { holder: null, child: null, lifecycle: 'failed' } }]);
    expect(refused.state.tabs[tabId]).toMatchObject({ lifecycle: 'failed', holder: null, starting: null });
    expect(refused.state.spawns).toEqual({});
    expect(spawns(drive(refused.state, { t: 'tick', now: 10_000 }).effects)).toEqual([]);
    // A late or repeated refusal of that start changes nothing.
    expect(drive(refused.state, { t: 'startRefused', tabId, inc: spawn.inc }).commits).toEqual([]);
    const retry = drive(refused.state, req('c1', 7, { op: 'restart', tabId, fresh: false, force: false }));
    expect(replies(retry.effects)).toEqual([{ ok: true, restarted: true }]);
    expect(spawns(retry.effects)).toHaveLength(1);
  });

  it('verifies it again when the failure could not be recorded', () => {
    const { s, tabId, inc } = withRunningTab();
    const closed = drive(s, { t: 'linkClosed', tabId, inc }).state;
    const r = drive(closed, { t: 'holderUnverifiable', tabId, inc }, () => 'failed');
    expect(r.state.tabs[tabId]).toMatchObject({ unverified: null, verifying: false, lifecycle: 'running' });
    const next = drive(r.state, { t: 'tick', now: 10_000 });
    expect(next.effects).toContainEqual({ t: 'verifyHolder', epoch: 5, tabId, ref: { inc, pid: 50, startTime: 'st50' } });
  });
});

describe('views of a tab on its way up', () => {
  function starting() {
    const s = served();
    const created = drive(s, req('c1', 1, { op: 'create', name: 'a', sessionId: null }));
    const [spawn] = spawns(created.effects);
    return { s: created.state, tabId: spawn.tabId, inc: spawn.inc };
  }

  /** Spawn failures past the budget fail the tab; returns the effects of the last one. */
  function failStarts(s: CoreState, tabId: string, inc: string) {
    let last = { state: s, effects: [] as Effect[] };
    for (let n = 0; n < 10 && last.state.tabs[tabId].lifecycle !== 'failed'; n++) {
      last = drive(last.state, { t: 'spawnFailed', tabId, inc });
      inc = last.state.tabs[tabId].starting ?? inc;
    }
    expect(last.state.tabs[tabId].lifecycle).toBe('failed');
    return last;
  }

  it('refuses a claim of a tab not bound yet, and a view of a tab nothing will start', () => {
    const { s, tabId, inc } = starting();
    expect(replies(drive(s, req('c2', 2, { op: 'claim', tabId })).effects)).toEqual([{ ok: false, code: 'unavailable' }]);
    const failed = failStarts(s, tabId, inc).state;
    const view = drive(failed, req('c2', 3, { op: 'view', tabId }));
    expect(replies(view.effects)).toEqual([{ ok: false, code: 'unavailable' }]);
    expect(view.state.views).toEqual([]);
  });

  it('refuses a waiting view when its tab closes, fails, or the wait runs out; forgets a client that left', () => {
    const { s, tabId, inc } = starting();
    let w = drive(s, req('c2', 2, { op: 'view', tabId })).state;
    w = drive(w, req('c1', 3, { op: 'view', tabId })).state;
    expect(w.views.map((v) => v.reqId)).toEqual([2, 3]);
    const left = drive(w, { t: 'clientGone', clientId: 'c1' });
    expect(left.state.views.map((v) => v.reqId)).toEqual([2]);
    const closed = drive(left.state, req('c1x', 4, { op: 'close', tabId }));
    expect(closed.effects).toEqual([]); // c1x is not attached: nobody asked
    const reallyClosed = drive(drive(left.state, { t: 'clientAttached', clientId: 'c3' }).state, req('c3', 5, { op: 'close', tabId }));
    expect(reallyClosed.effects).toContainEqual({ t: 'reply', clientId: 'c2', reqId: 2, reply: { ok: false, code: 'no-tab' } });
    expect(reallyClosed.state.views).toEqual([]);

    const timedOut = drive(left.state, { t: 'tick', now: VIEW_WAIT_MS });
    expect(timedOut.effects).toContainEqual({ t: 'reply', clientId: 'c2', reqId: 2, reply: { ok: false, code: 'unavailable' } });

    // The tab fails: the view is refused with it.
    const failed = failStarts(left.state, tabId, inc);
    expect(failed.effects).toContainEqual({ t: 'reply', clientId: 'c2', reqId: 2, reply: { ok: false, code: 'unavailable' } });
    expect(failed.state.views).toEqual([]);
  });
});

describe('start slots', () => {
  it('starts at most maxConcurrentStarts holders at once; the next waits until one is bound', () => {
    const b = boot('s1', 0, { epoch: 0, rev: 0, tabs: {} }, { tabsMax: 10, maxConcurrentStarts: 1, idleSuspendMs: 0, serverIdleExitMs: Number.POSITIVE_INFINITY, agentKinds: [] });
    let s = drive(b.state, { t: 'committed', id: 1, result: 'ok' }).state;
    s = drive(s, { t: 'clientAttached', clientId: 'c1' }).state;
    const first = drive(s, req('c1', 1, { op: 'create', name: 'a', sessionId: null }));
    const [spawnA] = spawns(first.effects);
    const second = drive(first.state, req('c1', 2, { op: 'create', name: 'b', sessionId: null }));
    expect(spawns(second.effects)).toEqual([]);
    const tabB = (replies(second.effects)[0] as { tabId: string }).tabId;
    expect(second.state.tabs[tabB]).toMatchObject({ lifecycle: 'starting', starting: null });
    const spawned = drive(second.state, { t: 'spawned', tabId: spawnA.tabId, inc: spawnA.inc, pid: 10, startTime: 'st10' });
    // Spawned is not started: its holder is verified first.
    expect(spawns(spawned.effects)).toEqual([]);
    const facts = { pid: 10, startTime: 'st10', controller: { clientId: null, rev: 0 }, lifecycle: 'running' as const, sessionId: null, child: null, glyph: null, agentKind: null, exit: null };
    const bound = drive(spawned.state, { t: 'holderVerified', tabId: spawnA.tabId, inc: spawnA.inc, facts });
    expect(spawns(bound.effects).map((f) => f.tabId)).toEqual([tabB]);
  });
});

describe('host stop', () => {
  it('commits every running tab asleep (desired kept) before ending its holder, then answers and exits', () => {
    const { s, tabId } = withRunningTab('sess1');
    const r = drive(s, req('c1', 9, { op: 'hostStop' }));
    expect(r.effects[0]).toEqual({ t: 'notifyClients', rev: s.rev, change: 'hostStopping', tabId: null });
    expect(r.commits).toEqual([{ t: 'update', id: tabId, patch: { lifecycle: 'asleep', holder: null, child: null } }]);
    const kill = r.effects.findIndex((f) => f.t === 'kill');
    const reply = r.effects.findIndex((f) => f.t === 'reply');
    expect(kill).toBeGreaterThan(0);
    expect(reply).toBeGreaterThan(kill);
    expect(r.effects.slice(reply)).toEqual([
      { t: 'reply', clientId: 'c1', reqId: 9, reply: { ok: true, stopped: 1 } },
      { t: 'exit', reason: 'hostStop' },
    ]);
    expect(r.state.phase).toBe('stopped');
    expect(r.state.tabs[tabId]).toMatchObject({ desired: 'running', lifecycle: 'asleep', holder: null });
    // The next server starts it again.
    const next = boot('s2', 0, { epoch: 5, rev: r.state.rev, tabs: { [tabId]: r.state.tabs[tabId] } });
    const serving = drive(next.state, { t: 'committed', id: 1, result: 'ok' });
    expect(spawns(serving.effects).map((f) => f.tabId)).toEqual([tabId]);
  });

  it('waits for spawns in flight, even of a tab closed meanwhile, and kills them when they complete', () => {
    let s = served();
    const created = drive(s, req('c1', 1, { op: 'create', name: 'a', sessionId: null }));
    const [spawn] = spawns(created.effects);
    s = drive(created.state, req('c1', 2, { op: 'close', tabId: spawn.tabId })).state;
    const stop = drive(s, req('c1', 3, { op: 'hostStop' }));
    expect(stop.state.phase).toBe('stopping');
    expect(replies(stop.effects)).toEqual([]);
    expect(replies(drive(stop.state, req('c2', 4, { op: 'create', name: 'b', sessionId: null })).effects)).toEqual([{ ok: false, code: 'unavailable' }]);
    const done = drive(stop.state, { t: 'spawned', tabId: spawn.tabId, inc: spawn.inc, pid: 70, startTime: 'st70' });
    expect(done.effects).toContainEqual({ t: 'kill', epoch: 5, tabId: spawn.tabId, pid: 70, startTime: 'st70' });
    expect(done.effects.slice(-2)).toEqual([{ t: 'reply', clientId: 'c1', reqId: 3, reply: { ok: true, stopped: 0 } }, { t: 'exit', reason: 'hostStop' }]);
  });

  it('tries a write that failed again on the next tick, and only then ends the holder', () => {
    const { s, tabId } = withRunningTab();
    const failed = drive(s, req('c1', 9, { op: 'hostStop' }), () => 'failed');
    expect(failed.effects.filter((f) => f.t === 'kill' || f.t === 'exit')).toEqual([]);
    const retried = drive(failed.state, { t: 'tick', now: 5_000 });
    expect(retried.commits).toEqual([{ t: 'update', id: tabId, patch: { lifecycle: 'asleep', holder: null, child: null } }]);
    expect(retried.effects.map((f) => f.t)).toEqual(['kill', 'sweepOrphans', 'reply', 'exit']);
  });
});

describe('idleness', () => {
  const limits = { tabsMax: 10, maxConcurrentStarts: 4, idleSuspendMs: 60_000, serverIdleExitMs: 600_000, agentKinds: [] };
  function servedWith(): CoreState {
    const b = boot('s1', 0, { epoch: 0, rev: 0, tabs: {} }, limits);
    const s = drive(b.state, { t: 'committed', id: 1, result: 'ok' }).state;
    return drive(s, { t: 'clientAttached', clientId: 'c1' }).state;
  }
  /** A running agent tab with session `sess`, its holder reporting `glyph`. */
  function agentTab(s: CoreState, sess: string | null, glyph: string) {
    const created = drive(s, req('c1', 1, { op: 'create', name: 'a', sessionId: sess }));
    const [spawn] = spawns(created.effects);
    s = drive(created.state, { t: 'spawned', tabId: spawn.tabId, inc: spawn.inc, pid: 50, startTime: 'st50' }).state;
    const facts = { pid: 50, startTime: 'st50', controller: { clientId: null, rev: 0 }, lifecycle: 'running' as const, sessionId: sess, child: null, glyph, agentKind: null, exit: null };
    return { s: drive(s, { t: 'holderVerified', tabId: spawn.tabId, inc: spawn.inc, facts }).state, tabId: spawn.tabId, inc: spawn.inc };
  }
  const sleepCommits = (m: Mutation[]) => m.filter((c) => c.t === 'update' && c.patch.desired === 'stopped');

  it('puts an unviewed, quiet tab with a session to sleep once it stayed so for idleSuspendMs', () => {
    let { s, tabId } = agentTab(servedWith(), 'sess1', 'none');
    s = drive(s, { t: 'tick', now: 1_000 }).state;
    expect(s.tabs[tabId].quietSince).toBe(1_000);
    expect(sleepCommits(drive(s, { t: 'tick', now: 60_999 }).commits)).toEqual([]);
    const slept = drive(s, { t: 'tick', now: 61_000 });
    expect(sleepCommits(slept.commits)).toHaveLength(1);
    expect(slept.effects).toContainEqual({ t: 'kill', epoch: 1, tabId, pid: 50, startTime: 'st50' });
  });

  it('keeps a viewed, a working, or a sessionless tab awake, and starts the clock again when one is viewed', () => {
    const working = agentTab(servedWith(), 'sess1', 'working');
    expect(sleepCommits(drive(drive(working.s, { t: 'tick', now: 1_000 }).state, { t: 'tick', now: 100_000 }).commits)).toEqual([]);
    const shell = agentTab(servedWith(), null, 'none');
    expect(sleepCommits(drive(drive(shell.s, { t: 'tick', now: 1_000 }).state, { t: 'tick', now: 100_000 }).commits)).toEqual([]);
    let { s, tabId } = agentTab(servedWith(), 'sess1', 'none');
    s = drive(s, { t: 'tick', now: 1_000 }).state;
    s = drive(s, req('c1', 2, { op: 'view', tabId })).state;
    s = drive(s, { t: 'tick', now: 50_000 }).state;
    expect(s.tabs[tabId].quietSince).toBeNull();
    s = drive(s, { t: 'clientGone', clientId: 'c1' }).state;
    s = drive(s, { t: 'tick', now: 55_000 }).state;
    expect(sleepCommits(drive(s, { t: 'tick', now: 114_999 }).commits)).toEqual([]);
    expect(sleepCommits(drive(s, { t: 'tick', now: 115_000 }).commits)).toHaveLength(1);
  });

  it('exits after serverIdleExitMs with no client and no running tab, and not while either is there', () => {
    let s = servedWith();
    s = drive(s, { t: 'tick', now: 1_000_000 }).state;
    expect(s.phase).toBe('serving');
    s = drive(s, { t: 'clientGone', clientId: 'c1' }).state;
    // The clock runs from the last check that saw a client.
    s = drive(s, { t: 'tick', now: 1_000_001 }).state;
    const early = drive(s, { t: 'tick', now: 1_599_999 });
    expect(early.effects).not.toContainEqual({ t: 'exit', reason: 'idle' });
    const idle = drive(s, { t: 'tick', now: 1_600_000 });
    expect(idle.effects).toContainEqual({ t: 'exit', reason: 'idle' });
    expect(idle.state.phase).toBe('stopped');
    // A running tab keeps it.
    const busy = agentTab(servedWith(), null, 'none').s;
    const alone = drive(busy, { t: 'clientGone', clientId: 'c1' }).state;
    expect(drive(alone, { t: 'tick', now: 10_000_000 }).effects).not.toContainEqual({ t: 'exit', reason: 'idle' });
  });
});

describe('expired resume records', () => {
  it('moves a sleeping tab that wants to run, whose session can no longer resume, to history instead of starting it', () => {
    const stopped = { desired: 'running' as const, lifecycle: 'asleep' as const, holder: null, child: null, lastExit: null, controllerRev: 0, ord: 0, spec: DEFAULT_TAB_SPEC };
    const tabs = {
      a: { ...stopped, id: 'a', name: 'a', sessionId: 'sess-a' },
      b: { ...stopped, id: 'b', name: 'b', sessionId: 'sess-b', ord: 1 },
      slept: { ...stopped, id: 'slept', name: 's', sessionId: 'sess-s', desired: 'stopped' as const, ord: 2 },
    };
    const b = boot('s1', 0, { epoch: 1, rev: 3, tabs, resumeExpired: ['a', 'slept', 'gone'] });
    const r = drive(b.state, { t: 'committed', id: 1, result: 'ok' });
    expect(r.commits.filter((m) => m.t === 'retireTab')).toEqual([{ t: 'retireTab', id: 'a', reason: 'expired' }]);
    expect(r.effects).toContainEqual({ t: 'notifyClients', rev: 4, change: 'tabRemoved', tabId: 'a' });
    expect(Object.keys(r.state.tabs).sort()).toEqual(['b', 'slept']);
    // b resumes; the sleeping tab stays asleep.
    expect(spawns(r.effects).map((f) => f.tabId)).toEqual(['b']);
    expect(r.state.resumeExpired).toEqual([]);
  });
});

describe('what the core carries without deciding on it', () => {
  it("carries a new tab's spec to the registry and its start options to its first spawn only", () => {
    const s = served();
    const spec = { kind: 'claude', cwd: '/work', command: ['claude'], nameSource: 'user' as const };
    const start = { env: { TERM: 'xterm-256color' }, umask: 0o027, cols: 100, rows: 30 };
    const created = drive(s, req('c1', 1, { op: 'create', name: 'a', sessionId: null, spec, start }));
    expect(created.commits[0]).toMatchObject({ t: 'insertTab', tab: { spec } });
    const [spawn] = spawns(created.effects);
    expect(spawn.options).toEqual(start);
    // The holder is lost: the replacement starts with no options of its own.
    const bound = bindHolder(created.state, spawn.tabId, spawn.inc, 40);
    const lost = drive(drive(bound, { t: 'linkClosed', tabId: spawn.tabId, inc: spawn.inc }).state, { t: 'holderGone', tabId: spawn.tabId, inc: spawn.inc });
    expect(spawns(lost.effects).map((f) => f.options)).toEqual([{}]);
  });

  it('a replacement holder starts at the size its predecessor last reported, from a state or from its adoption', () => {
    const { s: running, tabId, inc } = withRunningTab();
    const resized = drive(running, { t: 'holderState', tabId, inc, report: { ...report('running'), size: { cols: 100, rows: 29 } } }).state;
    const lost = drive(drive(resized, { t: 'linkClosed', tabId, inc }).state, { t: 'holderGone', tabId, inc });
    const [spawn] = spawns(lost.effects);
    expect(spawn.options).toEqual({ cols: 100, rows: 29 });
    let s = drive(lost.state, { t: 'spawned', tabId, inc: spawn.inc, pid: 60, startTime: 'st60' }).state;
    const facts = { pid: 60, startTime: 'st60', controller: { clientId: null, rev: 0 }, ...report('running'), size: { cols: 90, rows: 24 } };
    s = drive(s, { t: 'holderVerified', tabId, inc: spawn.inc, facts }).state;
    const again = drive(drive(s, { t: 'linkClosed', tabId, inc: spawn.inc }).state, { t: 'holderGone', tabId, inc: spawn.inc });
    expect(spawns(again.effects).map((f) => f.options)).toEqual([{ cols: 90, rows: 24 }]);
  });

  it('a restart with f starts the new holder fresh, the abandoned session dropped first', () => {
    const { s, tabId } = failedPastBudget();
    const r = drive({ ...s, tabs: { ...s.tabs, [tabId]: { ...s.tabs[tabId], sessionId: 'sess1' } } }, req('c1', 9, { op: 'restart', tabId, fresh: true, force: false }));
    expect(r.commits[0]).toEqual({ t: 'update', id: tabId, patch: { lifecycle: 'starting', holder: null, child: null, sessionId: null } });
    const order = r.effects.map((f) => f.t);
    expect(order.indexOf('dropResumeRecords')).toBeGreaterThanOrEqual(0);
    expect(order.indexOf('dropResumeRecords')).toBeLessThan(order.indexOf('spawnHolder'));
    expect(spawns(r.effects).map((f) => f.options)).toEqual([{ fresh: true }]);
  });

  it('a claim without force takes control only from nobody', () => {
    const { s, tabId } = withRunningTab();
    const viewed = drive(s, req('c1', 1, { op: 'view', tabId }));
    const acked = drive(viewed.state, { t: 'controllerAck', tabId, inc: viewed.state.tabs[tabId].holder!.inc, rev: viewed.state.tabs[tabId].transfer!.rev }).state;
    expect(replies(drive(acked, req('c2', 2, { op: 'claim', tabId, force: false })).effects)).toEqual([{ ok: true, holderInc: acked.tabs[tabId].holder!.inc, controller: false }]);
    expect(replies(drive(acked, req('c2', 3, { op: 'claim', tabId, force: true })).effects)).toEqual([{ ok: true, holderInc: acked.tabs[tabId].holder!.inc, controller: true }]);
  });
});

describe('what a holder reports', () => {
  it("commits an agent session with the tab's new kind, and a child's exit with its lifecycle", () => {
    const b = boot('s1', 0, { epoch: 0, rev: 0, tabs: {} }, { tabsMax: 10, maxConcurrentStarts: 4, idleSuspendMs: 0, serverIdleExitMs: Number.POSITIVE_INFINITY, agentKinds: ['claude'] });
    let s = drive(b.state, { t: 'committed', id: 1, result: 'ok' }).state;
    s = drive(s, { t: 'clientAttached', clientId: 'c1' }).state;
    const spec = { ...DEFAULT_TAB_SPEC, command: ['claude'] };
    const created = drive(s, req('c1', 1, { op: 'create', name: 'a', sessionId: null, spec }));
    const [spawn] = spawns(created.effects);
    s = bindHolder(created.state, spawn.tabId, spawn.inc, 30);
    const agent = drive(s, { t: 'holderState', tabId: spawn.tabId, inc: spawn.inc, report: { ...report('running', 'sess9'), agentKind: 'claude' } });
    expect(agent.commits).toEqual([{ t: 'update', id: spawn.tabId, patch: { sessionId: 'sess9', spec: { ...spec, kind: 'claude' } } }]);
    const exit = { code: 3, signal: null };
    const exited = drive(agent.state, { t: 'holderState', tabId: spawn.tabId, inc: spawn.inc, report: { ...report('exited', 'sess9'), agentKind: 'claude', exit } });
    expect(exited.commits).toEqual([{ t: 'update', id: spawn.tabId, patch: { lifecycle: 'exited', lastExit: exit } }]);
  });

  it('a shell tab whose shell runs an agent keeps its kind: the session is recorded, the shell stays', () => {
    const b = boot('s1', 0, { epoch: 0, rev: 0, tabs: {} }, { tabsMax: 10, maxConcurrentStarts: 4, idleSuspendMs: 0, serverIdleExitMs: Number.POSITIVE_INFINITY, agentKinds: ['claude'] });
    let s = drive(b.state, { t: 'committed', id: 1, result: 'ok' }).state;
    s = drive(s, { t: 'clientAttached', clientId: 'c1' }).state;
    const created = drive(s, req('c1', 1, { op: 'create', name: 'a', sessionId: null }));
    const [spawn] = spawns(created.effects);
    s = bindHolder(created.state, spawn.tabId, spawn.inc, 30);
    const agent = drive(s, { t: 'holderState', tabId: spawn.tabId, inc: spawn.inc, report: { ...report('running', 'sess9'), agentKind: 'claude' } });
    expect(agent.commits).toEqual([{ t: 'update', id: spawn.tabId, patch: { sessionId: 'sess9' } }]);
  });
});

describe('what the server shell relies on', () => {
  it('a tick without the heartbeat pings nobody, and the next beat does', () => {
    const { s } = withRunningTab();
    const quiet = drive(s, { t: 'tick', now: 1_000, heartbeat: false });
    expect(quiet.effects.filter((f) => f.t === 'sendToHolder')).toEqual([]);
    expect(quiet.state.tabs[Object.keys(s.tabs)[0]].unanswered).toBe(0);
    expect(drive(quiet.state, { t: 'tick', now: 5_000 }).effects.filter((f) => f.t === 'sendToHolder')).toHaveLength(1);
  });

  it('verifying a holder the row already names commits nothing; a new pid is committed', () => {
    const { s, tabId, inc } = withRunningTab();
    const linkLost = drive(s, { t: 'linkClosed', tabId, inc }).state;
    const facts = { pid: 50, startTime: 'st50', controller: { clientId: null, rev: 0 }, lifecycle: 'running' as const, sessionId: null, child: null, glyph: null, agentKind: null, exit: null };
    const again = drive(linkLost, { t: 'holderVerified', tabId, inc, facts });
    expect(again.commits).toEqual([]);
    expect(again.state.tabs[tabId]).toMatchObject({ bound: true, verifying: false });
  });

  it('ids name sockets: only letters, digits and _', () => {
    const { s, tabId, inc } = withRunningTab();
    expect(s.tabs[tabId]).toBeDefined();
    expect(tabId).toMatch(/^[A-Za-z0-9_]+$/);
    expect(inc).toMatch(/^[A-Za-z0-9_]+$/);
  });

  it('a new start clears the last exit', () => {
    const { s, tabId, inc } = withRunningTab(null, NPM_TEST);
    const exit = { code: 2, signal: null };
    let next = drive(s, { t: 'holderState', tabId, inc, report: { ...report('exited'), exit } }).state;
    expect(next.tabs[tabId].lastExit).toEqual(exit);
    next = drive(next, { t: 'linkClosed', tabId, inc }).state;
    const gone = drive(next, { t: 'holderGone', tabId, inc });
    const start = gone.commits.find((m) => m.t === 'update' && m.patch.holder?.pid === null);
    expect(start).toMatchObject({ patch: { lastExit: null, lifecycle: 'starting' } });
    expect(gone.state.tabs[tabId].lastExit).toBeNull();
  });

  it("a renamed tab's name is the user's", () => {
    const { s, tabId } = withRunningTab();
    const r = drive(s, req('c1', 9, { op: 'rename', tabId, name: 'mine' }));
    expect(r.state.tabs[tabId]).toMatchObject({ name: 'mine', spec: { nameSource: 'user' } });
  });

  it('only a kind that resumes may sleep', () => {
    const b = boot('s1', 0, { epoch: 0, rev: 0, tabs: {} }, { tabsMax: 10, maxConcurrentStarts: 4, idleSuspendMs: 0, serverIdleExitMs: Number.POSITIVE_INFINITY, agentKinds: ['claude', 'plain'], resumableKinds: ['claude'] });
    let s = drive(b.state, { t: 'committed', id: 1, result: 'ok' }).state;
    s = drive(s, { t: 'clientAttached', clientId: 'c1' }).state;
    const make = (kind: string, reqId: number) => {
      const r = drive(s, req('c1', reqId, { op: 'create', name: kind, sessionId: `sess-${kind}`, spec: { ...DEFAULT_TAB_SPEC, kind } }));
      s = r.state;
      return (replies(r.effects)[0] as { tabId: string }).tabId;
    };
    const plain = make('plain', 1);
    const claude = make('claude', 2);
    expect(replies(drive(s, req('c1', 3, { op: 'sleep', tabId: plain })).effects)).toEqual([{ ok: false, code: 'not-resumable' }]);
    expect(replies(drive(s, req('c1', 4, { op: 'sleep', tabId: claude })).effects)).toEqual([{ ok: true, asleep: true }]);
  });
});

describe('exits and automatic names (issues 18 and 28)', () => {
  const exited = (code: number | null, over: Partial<HolderReport> = {}): HolderReport => ({ ...report('exited'), exit: { code, signal: null }, ...over });

  it('a shell tab whose shell ended, whatever its status or signal and whatever an agent typed at it reported, closes: retired, its clients told, its holder ended', () => {
    for (const rep of [exited(0), exited(1), exited(null, { exit: { code: null, signal: 9 } }), exited(0, { agent: true }), exited(1, { sessionId: 'sess9' })]) {
      const { s, tabId } = withRunningTab();
      const r = drive(s, { t: 'holderState', tabId, inc: s.tabs[tabId].holder!.inc, report: rep });
      expect(r.commits).toEqual([{ t: 'retireTab', id: tabId, reason: 'closed' }]);
      expect(r.state.tabs[tabId]).toBeUndefined();
      expect(r.effects).toContainEqual({ t: 'notifyClients', rev: s.rev + 1, change: 'tabRemoved', tabId });
      expect(r.effects).toContainEqual({ t: 'kill', epoch: 5, tabId, pid: 50, startTime: 'st50' });
      expect(r.effects.filter((f) => f.t === 'putResumeRecord')).toEqual([]);
    }
  });

  it('a command tab and an agent tab stay', () => {
    for (const [command, rep] of [
      [NPM_TEST, exited(3)],
      [NPM_TEST, exited(0)],
      [NPM_TEST, exited(0, { agent: true })],
    ] as const) {
      const { s, tabId } = withRunningTab(null, command && [...command]);
      const r = drive(s, { t: 'holderState', tabId, inc: s.tabs[tabId].holder!.inc, report: rep });
      expect(r.state.tabs[tabId]).toMatchObject({ lifecycle: 'exited' });
      expect(r.commits.some((m) => m.t === 'retireTab')).toBe(false);
    }
    let s = served();
    const created = drive(s, req('c1', 1, { op: 'create', name: 'c', sessionId: null, spec: { ...DEFAULT_TAB_SPEC, kind: 'claude' } }));
    const tabId = (replies(created.effects)[0] as { tabId: string }).tabId;
    s = bindHolder(created.state, tabId, spawns(created.effects)[0].inc, 60);
    const r = drive(s, { t: 'holderState', tabId, inc: s.tabs[tabId].holder!.inc, report: exited(0) });
    expect(r.state.tabs[tabId]).toMatchObject({ lifecycle: 'exited' });
  });

  function autoNamed(title: string, nameSource: 'auto' | 'user' = 'auto') {
    const b = boot('s1', 0, { epoch: 4, rev: 0, tabs: {} }, { tabsMax: 10, maxConcurrentStarts: 4, idleSuspendMs: 0, serverIdleExitMs: Number.POSITIVE_INFINITY, agentKinds: [], autoName: true });
    let s = drive(b.state, { t: 'committed', id: 1, result: 'ok' }).state;
    s = drive(s, { t: 'clientAttached', clientId: 'c1' }).state;
    const created = drive(s, req('c1', 1, { op: 'create', name: 'bash', sessionId: null, spec: { ...DEFAULT_TAB_SPEC, nameSource } }));
    const tabId = (replies(created.effects)[0] as { tabId: string }).tabId;
    s = bindHolder(created.state, tabId, spawns(created.effects)[0].inc, 70);
    const r = drive(s, { t: 'holderState', tabId, inc: s.tabs[tabId].holder!.inc, report: { ...report('running'), title } });
    return { ...r, tabId };
  }

  it("a title names a tab nobody named, without a topology revision; a user's name stays", () => {
    const r = autoNamed('✳ Fix the bug');
    expect(r.commits).toEqual([{ t: 'autoName', id: r.tabId, name: 'fix-the-bug' }]);
    expect(r.state.tabs[r.tabId]).toMatchObject({ name: 'fix-the-bug', spec: { nameSource: 'auto' } });
    expect(r.state.rev).toBe(1);
    const mine = autoNamed('✳ Fix the bug', 'user');
    expect(mine.commits).toEqual([]);
    expect(mine.state.tabs[mine.tabId].name).toBe('bash');
  });

  it('a title that names nothing keeps the name; a new one waits for the interval, then wins', () => {
    let { state: s, tabId } = autoNamed('✳ Fix the bug');
    const inc = s.tabs[tabId].holder!.inc;
    s = drive(s, { t: 'holderState', tabId, inc, report: { ...report('running'), title: '⠂' } }).state;
    expect(s.tabs[tabId].name).toBe('fix-the-bug');
    s = drive(s, { t: 'holderState', tabId, inc, report: { ...report('running'), title: 'Write tests' } }).state;
    expect(s.tabs[tabId].name).toBe('fix-the-bug');
    s = drive(s, { t: 'tick', now: 60_000 }).state;
    expect(s.tabs[tabId]).toMatchObject({ name: 'write-tests', autoNamedAt: 60_000 });
  });
});
