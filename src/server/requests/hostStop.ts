// `a1 tabs host stop`: every tab's processes end, the tab set stays for the next start; answered
// once every one of those processes has ended, then the server exits.
import type { RequestHandler } from './context.js';

export const hostStop: RequestHandler<'hostStop'> = {
  take: () => ({ req: { op: 'hostStop' } }),
  answer: (ctx, _open, r) => ctx.hostStopped().then(() => ({ stopped: r.stopped })),
};
