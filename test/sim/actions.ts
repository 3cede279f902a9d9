// The schedule fast-check generates: faults, client activity and network interleavings. Indices
// pick among whatever exists when the action runs, so every sequence is valid and shrinks well;
// each action prints as one short line, so a minimised failure reads as a story.
import fc from 'fast-check';
import type { Request } from '../../src/server/core/index.js';
import {
  breakLink,
  bridgeReport,
  clientLeaves,
  clientRequests,
  clientTypes,
  completeSpawn,
  connectClient,
  crashChild,
  deliver,
  agentWorks,
  deliverable,
  recordsExpire,
  hangOrResumeHolder,
  joinClient,
  killHolder,
  killServer,
  liveServers,
  startServer,
  tick,
  type World,
} from './world.js';

export type Action =
  | { t: 'serverStart' }
  | { t: 'serverKill'; i: number }
  /** kill -9 of the newest server, and a client starts its replacement. */
  | { t: 'serverRestart' }
  | { t: 'serverPause'; i: number }
  | { t: 'serverResume'; i: number }
  | { t: 'leaseBreak'; i: number }
  | { t: 'writeFail' }
  | { t: 'spawnComplete'; i: number }
  | { t: 'spawnFail'; i: number }
  | { t: 'holderKill'; i: number }
  | { t: 'childCrash'; i: number }
  | { t: 'bridgeReport'; i: number; session: number }
  | { t: 'linkBreak'; i: number }
  /** Resume records of stopped agent tabs expire. */
  | { t: 'recordsExpire' }
  /** An agent starts or finishes work: its glyph spins or stops. */
  | { t: 'agentWork'; i: number }
  /** SIGSTOP of a holder, or SIGCONT of a stopped one. */
  | { t: 'holderHang'; i: number }
  | { t: 'clientJoin' }
  | { t: 'clientReconnect'; i: number }
  | { t: 'clientLeave'; i: number }
  | { t: 'request'; i: number; op: number; tab: number; arg: number; stale: boolean }
  | { t: 'input'; i: number }
  /** `a1 tabs host stop` from a client. */
  | { t: 'hostStop'; i: number }
  | { t: 'deliver'; i: number }
  | { t: 'drop'; i: number }
  /** A calm moment: everything deliverable now is delivered, in channel order. */
  | { t: 'flush' }
  | { t: 'tick'; dt: number };

/** Opening sessions and viewing are listed twice: they are what the invariants are most about. */
const OPS = ['create', 'openSession', 'close', 'rename', 'reorder', 'view', 'claim', 'openSession', 'view', 'sleep', 'restart'] as const;
const SESSIONS = 2;

export function describeAction(a: Action): string {
  const { t, ...rest } = a as Action & Record<string, unknown>;
  if (a.t === 'request') return `request(client ${a.i}, ${OPS[a.op]}, tab ${a.tab}, arg ${a.arg}${a.stale ? ', stale rev' : ''})`;
  const args = Object.entries(rest).map(([k, v]) => `${k}=${String(v)}`);
  return `${t}(${args.join(', ')})`;
}

const idx = fc.nat({ max: 7 });

const arbitraries: { weight: number; arbitrary: fc.Arbitrary<Action> }[] = [
  { weight: 2, arbitrary: fc.constant({ t: 'serverStart' as const }) },
  { weight: 1, arbitrary: idx.map((i) => ({ t: 'serverKill' as const, i })) },
  { weight: 2, arbitrary: fc.constant({ t: 'serverRestart' as const }) },
  { weight: 1, arbitrary: idx.map((i) => ({ t: 'serverPause' as const, i })) },
  { weight: 1, arbitrary: idx.map((i) => ({ t: 'serverResume' as const, i })) },
  { weight: 1, arbitrary: idx.map((i) => ({ t: 'leaseBreak' as const, i })) },
  { weight: 1, arbitrary: fc.constant({ t: 'writeFail' as const }) },
  { weight: 3, arbitrary: idx.map((i) => ({ t: 'spawnComplete' as const, i })) },
  { weight: 1, arbitrary: idx.map((i) => ({ t: 'spawnFail' as const, i })) },
  { weight: 1, arbitrary: idx.map((i) => ({ t: 'holderKill' as const, i })) },
  { weight: 1, arbitrary: idx.map((i) => ({ t: 'childCrash' as const, i })) },
  { weight: 1, arbitrary: fc.record({ i: idx, session: fc.nat({ max: SESSIONS - 1 }) }).map((r) => ({ t: 'bridgeReport' as const, ...r })) },
  { weight: 1, arbitrary: idx.map((i) => ({ t: 'linkBreak' as const, i })) },
  { weight: 1, arbitrary: idx.map((i) => ({ t: 'holderHang' as const, i })) },
  { weight: 1, arbitrary: idx.map((i) => ({ t: 'agentWork' as const, i })) },
  { weight: 1, arbitrary: fc.constant({ t: 'recordsExpire' as const }) },
  { weight: 2, arbitrary: fc.constant({ t: 'clientJoin' as const }) },
  { weight: 1, arbitrary: idx.map((i) => ({ t: 'clientReconnect' as const, i })) },
  { weight: 1, arbitrary: idx.map((i) => ({ t: 'clientLeave' as const, i })) },
  {
    weight: 6,
    arbitrary: fc
      .record({ i: idx, op: fc.nat({ max: OPS.length - 1 }), tab: idx, arg: fc.nat({ max: 5 }), stale: fc.boolean() })
      .map((r) => ({ t: 'request' as const, ...r })),
  },
  { weight: 3, arbitrary: idx.map((i) => ({ t: 'input' as const, i })) },
  { weight: 1, arbitrary: idx.map((i) => ({ t: 'hostStop' as const, i })) },
  { weight: 16, arbitrary: fc.nat({ max: 15 }).map((i) => ({ t: 'deliver' as const, i })) },
  { weight: 3, arbitrary: fc.constant({ t: 'flush' as const }) },
  { weight: 2, arbitrary: fc.nat({ max: 15 }).map((i) => ({ t: 'drop' as const, i })) },
  { weight: 2, arbitrary: fc.integer({ min: 1_000, max: 40_000 }).map((dt) => ({ t: 'tick' as const, dt })) },
];

/** An action that prints readably in fast-check's counterexample. */
const readable = (a: Action): Action => Object.defineProperty({ ...a }, fc.toStringMethod, { value: () => describeAction(a), enumerable: false });

export const actionArb: fc.Arbitrary<Action> = fc.oneof(...arbitraries).map(readable, (v) => v as Action);

export const scheduleArb = (maxLength: number) => fc.array(actionArb, { minLength: 1, maxLength, size: 'max' });

const pick = <T>(xs: T[], i: number): T | undefined => (xs.length === 0 ? undefined : xs[i % xs.length]);

function requestFor(w: World, a: Extract<Action, { t: 'request' }>, rev: number): Request {
  const ids = w.store.everTabs;
  const tabId = pick(ids, a.tab) ?? 'tab-none';
  const expectedRev = a.stale ? rev : undefined;
  switch (OPS[a.op]) {
    case 'create':
      return { op: 'create', name: `n${a.arg}`, sessionId: null, expectedRev };
    case 'openSession':
      return { op: 'create', name: `n${a.arg}`, sessionId: `sess${a.arg % SESSIONS}` };
    case 'close':
      return { op: 'close', tabId, expectedRev };
    case 'rename':
      return { op: 'rename', tabId, name: `r${a.arg}`, expectedRev };
    case 'reorder':
      return { op: 'reorder', tabId, toIndex: a.arg, expectedRev };
    case 'view':
      return { op: 'view', tabId };
    case 'claim':
      return { op: 'claim', tabId };
    case 'sleep':
      return { op: 'sleep', tabId };
    case 'restart':
      return { op: 'restart', tabId, fresh: a.arg % 2 === 0, force: a.arg % 3 === 0 };
  }
}

export function apply(w: World, a: Action): void {
  const servers = liveServers(w);
  const holders = w.holders.filter((h) => h.alive);
  const spawning = holders.filter((h) => !h.ready);
  const ready = holders.filter((h) => h.ready);
  const clients = w.clients.filter((c) => c.alive);
  switch (a.t) {
    case 'serverStart':
      return startServer(w);
    case 'serverKill': {
      const s = pick(servers, a.i);
      return s && killServer(w, s);
    }
    case 'serverRestart': {
      const s = servers.at(-1);
      if (s) killServer(w, s);
      return startServer(w);
    }
    case 'serverPause': {
      const s = pick(servers, a.i);
      if (s) s.paused = true;
      return;
    }
    case 'serverResume': {
      const s = pick(servers, a.i);
      if (s) s.paused = false;
      return;
    }
    case 'leaseBreak': {
      // The kernel lock stops excluding a paused server (its lock file was removed, say): the
      // only way a second writer can start beside a live first one.
      const s = pick(servers.filter((x) => x.paused), a.i);
      if (s && w.store.leaseOwner === s.id) w.store.leaseOwner = null;
      return;
    }
    case 'writeFail':
      w.store.failNext = true;
      return;
    case 'spawnComplete': {
      const h = pick(spawning, a.i);
      return h && completeSpawn(w, h);
    }
    case 'spawnFail': {
      const h = pick(spawning, a.i);
      return h && killHolder(w, h);
    }
    case 'holderKill': {
      const h = pick(ready, a.i);
      return h && killHolder(w, h);
    }
    case 'childCrash': {
      const h = pick(ready, a.i);
      return h && crashChild(w, h);
    }
    case 'bridgeReport': {
      const h = pick(ready, a.i);
      return h && bridgeReport(w, h, `sess${a.session}`);
    }
    case 'linkBreak': {
      const h = pick(ready, a.i);
      return h && breakLink(w, h);
    }
    case 'recordsExpire':
      return recordsExpire(w);
    case 'agentWork': {
      const h = pick(ready, a.i);
      return h && agentWorks(w, h);
    }
    case 'holderHang': {
      // Hangs are rarer than other faults, and pass: the next pick resumes a stopped holder.
      const hung = ready.filter((h) => h.hung);
      const h = hung.length > 0 ? pick(hung, a.i) : a.i % 2 === 0 ? pick(ready, a.i >> 1) : undefined;
      return h && hangOrResumeHolder(w, h);
    }
    case 'clientJoin':
      return joinClient(w);
    case 'clientReconnect': {
      const c = pick(clients, a.i);
      return c && connectClient(w, c);
    }
    case 'clientLeave': {
      const c = pick(clients, a.i);
      return c && clientLeaves(w, c);
    }
    case 'request': {
      const c = pick(clients, a.i);
      return c && clientRequests(w, c, requestFor(w, a, c.knownRev));
    }
    case 'input': {
      const c = pick(clients, a.i);
      return c && clientTypes(w, c);
    }
    case 'hostStop': {
      const c = pick(clients, a.i);
      return c && clientRequests(w, c, { op: 'hostStop' });
    }
    case 'deliver': {
      const ready = deliverable(w);
      const i = pick(ready, a.i);
      if (i !== undefined) deliver(w, i);
      return;
    }
    case 'drop': {
      const lossy = w.net.map((m, i) => (m.lossy ? i : -1)).filter((i) => i >= 0);
      const i = pick(lossy, a.i);
      if (i !== undefined) w.net.splice(i, 1);
      return;
    }
    case 'flush':
      for (let n = deliverable(w).length; n > 0; n--) {
        const i = deliverable(w)[0];
        if (i === undefined) return;
        deliver(w, i);
      }
      return;
    case 'tick':
      return tick(w, a.dt);
  }
}
