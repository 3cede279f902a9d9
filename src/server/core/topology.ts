// Client mutations of the tab set (SPEC §6, §9): each carries the revision its sender saw, commits
// whole at the next revision or is refused with a typed conflict, and is answered only after its
// commit.
import { commit } from './commits.js';
import { closeOutcome, sessionHolder } from './guards.js';
import { orderedIds } from './mutations.js';
import { tabId } from './ids.js';
import { DEFAULT_TAB_SPEC, type CoreState, type Effect, type Reply, type Request } from './types.js';

/** Closes a tab (a user's close, or a shell that exited 0): the bound holder is ended after the
 * commit; a spawn still in flight is killed when it completes, since its tab is gone by then. */
export function closeTab(s: CoreState, fx: Effect[], id: string, onOk: Effect[], onFail: Effect[]): CoreState {
  const { holder } = s.tabs[id];
  const kill: Effect[] = holder?.pid && holder.startTime ? [{ t: 'kill', epoch: s.epoch, tabId: id, pid: holder.pid, startTime: holder.startTime }] : [];
  return commit(s, fx, { t: 'retireTab', id, reason: 'closed' }, {
    onOk: [...onOk, { t: 'notifyClients', rev: s.rev + 1, change: 'tabRemoved', tabId: id }, ...kill],
    onFail,
  });
}

type TopologyRequest = Extract<Request, { op: 'create' | 'close' | 'rename' | 'reorder' }>;

/** A mutation sent against an older revision than the current one is refused whole (SPEC §6);
 * one that names no revision is not checked. */
export function isStaleRevision(expectedRev: number | undefined, rev: number): boolean {
  return expectedRev !== undefined && expectedRev !== rev;
}

/** A new tab: a held agent session focuses its tab; past the tab limit nothing opens. */
export function createAction(heldByLiveTab: boolean, tabCount: number, tabsMax: number): 'focus' | 'full' | 'insert' {
  if (heldByLiveTab) return 'focus';
  return tabCount >= tabsMax ? 'full' : 'insert';
}

export type ReorderPlan = { t: 'noTab' } | { t: 'badIndex' } | { t: 'unchanged' } | { t: 'reorder'; order: string[] };

/** Moving `tabId` to `toIndex` of the strip `order`: the new order, or why there is none. */
export function reorderPlan(order: readonly string[], tabId: string, toIndex: number): ReorderPlan {
  const from = order.indexOf(tabId);
  if (from < 0) return { t: 'noTab' };
  if (!Number.isInteger(toIndex) || toIndex < 0 || toIndex >= order.length) return { t: 'badIndex' };
  if (from === toIndex) return { t: 'unchanged' };
  const next = order.filter((id) => id !== tabId);
  next.splice(toIndex, 0, tabId);
  return { t: 'reorder', order: next };
}

export function handleTopology(s: CoreState, fx: Effect[], clientId: string, reqId: number, req: TopologyRequest): CoreState {
  const reply = (r: Reply) => ({ t: 'reply', clientId, reqId, reply: r }) as const;
  const writeFailed = [reply({ ok: false, code: 'write-failed' })];
  if (isStaleRevision(req.expectedRev, s.rev)) {
    fx.push(reply({ ok: false, code: 'conflict' }));
    return s;
  }
  const next = s.rev + 1;
  switch (req.op) {
    case 'create': {
      // One agent session, one live tab: opening a held session focuses its tab.
      const held = req.sessionId ? sessionHolder(Object.values(s.tabs), req.sessionId) : null;
      const action = createAction(held !== null, Object.keys(s.tabs).length, s.limits.tabsMax);
      if (action === 'focus') {
        fx.push(reply({ ok: true, tabId: held!.id, focused: true }));
        return s;
      }
      if (action === 'full') {
        fx.push(reply({ ok: false, code: 'tabs-max' }));
        return s;
      }
      const id = tabId(s.serverId, s.nextId);
      const ord = Math.max(-1, ...Object.values(s.tabs).map((t) => t.ord)) + 1;
      s = { ...s, nextId: s.nextId + 1 };
      const spec = req.spec ?? DEFAULT_TAB_SPEC;
      const tab = { id, name: req.name, ord, sessionId: req.sessionId, desired: 'running', lifecycle: 'starting', holder: null, child: null, lastExit: null, controllerRev: 0, spec } as const;
      return commit(s, fx, { t: 'insertTab', tab }, {
        // An opened session is the tab's from the start: recorded before the tab accepts input.
        onOk: [
          reply({ ok: true, tabId: id, rev: next }),
          { t: 'notifyClients', rev: next, change: 'tab', tabId: id },
          ...(req.sessionId ? [{ t: 'putResumeRecord', epoch: s.epoch, tabId: id, sessionId: req.sessionId, origin: 'live' } as const] : []),
        ],
        onFail: writeFailed,
        runtime: { tabId: id, ok: { startOptions: req.start ?? null } },
      });
    }
    case 'close': {
      const tab = s.tabs[req.tabId];
      if (closeOutcome(tab ? { closing: false, ending: false } : null) === 'noop') {
        fx.push(reply({ ok: true, closed: false }));
        return s;
      }
      return closeTab(s, fx, tab.id, [reply({ ok: true, closed: true, rev: next })], writeFailed);
    }
    case 'rename': {
      if (!s.tabs[req.tabId]) {
        fx.push(reply({ ok: false, code: 'no-tab' }));
        return s;
      }
      return commit(s, fx, { t: 'rename', id: req.tabId, name: req.name }, {
        onOk: [reply({ ok: true, rev: next }), { t: 'notifyClients', rev: next, change: 'tab', tabId: req.tabId }],
        onFail: writeFailed,
      });
    }
    case 'reorder': {
      const plan = reorderPlan(orderedIds(s.tabs), req.tabId, req.toIndex);
      if (plan.t === 'noTab' || plan.t === 'badIndex') {
        fx.push(reply({ ok: false, code: plan.t === 'noTab' ? 'no-tab' : 'bad-index' }));
        return s;
      }
      if (plan.t === 'unchanged') {
        fx.push(reply({ ok: true, rev: s.rev }));
        return s;
      }
      return commit(s, fx, { t: 'reorder', order: plan.order }, {
        onOk: [reply({ ok: true, rev: next }), { t: 'notifyClients', rev: next, change: 'tabs', tabId: null }],
        onFail: writeFailed,
      });
    }
  }
}
