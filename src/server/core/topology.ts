// Client mutations of the tab set (SPEC §6, §9): each carries the revision its sender saw, commits
// whole at the next revision or is refused with a typed conflict, and is answered only after its
// commit.
import { commit } from './commits.js';
import { closeOutcome, sessionHolder } from './guards.js';
import { orderedIds } from './mutations.js';
import type { CoreState, Effect, Reply, Request } from './types.js';

type TopologyRequest = Extract<Request, { op: 'create' | 'close' | 'rename' | 'reorder' }>;

export function handleTopology(s: CoreState, fx: Effect[], clientId: string, reqId: number, req: TopologyRequest): CoreState {
  const reply = (r: Reply) => ({ t: 'reply', clientId, reqId, reply: r }) as const;
  const writeFailed = [reply({ ok: false, code: 'write-failed' })];
  if (req.expectedRev !== undefined && req.expectedRev !== s.rev) {
    fx.push(reply({ ok: false, code: 'conflict' }));
    return s;
  }
  const next = s.rev + 1;
  switch (req.op) {
    case 'create': {
      // One agent session, one live tab: opening a held session focuses its tab.
      const held = req.sessionId ? sessionHolder(Object.values(s.tabs), req.sessionId) : null;
      if (held) {
        fx.push(reply({ ok: true, tabId: held.id, focused: true }));
        return s;
      }
      const id = `tab-${s.serverId}-${s.nextId}`;
      const ord = Math.max(-1, ...Object.values(s.tabs).map((t) => t.ord)) + 1;
      s = { ...s, nextId: s.nextId + 1 };
      const tab = { id, name: req.name, ord, sessionId: req.sessionId, desired: 'running', lifecycle: 'starting', holder: null, controllerRev: 0 } as const;
      return commit(s, fx, { t: 'insertTab', tab }, {
        onOk: [reply({ ok: true, tabId: id, rev: next }), { t: 'notifyClients', rev: next, change: 'tab', tabId: id }],
        onFail: writeFailed,
      });
    }
    case 'close': {
      const tab = s.tabs[req.tabId];
      if (closeOutcome(tab ? { closing: false, ending: false } : null) === 'noop') {
        fx.push(reply({ ok: true, closed: false }));
        return s;
      }
      // The bound holder is ended after the commit; a spawn still in flight is killed when it
      // completes, since its tab is gone by then.
      const { holder } = tab;
      const kill: Effect[] = holder?.pid && holder.startTime ? [{ t: 'kill', epoch: s.epoch, tabId: tab.id, pid: holder.pid, startTime: holder.startTime }] : [];
      return commit(s, fx, { t: 'retireTab', id: tab.id }, {
        onOk: [reply({ ok: true, closed: true, rev: next }), { t: 'notifyClients', rev: next, change: 'tabRemoved', tabId: tab.id }, ...kill],
        onFail: writeFailed,
      });
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
      const order = orderedIds(s.tabs);
      const from = order.indexOf(req.tabId);
      if (from < 0) {
        fx.push(reply({ ok: false, code: 'no-tab' }));
        return s;
      }
      if (!Number.isInteger(req.toIndex) || req.toIndex < 0 || req.toIndex >= order.length) {
        fx.push(reply({ ok: false, code: 'bad-index' }));
        return s;
      }
      if (from === req.toIndex) {
        fx.push(reply({ ok: true, rev: s.rev }));
        return s;
      }
      order.splice(from, 1);
      order.splice(req.toIndex, 0, req.tabId);
      return commit(s, fx, { t: 'reorder', order }, {
        onOk: [reply({ ok: true, rev: next }), { t: 'notifyClients', rev: next, change: 'tabs', tabId: null }],
        onFail: writeFailed,
      });
    }
  }
}
