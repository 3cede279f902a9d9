// Host stop (SPEC §9 "host stop", §10): every running tab is committed asleep with its desired
// state kept, so the next start restores the tab set, and only then is its holder ended. The
// server takes no new work meanwhile; it answers and exits once every commit is answered and no
// spawn is in flight (a spawn completing now is killed, not bound), so no holder outlives it.
import { commit } from './commits.js';
import type { CoreEvent, CoreState, CoreTab, Effect } from './types.js';

export function handleHostStop(s: CoreState, fx: Effect[], clientId: string, reqId: number): CoreState {
  fx.push({ t: 'notifyClients', rev: s.rev, change: 'hostStopping', tabId: null });
  const stopping = Object.values(s.tabs).filter((t) => !stoppedAlready(t));
  // Resumable agents get a `quit` record: the next start resumes them.
  for (const t of stopping) if (t.sessionId) fx.push({ t: 'putResumeRecord', epoch: s.epoch, tabId: t.id, sessionId: t.sessionId, origin: 'quit' });
  const stopped = stopping.length;
  return suspendAll({ ...s, phase: 'stopping', hostStop: { clientId, reqId, stopped } }, fx);
}

const stoppedAlready = (t: CoreTab) => t.lifecycle === 'asleep' && !t.holder;

/** Level-triggered: each tab not yet asleep is committed so, and its holder ended after; a
 * write that failed is tried again once the disk had a moment (the next tick). */
function suspendAll(s: CoreState, fx: Effect[]): CoreState {
  if (s.degraded) return s;
  const committing = new Set(Object.values(s.pending).map((p) => (p.mutation.t === 'update' ? p.mutation.id : '')));
  for (const tab of Object.values(s.tabs)) {
    if (stoppedAlready(tab) || committing.has(tab.id)) continue;
    const h = tab.holder;
    const kill: Effect[] = h?.pid && h.startTime ? [{ t: 'kill', epoch: s.epoch, tabId: tab.id, pid: h.pid, startTime: h.startTime }] : [];
    s = commit(s, fx, { t: 'update', id: tab.id, patch: { lifecycle: 'asleep', holder: null, child: null } }, {
      onOk: kill,
      onFail: [],
      runtime: { tabId: tab.id, ok: { verifying: false, bound: false, transfer: null, reported: null, unanswered: 0 } },
    });
  }
  return s;
}

/** While stopping: spawns in flight are killed when they complete; nothing else starts. */
export function whileStopping(s: CoreState, fx: Effect[], e: Exclude<CoreEvent, { t: 'boot' }>): CoreState {
  switch (e.t) {
    case 'spawned': {
      const tab = s.tabs[e.tabId];
      fx.push({ t: 'kill', epoch: s.epoch, tabId: e.tabId, pid: e.pid, startTime: e.startTime });
      return tab?.starting === e.inc ? { ...s, tabs: { ...s.tabs, [e.tabId]: { ...tab, starting: null } } } : s;
    }
    case 'spawnFailed':
    case 'startRefused': {
      const tab = s.tabs[e.tabId];
      return tab?.starting === e.inc ? { ...s, tabs: { ...s.tabs, [e.tabId]: { ...tab, starting: null } } } : s;
    }
    case 'request':
      if (s.clients[e.clientId]) fx.push({ t: 'reply', clientId: e.clientId, reqId: e.reqId, reply: { ok: false, code: 'unavailable' } });
      return s;
    case 'clientGone': {
      const { [e.clientId]: _gone, ...clients } = s.clients;
      return { ...s, clients };
    }
    case 'tick':
      return suspendAll({ ...s, now: Math.max(s.now, e.now), degraded: false }, fx);
    default:
      return s;
  }
}

/** Done once every commit is answered and no spawn is in flight: answer, then exit. */
export function finishHostStop(s: CoreState, fx: Effect[]): CoreState {
  if (s.phase !== 'stopping' || !s.hostStop) return s;
  if (Object.keys(s.pending).length > 0 || Object.keys(s.spawns).length > 0 || Object.values(s.tabs).some((t) => !stoppedAlready(t))) return s;
  const { clientId, reqId, stopped } = s.hostStop;
  // No row owns a holder now: any the profile still runs (an orphan the periodic sweep had not
  // reached yet) is retired too.
  fx.push({ t: 'sweepOrphans', epoch: s.epoch, owned: [] });
  if (s.clients[clientId]) fx.push({ t: 'reply', clientId, reqId, reply: { ok: true, stopped } });
  fx.push({ t: 'exit', reason: 'hostStop' });
  return { ...s, phase: 'stopped', hostStop: null };
}
