// `close` (Alt+W, `a1 tabs stop`): with `wait`, answered once the tab's processes have ended,
// naming those that outlived their SIGKILL.
import { unendedNotice } from '../answers.js';
import { expectedRev, type RequestHandler } from './context.js';

export const close: RequestHandler<'close'> = {
  // The name is kept for the answer: once closed, the tab is gone from the core.
  take: (ctx, a) => ({ req: { op: 'close', tabId: String(a.tabId), expectedRev: expectedRev(a) }, name: ctx.state().tabs[String(a.tabId)]?.name }),
  answer: (ctx, open, r) => {
    const tabId = String(open.args.tabId);
    const ending = open.args.wait === true && r.closed ? ctx.closeEnding(tabId) : undefined;
    if (!ending) return { closed: r.closed === true };
    const name = open.name ?? tabId;
    return ending.then((unended) => ({ closed: true, ...(unended.length > 0 ? { incomplete: { pids: unended.map((p) => p.pid), message: unendedNotice(name, unended) } } : {}) }));
  },
};
