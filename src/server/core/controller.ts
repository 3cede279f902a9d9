// Who may type into a tab (SPEC §3, §15 "Controller"). The holder orders a transfer: it applies the
// new revision and acknowledges, and only then is the revision committed. A tab's controller is
// always a client viewing it, or nobody; a client that leaves or looks elsewhere hands control on.
import { commit } from './commits.js';
import { patchTab } from './mutations.js';
import type { Controller, CoreState, CoreTab, Effect, Request } from './types.js';

/** The controller as it will be once the transfer in flight lands. */
export function effectiveController(tab: CoreTab): Controller {
  return tab.transfer ?? tab.controller;
}

function viewers(s: CoreState, tabId: string): string[] {
  return Object.keys(s.clients)
    .filter((id) => s.clients[id].viewing === tabId)
    .sort();
}

/** Sends the holder a transfer to `clientId` at a revision above every one it may have seen. */
export function transfer(s: CoreState, fx: Effect[], tab: CoreTab, clientId: string | null): CoreState {
  if (!tab.bound || !tab.holder) return s;
  const rev = Math.max(tab.controller.rev, tab.transfer?.rev ?? 0, tab.controllerRev) + 1;
  fx.push({ t: 'sendToHolder', epoch: s.epoch, tabId: tab.id, inc: tab.holder.inc, cmd: { t: 'setController', clientId, rev } });
  return { ...s, tabs: patchTab(s.tabs, tab.id, { transfer: { clientId, rev } }) };
}

/** Level-triggered: a controller that no longer views the tab hands over to a viewer, or to nobody;
 * a holder that knows an older revision than the registry's is brought up to it. */
export function settleController(s: CoreState, fx: Effect[], tab: CoreTab): CoreState {
  if (!tab.bound) return s;
  const current = effectiveController(tab);
  const watching = viewers(s, tab.id);
  const keep = current.clientId !== null && watching.includes(current.clientId);
  const wanted = keep ? current.clientId : (watching[0] ?? null);
  const behind = current.rev < tab.controllerRev;
  if (wanted === current.clientId && !behind) return s;
  return transfer(s, fx, tab, wanted);
}

export function handleControl(s: CoreState, fx: Effect[], clientId: string, reqId: number, req: Extract<Request, { op: 'view' | 'claim' }>): CoreState {
  const tab = s.tabs[req.tabId];
  if (!tab) {
    fx.push({ t: 'reply', clientId, reqId, reply: { ok: false, code: 'no-tab' } });
    return s;
  }
  if (req.op === 'view') s = { ...s, clients: { ...s.clients, [clientId]: { viewing: tab.id } } };
  if (!tab.bound || !tab.holder) {
    fx.push({ t: 'reply', clientId, reqId, reply: { ok: false, code: 'unavailable' } });
    return s;
  }
  const current = effectiveController(tab);
  const live = current.clientId !== null && s.clients[current.clientId]?.viewing === tab.id;
  // Viewing takes control only from nobody; a claim takes it from anyone (Alt+Enter).
  if (current.clientId !== clientId && (req.op === 'claim' || !live)) s = transfer(s, fx, tab, clientId);
  fx.push({ t: 'reply', clientId, reqId, reply: { ok: true, holderInc: tab.holder.inc, controller: effectiveController(s.tabs[tab.id]).clientId === clientId } });
  return s;
}

/** The holder applied a transfer: its revision is committed now. */
export function onControllerAck(s: CoreState, fx: Effect[], tabId: string, inc: string, rev: number): CoreState {
  const tab = s.tabs[tabId];
  if (!tab?.bound || tab.holder?.inc !== inc || tab.transfer?.rev !== rev) return s;
  return commit(s, fx, { t: 'update', id: tabId, patch: { controllerRev: rev } }, {
    onOk: [],
    onFail: [],
    runtime: { tabId, ok: { controller: tab.transfer, transfer: null } },
  });
}
