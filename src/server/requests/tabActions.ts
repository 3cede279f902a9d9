// A running tab's user actions: `sleep` (checkpoint and stop, SPEC §9), `restart` (r/f, /restart)
// and `claim` (control of the holder, SPEC §15). One file: each is a line or two.
import { NOT_RESUMABLE } from '../answers.js';
import type { RequestHandler } from './context.js';

export const sleep: RequestHandler<'sleep'> = {
  take: (ctx, a) => {
    const tab = ctx.state().tabs[String(a.tabId)];
    if (tab && !ctx.agents.spec(tab.spec.kind)?.resume && tab.lifecycle !== 'asleep') return NOT_RESUMABLE;
    return { req: { op: 'sleep', tabId: String(a.tabId) } };
  },
  answer: () => ({ asleep: true }),
};

export const restart: RequestHandler<'restart'> = {
  take: (_ctx, a) => ({ req: { op: 'restart', tabId: String(a.tabId), fresh: a.fresh === true, force: a.force === true } }),
  answer: (_ctx, _open, r) => ({ restarted: r.restarted === true }),
};

export const claim: RequestHandler<'claim'> = {
  take: (_ctx, a) => ({ req: { op: 'claim', tabId: String(a.tabId), force: a.force === true } }),
  answer: (_ctx, _open, r) => ({ controller: r.controller === true }),
};
