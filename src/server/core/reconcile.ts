// Level-triggered reconciliation (SPEC §10): after every event the core converges each tab's actual
// state towards its desired state. At most one start is in flight per tab; a failed tab waits for
// the user; a holder whose fate is unknown is verified before anything else happens to it.
// It issues one commit at a time: each decision sees every earlier one committed (or refused),
// and the answer to that commit runs reconciliation again.
import { commit, hasPending } from './commits.js';
import { settleController } from './controller.js';
import { runsShell, syncReported } from './holders.js';
import type { CoreState, CoreTab, Effect } from './types.js';
import { patchTab } from './mutations.js';
import { closesOnExit, startAction } from './supervision.js';
import { closeTab } from './topology.js';
import { autoName } from './autoName.js';
import { incarnationId } from './ids.js';

function wantsStart(tab: CoreTab): boolean {
  // A tab put to sleep by a host stop still wants to run: the next server starts it. One put to
  // sleep does not (its desired state is stopped).
  if (tab.desired !== 'running' || tab.lifecycle === 'failed') return false;
  if (tab.starting || tab.verifying || tab.bound) return false;
  return tab.holder === null || tab.holder.pid === null;
}

/** Starts in flight: a spawn, or a starting tab's holder still being verified (a start ends when
 * the holder is bound, as it always has). The rest wait their turn, in tab order. */
export function startsInFlight(s: CoreState): number {
  let n = 0;
  for (const t of Object.values(s.tabs)) if (t.starting || (t.verifying && t.lifecycle === 'starting')) n++;
  return n;
}

/** A sleeping tab that wants to run, whose session's resume record expired before this server
 * started, moves to history instead of starting (SPEC §9); one at a time, like every commit here. */
function retireExpired(s: CoreState, fx: Effect[]): CoreState {
  while (s.resumeExpired.length > 0) {
    const [id, ...rest] = s.resumeExpired;
    const tab = s.tabs[id];
    const resumesSession = tab?.lifecycle === 'asleep' && tab.sessionId !== null;
    if (!tab || startAction({ desired: tab.desired, resumesSession, recordExpired: true }) !== 'toHistory') {
      s = { ...s, resumeExpired: rest };
      continue;
    }
    // Kept in the list until the tab is gone: a write that failed is tried again.
    return commit(s, fx, { t: 'retireTab', id, reason: 'expired' }, { onOk: [{ t: 'notifyClients', rev: s.rev + 1, change: 'tabRemoved', tabId: id }], onFail: [] });
  }
  return s;
}

function exitFacts(s: CoreState, tab: CoreTab) {
  const r = tab.reported!;
  return { kind: tab.spec.kind, runsShell: runsShell(s, tab), lifecycle: r.lifecycle };
}

export function reconcile(s: CoreState, fx: Effect[]): CoreState {
  if (hasPending(s)) return s;
  s = retireExpired(s, fx);
  for (const id of Object.keys(s.tabs).sort()) {
    if (hasPending(s)) return s;
    const tab = s.tabs[id];
    if (wantsStart(tab) && startsInFlight(s) < s.limits.maxConcurrentStarts) {
      const inc = incarnationId(s.serverId, s.nextId);
      s = { ...s, nextId: s.nextId + 1 };
      s = commit(s, fx, { t: 'update', id, patch: { holder: { inc, pid: null, startTime: null }, child: null, lastExit: null, lifecycle: 'starting' } }, {
        // A replacement holder starts at the size the tab last had; a new tab at its creator's.
        onOk: [{ t: 'spawnHolder', epoch: s.epoch, tabId: id, inc, options: { ...(tab.size ?? {}), ...(tab.startOptions ?? {}) } }],
        onFail: [],
        runtime: { tabId: id, ok: { starting: inc, startOptions: null } },
        spawn: { inc, tabId: id },
      });
    } else if (!tab.bound && !tab.verifying && !tab.starting && tab.holder?.pid && tab.unverified !== tab.holder.inc) {
      // A recorded holder nobody verified (its last verification could not be committed).
      fx.push({ t: 'verifyHolder', epoch: s.epoch, tabId: id, ref: tab.holder });
      s = { ...s, tabs: patchTab(s.tabs, id, { verifying: true }) };
    } else if (tab.bound && tab.reported && closesOnExit(exitFacts(s, tab))) {
      // Its shell ended: the tab goes as if closed (SPEC §15). Nothing more happens to it here.
      s = closeTab(s, fx, id, [], []);
    } else {
      s = settleController(s, fx, tab);
      s = syncReported(s, fx, s.tabs[id]);
      s = autoName(s, fx, s.tabs[id]);
    }
  }
  return s;
}

/** The holder incarnations the registry's rows own: the recorded one (pending or bound) and a
 * spawn in flight. Any other holder of the profile is an orphan (SPEC §10). */
export function ownedHolders(tabs: Iterable<Pick<CoreTab, 'id' | 'holder' | 'starting'>>): { tabId: string; inc: string }[] {
  const owned: { tabId: string; inc: string }[] = [];
  for (const tab of tabs) {
    if (tab.holder) owned.push({ tabId: tab.id, inc: tab.holder.inc });
    if (tab.starting && tab.starting !== tab.holder?.inc) owned.push({ tabId: tab.id, inc: tab.starting });
  }
  return owned;
}

/** Periodic work: transfers whose acknowledgement went missing are sent again, and holders no row
 * owns (a spawn that outlived its server, a tab closed meanwhile) are retired. */
export function onTick(s: CoreState, fx: Effect[]): CoreState {
  for (const tab of Object.values(s.tabs)) {
    if (tab.bound && tab.holder && tab.transfer) {
      fx.push({ t: 'sendToHolder', epoch: s.epoch, tabId: tab.id, inc: tab.holder.inc, cmd: { t: 'setController', ...tab.transfer } });
    }
  }
  fx.push({ t: 'sweepOrphans', epoch: s.epoch, owned: ownedHolders(Object.values(s.tabs)) });
  return s;
}
