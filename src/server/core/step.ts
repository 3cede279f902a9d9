// The server's decisions as one pure reducer: step(state, event) → { state, effects } (SPEC §14).
// The shell feeds it socket, timer, process and registry events and carries out its effects; the
// simulation does the same against a model world.
import { commit, freshTab, onCommitted, stop } from './commits.js';
import { answerViews, handleControl, onControllerAck } from './controller.js';
import { heard, heartbeat, startLaunches, onGone, onHolderState, onLinkClosed, onSpawned, onSpawnFailed, onStartRefused, onUnverifiable, onVerified } from './holders.js';
import { onTick, reconcile } from './reconcile.js';
import { handleRestart, handleSleep } from './userActions.js';
import { handleTopology } from './topology.js';
import { finishHostStop, handleHostStop, whileStopping } from './hostStop.js';
import { idle } from './idle.js';
import type { CoreEvent, CoreLimits, CoreState, Durable, Effect, StepResult } from './types.js';

/** A server that holds the writer lease loads the registry and commits the next epoch before it
 * does anything else (SPEC §5). */
const NO_LIMITS: CoreLimits = { tabsMax: Number.POSITIVE_INFINITY, maxConcurrentStarts: Number.POSITIVE_INFINITY, idleSuspendMs: 0, serverIdleExitMs: Number.POSITIVE_INFINITY, agentKinds: [] };

export function boot(serverId: string, now: number, durable: Durable, limits: CoreLimits = NO_LIMITS): StepResult {
  const tabs = Object.fromEntries(Object.values(durable.tabs).map((t) => [t.id, freshTab(t)]));
  const s: CoreState = { serverId, epoch: durable.epoch + 1, phase: 'starting', hostStop: null, idleSince: now, resumeExpired: durable.resumeExpired ?? [], degraded: false, now, rev: durable.rev, limits, tabs, clients: {}, views: [], pending: {}, spawns: {}, nextId: 1 };
  const fx: Effect[] = [];
  return { state: commit(s, fx, { t: 'startEpoch', epoch: s.epoch }, { onOk: [], onFail: [] }), effects: fx };
}

export function step(state: CoreState, event: CoreEvent): StepResult {
  const fx: Effect[] = [];
  if (event.t === 'boot') return boot(event.serverId, event.now, event.durable, event.limits);
  if (state.phase === 'stopped') return { state, effects: fx };
  let s = dispatch(state, event, fx);
  s = finishHostStop(s, fx);
  if (s.phase === 'serving') s = answerViews(s, fx);
  if (s.phase === 'serving' && !s.degraded) s = reconcile(s, fx);
  return { state: s, effects: fx };
}

function dispatch(s: CoreState, e: Exclude<CoreEvent, { t: 'boot' }>, fx: Effect[]): CoreState {
  if (e.t === 'committed') return onCommitted(s, fx, e.id, e.result);
  if (e.t === 'fenced') return stop(s, fx);
  // New bounds bind the next decision; nothing already running is undone (a lower tabsMax closes
  // no tab, it refuses the next new one).
  if (e.t === 'limits') return { ...s, limits: e.limits };
  if (e.t === 'startCleared') {
    if (s.phase === 'serving' && startLaunches(s.tabs[e.tabId], e.inc)) {
      fx.push({ t: 'launchHolder', epoch: s.epoch, tabId: e.tabId, inc: e.inc });
      return s;
    }
    // A start its tab no longer wants is not made: it ends as a failed spawn would.
    e = { t: 'spawnFailed', tabId: e.tabId, inc: e.inc };
  }
  if (e.t === 'spawned' || e.t === 'spawnFailed' || e.t === 'startRefused') {
    const { [e.inc]: _done, ...spawns } = s.spawns;
    s = { ...s, spawns };
  }
  if (s.phase === 'stopping') return whileStopping(s, fx, e);
  if (s.phase !== 'serving') return s;
  switch (e.t) {
    case 'tick':
    {
      const ticked = onTick({ ...s, now: Math.max(s.now, e.now), degraded: false }, fx);
      return idle(e.heartbeat === false ? ticked : heartbeat(ticked, fx), fx);
    }
    case 'clientAttached':
      return { ...s, clients: { ...s.clients, [e.clientId]: e.passive ? { viewing: null, passive: true } : { viewing: null } } };
    case 'clientGone': {
      const { [e.clientId]: _gone, ...clients } = s.clients;
      return { ...s, clients };
    }
    case 'request':
      // A request from a connection the server no longer knows has nobody to answer.
      if (!s.clients[e.clientId]) return s;
      if (e.req.op === 'view' || e.req.op === 'claim') return handleControl(s, fx, e.clientId, e.reqId, e.req);
      if (e.req.op === 'sleep') return handleSleep(s, fx, e.clientId, e.reqId, e.req.tabId);
      if (e.req.op === 'restart') return handleRestart(s, fx, e.clientId, e.reqId, e.req);
      if (e.req.op === 'hostStop') return handleHostStop(s, fx, e.clientId, e.reqId);
      return handleTopology(s, fx, e.clientId, e.reqId, e.req);
    case 'spawned':
      return onSpawned(s, fx, e.tabId, e.inc, e.pid, e.startTime);
    case 'spawnFailed':
      return onSpawnFailed(s, fx, e.tabId, e.inc);
    case 'startRefused':
      return onStartRefused(s, fx, e.tabId, e.inc);
    case 'holderVerified':
      return onVerified(s, fx, e.tabId, e.inc, e.facts);
    case 'holderGone':
      return onGone(s, fx, e.tabId, e.inc);
    case 'holderUnverifiable':
      return onUnverifiable(s, fx, e.tabId, e.inc);
    case 'pong':
      return heard(s, e.tabId, e.inc);
    case 'linkClosed':
      return onLinkClosed(s, fx, e.tabId, e.inc);
    case 'holderState':
      return onHolderState(s, fx, e.tabId, e.inc, e.report);
    case 'controllerAck':
      return onControllerAck(heard(s, e.tabId, e.inc), fx, e.tabId, e.inc, e.rev);
  }
}
