// Registry writes as effects (SPEC §5). The adapter runs each `commit` as one transaction that
// rechecks the writer lease and epoch, and answers with `committed` before the core sees any other
// event (better-sqlite3 is synchronous). Memory changes, replies and follow-up effects happen only
// after `ok`: a failed write is never acknowledged, and a fenced one stops this server.
import { applyMutation, isTopology, patchTab } from './mutations.js';
import type { CommitResult, CoreState, CoreTab, DurableTab, Effect, Mutation, Pending } from './types.js';

export function freshTab(d: DurableTab): CoreTab {
  return { ...d, starting: null, bound: false, verifying: false, startOptions: null, unverified: null, unanswered: 0, quietSince: null, losses: [], controller: { clientId: null, rev: d.controllerRev }, transfer: null, reported: null, size: null, autoNamedAt: null };
}

/** A commit is awaiting its answer (reconciliation waits for it). Asked per tab per event, so it
 * allocates nothing. */
export function hasPending(s: Pick<CoreState, 'pending'>): boolean {
  for (const _id in s.pending) return true;
  return false;
}

/** Asks for `mutation` to be committed; `after` says what follows its outcome. */
export function commit(s: CoreState, fx: Effect[], mutation: Mutation, after: Omit<Pending, 'mutation'>): CoreState {
  const id = s.nextId;
  fx.push({ t: 'commit', id, epoch: s.epoch, rev: isTopology(mutation) ? s.rev + 1 : s.rev, mutation });
  return { ...s, nextId: id + 1, pending: { ...s.pending, [id]: { mutation, ...after } } };
}

/** A superseded server acts no more: it exits, and its successor owns everything (SPEC §5). */
export function stop(s: CoreState, fx: Effect[]): CoreState {
  fx.push({ t: 'exit', reason: 'fenced' });
  return { ...s, phase: 'stopped', pending: {} };
}

export function onCommitted(s: CoreState, fx: Effect[], id: number, result: CommitResult): CoreState {
  const p = s.pending[id];
  if (!p) return s;
  const { [id]: _done, ...pending } = s.pending;
  s = { ...s, pending };
  if (result !== 'ok') {
    fx.push(...p.onFail);
    // A server that cannot commit its own epoch never starts serving: it exits with the error.
    if (result === 'fenced' || p.mutation.t === 'startEpoch') return stop(s, fx);
    if (p.runtime?.fail) s = { ...s, tabs: patchTab(s.tabs, p.runtime.tabId, p.runtime.fail) };
    return { ...s, degraded: true };
  }
  let tabs = applyMutation(s.tabs, p.mutation, freshTab);
  if (p.runtime?.ok) tabs = patchTab(tabs, p.runtime.tabId, p.runtime.ok);
  if (p.spawn) s = { ...s, spawns: { ...s.spawns, [p.spawn.inc]: p.spawn.tabId } };
  s = { ...s, tabs, rev: isTopology(p.mutation) ? s.rev + 1 : s.rev };
  if (p.mutation.t === 'startEpoch') s = beginServing(s, fx);
  fx.push(...p.onOk);
  return s;
}

/** The epoch is ours: every recorded holder is verified before anything else touches its tab. */
function beginServing(s: CoreState, fx: Effect[]): CoreState {
  const tabs = { ...s.tabs };
  for (const tab of Object.values(tabs)) {
    if (!tab.holder) continue;
    tabs[tab.id] = { ...tab, verifying: true };
    fx.push({ t: 'verifyHolder', epoch: s.epoch, tabId: tab.id, ref: tab.holder });
  }
  return { ...s, phase: 'serving', tabs };
}
