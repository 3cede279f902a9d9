// Deterministic simulation of the server core (SPEC §14): fast-check drives the reducer through
// a model world with server deaths and SIGSTOPs, broken leases, disk faults, holder and child
// deaths, lossy and reordering client traffic, broken holder links, controller transfers and
// client churn. CI runs SIM_RUNS interleavings in total; `A1_SIM_RUNS=100000 npx vitest run
// --project fast test/sim` runs more (for npm run chaos); `npm run test:fast` runs fewer.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boot, step } from '../../src/server/core/index.js';
import type { CoreEvent, CoreState, Effect, Pending } from '../../src/server/core/index.js';
import { scheduleArb } from './actions.js';
import { SCHEDULE_LENGTH, SIM_RUNS, simulate } from './run.js';
import type { Booter, Reducer } from './world.js';
import { loopTurns } from '../helpers/runs.js';

const runs = (share: number) => Math.ceil(SIM_RUNS * share);
const timeout = (n: number) => Math.max(60_000, n * 20);

describe('server core simulation', () => {
  it(
    'keeps every committed mutation, one writer, one tab per session and attributable input under faults',
    async () => {
      const turn = loopTurns();
      await fc.assert(
        fc.asyncProperty(scheduleArb(SCHEDULE_LENGTH), async (schedule) => {
          await turn();
          expect(simulate(schedule)).toEqual([]);
        }),
        { numRuns: runs(0.5) },
      );
    },
    timeout(runs(0.5)),
  );

  it(
    'converges every tab that should run to running or failed once faults stop, leaving no orphan',
    async () => {
      const turn = loopTurns();
      await fc.assert(
        fc.asyncProperty(scheduleArb(SCHEDULE_LENGTH), async (schedule) => {
          await turn();
          expect(simulate(schedule, { settle: true })).toEqual([]);
        }),
        { numRuns: runs(0.5) },
      );
    },
    timeout(runs(0.5)),
  );
});

describe('the schedules reach what the invariants are about', () => {
  const SITUATION_RUNS = 2_000;
  it('every situation arises within 2,000 runs', async () => {
    const seen: Record<string, number> = {};
    const turn = loopTurns();
    for (const schedule of fc.sample(scheduleArb(SCHEDULE_LENGTH), { numRuns: SITUATION_RUNS, seed: 9 })) {
      await turn();
      simulate(schedule, { settle: true, seen });
    }
    const situations = [
      'write failed',
      'fenced server exited',
      'server started beside a live one',
      'stale epoch refused by a holder',
      'holder verified',
      'input admitted',
      'input refused',
      'controller transferred',
      'spawn completed after its close',
      'tab closed',
      'tab failed',
      'held session focused',
      'stale revision refused',
      'tab limit refused a create',
      'holder hung',
      'hung holder killed',
      'hung holder left unverified',
      'view waited for its tab',
      'start waited for a slot',
      'host stopped',
      'idle tab slept',
      'expired session moved to history',
      'resume record (live)',
      'resume record (sleep)',
      'resume record (quit)',
      // 'server exited idle' needs every client gone and every tab asleep, closed or failed: too
      // rare to require here; core.test.ts covers it, and the world checks it whenever it happens.
      'tab slept',
      'sleeping tab woken',
      'child restarted by the user',
      'failed tab restarted',
      'stray holder ended before a start',
      'start refused beside an unverifiable stray',
    ];
    expect(situations.filter((s) => !seen[s])).toEqual([]);
  }, timeout(SITUATION_RUNS));
});

// ---- the simulation can fail: deliberately broken cores are caught ----

/** Answers a create at once instead of after its commit. */
const ackBeforeCommit: Reducer = (s, e) => {
  const r = step(s, e);
  if (e.t !== 'request' || e.req.op !== 'create') return r;
  const c = r.effects.find((f): f is Extract<Effect, { t: 'commit' }> => f.t === 'commit' && f.mutation.t === 'insertTab');
  if (!c) return r;
  const p: Pending = r.state.pending[c.id];
  const reply = p.onOk.find((f) => f.t === 'reply')!;
  const pending = { ...r.state.pending, [c.id]: { ...p, onOk: p.onOk.filter((f) => f !== reply), onFail: [] } };
  return { state: { ...r.state, pending }, effects: [reply, ...r.effects] };
};

/** Ignores the config's tab limit. */
const noTabLimit: Booter = (id, now, durable, limits) => boot(id, now, durable, limits && { ...limits, tabsMax: Number.POSITIVE_INFINITY });
/** Starts every tab that wants to run at once. */
const noStartSlots: Booter = (id, now, durable, limits) => boot(id, now, durable, limits && { ...limits, maxConcurrentStarts: Number.POSITIVE_INFINITY });
/** Starts under the epoch it found instead of the next one. */
const noEpochBump: Booter = (id, now, durable, limits) => boot(id, now, { ...durable, epoch: durable.epoch - 1 }, limits);

/** Never counts a ping as unanswered: a hung holder is never found. */
const noHeartbeat: Reducer = (s, e) => {
  if (e.t !== 'tick') return step(s, e);
  const tabs = Object.fromEntries(Object.entries(s.tabs).map(([id, t]) => [id, { ...t, unanswered: 0 }]));
  return step({ ...s, tabs }, e);
};

/** Keeps the first child a holder reported: a close would end a process long gone. */
const firstChildOnly: Reducer = (s, e) => {
  if (e.t !== 'holderState') return step(s, e);
  return step(s, { ...e, report: { ...e.report, child: s.tabs[e.tabId]?.child ?? e.report.child } });
};

/** Records every session a holder reports, even a late report from a closed tab's holder. */
const recordsLateReports: Reducer = (s, e) => {
  const r = step(s, e);
  if (e.t !== 'holderState' || !e.report.sessionId) return r;
  return { ...r, effects: [...r.effects, { t: 'putResumeRecord', epoch: s.epoch, tabId: e.tabId, sessionId: e.report.sessionId, origin: 'live' }] };
};

/** Opens a session without looking for the tab that already holds it. */
const noSessionGuard: Reducer = (s: CoreState, e: CoreEvent) => {
  if (e.t !== 'request' || e.req.op !== 'create') return step(s, e);
  const hide = Object.fromEntries(Object.entries(s.tabs).map(([id, t]) => [id, { ...t, sessionId: null }]));
  const r = step({ ...s, tabs: hide }, e);
  const tabs = Object.fromEntries(Object.entries(r.state.tabs).map(([id, t]) => [id, { ...t, sessionId: s.tabs[id] ? s.tabs[id].sessionId : t.sessionId }]));
  return { ...r, state: { ...r.state, tabs } };
};

/** Leaves a spawn that completes after its tab was closed running (the sweep would end it later). */
const keepsLateSpawn: Reducer = (s, e) => {
  const r = step(s, e);
  if (e.t !== 'spawned' || s.tabs[e.tabId]) return r;
  return { ...r, effects: r.effects.filter((f) => f.t !== 'kill') };
};

/** Launches a holder once the way is clear, even for a tab that closed meanwhile. */
const launchesUnwantedStart: Reducer = (s, e) => {
  const r = step(s, e);
  if (e.t !== 'startCleared' || r.effects.some((f) => f.t === 'launchHolder')) return r;
  return { ...r, effects: [...r.effects, { t: 'launchHolder', epoch: s.epoch, tabId: e.tabId, inc: e.inc }] };
};

/** Hands every tab to each client that connects, whether it asked for the tab or not. */
const controlToNewcomers: Reducer = (s, e) => {
  let r = step(s, e);
  if (e.t !== 'clientAttached') return r;
  for (const tabId of Object.keys(r.state.tabs)) {
    const claim = step(r.state, { t: 'request', clientId: e.clientId, reqId: -1, req: { op: 'claim', tabId } });
    r = { state: claim.state, effects: [...r.effects, ...claim.effects.filter((f) => f.t !== 'reply')] };
  }
  return r;
};

describe('the simulation catches broken cores', () => {
  const BROKEN_RUNS = 3_000;
  const caught = async (opts: Parameters<typeof simulate>[1], pattern: RegExp, numRuns = BROKEN_RUNS) => {
    const turn = loopTurns();
    const out = await fc.check(
      fc.asyncProperty(scheduleArb(SCHEDULE_LENGTH), async (schedule) => {
        await turn();
        return simulate(schedule, opts).length === 0;
      }),
      { numRuns },
    );
    expect(out.failed).toBe(true);
    const schedule = out.counterexample![0];
    expect(simulate(schedule, opts).join('\n')).toMatch(pattern);
  };

  it('a core that acknowledges before its commit loses a mutation', () => caught({ reducer: ackBeforeCommit }, /never committed/), 60_000);
  it('a core that does not bump the epoch makes two writers', () => caught({ booter: noEpochBump }, /two registry writers/), 60_000);
  it('a core that ignores the tab limit opens tabs past it', () => caught({ booter: noTabLimit }, /past the limit/), 60_000);
  it('a core without a heartbeat leaves a hung holder serving its tab', () => caught({ reducer: noHeartbeat, settle: true }, /did not converge.*\(hung\)/), 60_000);
  it('a core that does not record a new child ends the wrong process', () => caught({ reducer: firstChildOnly, settle: true }, /records child/), 60_000);
  it('a core without start slots spawns past the limit', () => caught({ booter: noStartSlots }, /spawns in flight, past the limit/), 60_000);
  // About 1 run in 600 (a report that lands after its tab's close, with a session): 20,000 runs
  // miss it with odds below 1e-9, where 3,000 missed it once in CI.
  it('a core that records a late report gives a closed tab resume authority back', () => caught({ reducer: recordsLateReports }, /which is closed/, 20_000), 120_000);
  it('a core without the session guard puts a session in two tabs', () => caught({ reducer: noSessionGuard }, /held by tabs/), 60_000);
  // About 1 run in 700, like the late report above.
  it('a core that does not kill a spawn completing after its close leaks the holder', () => caught({ reducer: keepsLateSpawn }, /survived its spawn/, 20_000), 120_000);
  // Rare like the late spawn (a close between a start's clearing and its launch).
  it('a core that launches a start its tab no longer wants starts a closed tab', () => caught({ reducer: launchesUnwantedStart }, /launched holder .* for closed tab/, 20_000), 120_000);
  it('a shell that starts a tab beside a stray holder runs two incarnations of it', () => caught({ keepsStrays: true }, /two live incarnations/), 60_000);
  // Rarer than the others (about 1 run in 1,000): the core's level-triggered handover takes control
  // back from a newcomer that views nothing, and a client that reattaches views again, so only a
  // lost view lets it type under the stolen control. 20,000 runs miss it with odds below 1e-8.
  it('a core that gives control to a client that never asked admits unattributable input', () => caught({ reducer: controlToNewcomers }, /admitted in/, 20_000), 120_000);
});

