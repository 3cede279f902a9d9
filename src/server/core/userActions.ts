// Sleep, wake and restart (SPEC §9) in the core: sleeping commits the tab as asleep and not wanted
// running, and only then ends its holder; a spawn in flight is killed when it completes, since
// its tab no longer wants it. Viewing a sleeping tab wants it running again, and reconciliation
// starts it. The decisions are the shell's own rules (tabActions.ts).
import { commit } from './commits.js';
import { restartAction, sleepAction, wakes } from './tabActions.js';
import type { CoreState, CoreTab, Effect, Reply, TabPatch } from './types.js';

/** A tab can sleep, and resume later, when it holds an agent session of a kind that resumes. */
export function canResume(s: CoreState, tab: CoreTab): boolean {
  return tab.sessionId !== null && (s.limits.resumableKinds === undefined || s.limits.resumableKinds.includes(tab.spec.kind));
}

export function handleSleep(s: CoreState, fx: Effect[], clientId: string, reqId: number, tabId: string): CoreState {
  const reply = (r: Reply): Effect => ({ t: 'reply', clientId, reqId, reply: r });
  const tab: CoreTab | undefined = s.tabs[tabId];
  const action = sleepAction({ present: !!tab, asleep: tab?.lifecycle === 'asleep', resumable: !!tab && canResume(s, tab) });
  if (action === 'noTab' || !tab) {
    fx.push(reply({ ok: false, code: 'no-tab' }));
    return s;
  }
  if (action === 'alreadyAsleep') {
    fx.push(reply({ ok: true, asleep: true }));
    return s;
  }
  if (action === 'notResumable') {
    fx.push(reply({ ok: false, code: 'not-resumable' }));
    return s;
  }
  return sleepTab(s, fx, tab, [reply({ ok: true, asleep: true })], [reply({ ok: false, code: 'write-failed' })]);
}

/** The sleep itself, asked for or for idleness: committed, then the holder ended. */
export function sleepTab(s: CoreState, fx: Effect[], tab: CoreTab, onOk: Effect[], onFail: Effect[]): CoreState {
  // The checkpoint first: a crash after it leaves a tab that resumes, never one that cannot.
  if (tab.sessionId) fx.push({ t: 'putResumeRecord', epoch: s.epoch, tabId: tab.id, sessionId: tab.sessionId, origin: 'sleep' });
  const h = tab.holder;
  const kill: Effect[] = h?.pid && h.startTime ? [{ t: 'kill', epoch: s.epoch, tabId: tab.id, pid: h.pid, startTime: h.startTime }] : [];
  return commit(s, fx, { t: 'update', id: tab.id, patch: { desired: 'stopped', lifecycle: 'asleep', holder: null, child: null } }, {
    onOk: [...onOk, ...kill],
    onFail,
    runtime: {
      tabId: tab.id,
      ok: { starting: null, verifying: false, bound: false, controller: { clientId: null, rev: tab.controllerRev }, transfer: null, reported: null, quietSince: null },
    },
  });
}

/** Viewing a sleeping tab wakes it: it is wanted running again, committed before it starts. */
export function wakeOnView(s: CoreState, fx: Effect[], tab: CoreTab): CoreState {
  if (!wakes({ asleep: tab.lifecycle === 'asleep', starting: tab.starting !== null, linked: tab.bound })) return s;
  // Its running agent's live record is the authority from here; wanted running is committed before
  // the checkpoint is spent, so a crash in between resumes the tab rather than leaving it asleep.
  if (tab.sessionId) fx.push({ t: 'putResumeRecord', epoch: s.epoch, tabId: tab.id, sessionId: tab.sessionId, origin: 'live' });
  return commit(s, fx, { t: 'update', id: tab.id, patch: { desired: 'running', lifecycle: 'starting' } }, {
    onOk: [{ t: 'dropResumeRecords', epoch: s.epoch, tabId: tab.id, origin: 'sleep' }],
    onFail: [],
  });
}

/**
 * A restart the user asked for: the child starts again in its holder, or a tab whose holder
 * failed past the budget gets a new one with a fresh budget. A holder being verified is not
 * replaced: it may be alive. A fresh start (`f`) abandons the agent session: the tab holds none
 * and its resume records go, so no later automatic start (a replacement holder, the live
 * capture) resumes it before the new agent reports a session of its own (SPEC §9).
 */
export function handleRestart(s: CoreState, fx: Effect[], clientId: string, reqId: number, req: { tabId: string; fresh: boolean; force: boolean }): CoreState {
  const reply = (r: Reply): Effect => ({ t: 'reply', clientId, reqId, reply: r });
  const tab: CoreTab | undefined = s.tabs[req.tabId];
  if (!tab) {
    fx.push(reply({ ok: false, code: 'no-tab' }));
    return s;
  }
  // A recorded holder whose verification could not be committed is verified again soon: it may
  // be alive, so it is not replaced. One that proved nothing (unverified) may be.
  const recorded = tab.holder?.pid != null && tab.unverified !== tab.holder.inc;
  const action = restartAction({
    linked: tab.bound || tab.verifying || recorded,
    starting: tab.starting !== null,
    lifecycle: tab.reported?.lifecycle ?? tab.lifecycle,
    asleep: tab.lifecycle === 'asleep',
    force: req.force,
  });
  if (action === 'none') {
    fx.push(reply({ ok: true, restarted: false }));
    return s;
  }
  if (action === 'startHolder') {
    // An unverified holder is let go with its record: the new incarnation owns the tab, and the
    // orphan sweep deals with the old one.
    const patch: TabPatch = { lifecycle: 'starting', holder: null, child: null, ...(req.fresh ? { sessionId: null } : {}) };
    return commit(s, fx, { t: 'update', id: tab.id, patch }, {
      onOk: [...(req.fresh ? [dropAllRecords(s, tab)] : []), reply({ ok: true, restarted: true })],
      onFail: [reply({ ok: false, code: 'write-failed' })],
      runtime: { tabId: tab.id, ok: { losses: [], unverified: null, startOptions: req.fresh ? { fresh: true } : null } },
    });
  }
  if (!tab.bound || !tab.holder) {
    fx.push(reply({ ok: false, code: 'unavailable' }));
    return s;
  }
  const restart: Effect[] = [
    { t: 'sendToHolder', epoch: s.epoch, tabId: tab.id, inc: tab.holder.inc, cmd: { t: 'restartChild', fresh: req.fresh, force: action === 'restartRunningChild' } },
    reply({ ok: true, restarted: true }),
  ];
  if (!req.fresh || action === 'restartRunningChild') {
    fx.push(...restart);
    return s;
  }
  // What the holder last reported names the abandoned session too: it must not bring it back.
  return commit(s, fx, { t: 'update', id: tab.id, patch: { sessionId: null } }, {
    onOk: [dropAllRecords(s, tab), ...restart],
    onFail: [reply({ ok: false, code: 'write-failed' })],
    runtime: { tabId: tab.id, ok: { reported: tab.reported && { ...tab.reported, sessionId: null } } },
  });
}

function dropAllRecords(s: CoreState, tab: CoreTab): Effect {
  return { t: 'dropResumeRecords', epoch: s.epoch, tabId: tab.id, origin: 'all' };
}
