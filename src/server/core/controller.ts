// Who may type into a tab (SPEC §3, §15 "Controller"). The holder orders a transfer: it applies the
// new revision and acknowledges, and only then is the revision committed. A tab's controller is
// always a client viewing it, or nobody; a client that leaves or looks elsewhere hands control on.
import { commit } from './commits.js';
import { patchTab } from './mutations.js';
import { wakeOnView } from './userActions.js';
import type { Controller, CoreState, CoreTab, Effect, Request } from './types.js';

// ---- the rules, on plain facts: the core below and the server shell both decide by them ----

/** The revision of a new transfer: above the acknowledged one, the one in flight, and the
 * registry's, so two transfers sent before either is acknowledged never share a revision. */
export function nextControllerRev(acked: number, inFlight: number | null, committed: number): number {
  return Math.max(acked, inFlight ?? 0, committed) + 1;
}

/**
 * A client asks for control of a tab it views: `view` takes it only from nobody (or from a
 * controller no longer viewing the tab); `claim` (the takeControl key) takes it from anyone. Returns
 * whether a transfer to the client is needed.
 */
export function controlOnRequest(op: 'view' | 'claim', current: string | null, currentViews: boolean, requester: string): boolean {
  if (current === requester) return false;
  return op === 'claim' || current === null || !currentViews;
}

/**
 * Level-triggered: a controller that still views the tab keeps it; otherwise control passes to
 * the first viewer (in a stable order), or to nobody. Returns the client control should pass to,
 * or undefined when it stays where it is.
 */
export function controlHandover(current: string | null, viewers: readonly string[]): string | null | undefined {
  if (current !== null && viewers.includes(current)) return undefined;
  const next = [...viewers].sort()[0] ?? null;
  return next === current ? undefined : next;
}

/** The controller as it will be once the transfer in flight lands. */
export function effectiveController(tab: CoreTab): Controller {
  return tab.transfer ?? tab.controller;
}

/** The clients control may pass to without asking: viewers that are not passive pages. */
function viewers(s: CoreState, tabId: string): string[] {
  return Object.keys(s.clients)
    .filter((id) => s.clients[id].viewing === tabId && !s.clients[id].passive)
    .sort();
}

function viewed(s: CoreState, tabId: string): boolean {
  for (const id in s.clients) if (s.clients[id].viewing === tabId) return true;
  return false;
}

/** Sends the holder a transfer to `clientId` at a revision above every one it may have seen. */
export function transfer(s: CoreState, fx: Effect[], tab: CoreTab, clientId: string | null): CoreState {
  if (!tab.bound || !tab.holder) return s;
  const rev = nextControllerRev(tab.controller.rev, tab.transfer?.rev ?? null, tab.controllerRev);
  fx.push({ t: 'sendToHolder', epoch: s.epoch, tabId: tab.id, inc: tab.holder.inc, cmd: { t: 'setController', clientId, rev } });
  return { ...s, tabs: patchTab(s.tabs, tab.id, { transfer: { clientId, rev } }) };
}

/** Level-triggered: a controller that no longer views the tab hands over to a viewer, or to nobody;
 * a holder that knows an older revision than the registry's is brought up to it. */
export function settleController(s: CoreState, fx: Effect[], tab: CoreTab): CoreState {
  if (!tab.bound) return s;
  const current = effectiveController(tab);
  const behind = current.rev < tab.controllerRev;
  // Most tabs, on most events: nobody controls or views them (asked per tab on every event).
  if (current.clientId === null && !behind && !viewed(s, tab.id)) return s;
  // A passive page keeps control it claimed while it views the tab; it is never handed control.
  const keeps = current.clientId !== null && s.clients[current.clientId]?.viewing === tab.id;
  const candidates = viewers(s, tab.id);
  const handover = controlHandover(current.clientId, keeps && !candidates.includes(current.clientId!) ? [...candidates, current.clientId!] : candidates);
  if (handover === undefined && !behind) return s;
  return transfer(s, fx, tab, handover === undefined ? current.clientId : handover);
}

export function handleControl(s: CoreState, fx: Effect[], clientId: string, reqId: number, req: Extract<Request, { op: 'view' | 'claim' }>): CoreState {
  const tab = s.tabs[req.tabId];
  if (!tab) {
    fx.push({ t: 'reply', clientId, reqId, reply: { ok: false, code: 'no-tab' } });
    return s;
  }
  if (req.op === 'view') s = wakeOnView({ ...s, clients: { ...s.clients, [clientId]: { ...s.clients[clientId], viewing: tab.id } } }, fx, tab);
  // A claim without force takes control only as a view would: from nobody.
  const rule = req.op === 'claim' && req.force !== false ? 'claim' : 'view';
  if (tab.bound && tab.holder) return grant(s, fx, clientId, reqId, rule, tab, req.op === 'claim');
  // A view of a tab that is on its way up waits for it (VIEW_WAIT_MS); a claim, or a view of a
  // tab nothing will start, is refused now.
  if (req.op === 'view' && viewWaits(s.tabs[tab.id], s.pending, tab.id)) {
    return { ...s, views: [...s.views, { clientId, reqId, tabId: tab.id, until: s.now + VIEW_WAIT_MS }] };
  }
  fx.push({ t: 'reply', clientId, reqId, reply: { ok: false, code: 'unavailable' } });
  return s;
}

/** How long a view waits for a starting tab before it is refused. */
export const VIEW_WAIT_MS = 15_000;

/** A tab will be bound without anyone asking again: it starts, is verified, or is wanted running
 * and not failed (reconciliation starts it); a wake in flight counts. */
function viewWaits(tab: CoreTab, pending: CoreState['pending'], tabId: string): boolean {
  if (tab.starting || tab.verifying) return true;
  const waking = Object.values(pending).some((p) => p.mutation.t === 'update' && p.mutation.id === tabId && p.mutation.patch.desired === 'running');
  return (tab.desired === 'running' || waking) && tab.lifecycle !== 'failed' && tab.unverified === null;
}

/** The client views the bound tab: control passes to it when the rule says so, and it learns
 * the holder's incarnation (its ticket, in the shell). */
function grant(s: CoreState, fx: Effect[], clientId: string, reqId: number, op: 'view' | 'claim', tab: CoreTab, claimed = false): CoreState {
  const current = effectiveController(tab);
  const live = current.clientId !== null && s.clients[current.clientId]?.viewing === tab.id;
  // A passive page takes control only when it claims (a claim without force: from nobody).
  const passiveView = !claimed && s.clients[clientId]?.passive === true;
  if (!passiveView && controlOnRequest(op, current.clientId, live, clientId)) s = transfer(s, fx, tab, clientId);
  fx.push({ t: 'reply', clientId, reqId, reply: { ok: true, holderInc: tab.holder!.inc, controller: effectiveController(s.tabs[tab.id]).clientId === clientId } });
  return s;
}

/** Level-triggered: each waiting view is answered once its tab is bound, refused once the tab is
 * gone, will not start, or the wait ran out; a client that left is owed nothing. */
export function answerViews(s: CoreState, fx: Effect[]): CoreState {
  if (s.views.length === 0) return s;
  const views = s.views;
  s = { ...s, views: [] };
  for (const v of views) {
    const tab = s.tabs[v.tabId];
    if (!s.clients[v.clientId]) continue;
    if (!tab) fx.push({ t: 'reply', clientId: v.clientId, reqId: v.reqId, reply: { ok: false, code: 'no-tab' } });
    else if (tab.bound && tab.holder) s = grant(s, fx, v.clientId, v.reqId, 'view', tab);
    else if (s.now >= v.until || !viewWaits(tab, s.pending, tab.id)) fx.push({ t: 'reply', clientId: v.clientId, reqId: v.reqId, reply: { ok: false, code: 'unavailable' } });
    else s = { ...s, views: [...s.views, v] };
  }
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
