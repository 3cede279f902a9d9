// The strip's order and names: `rename` and `reorder`, each checked against the revision the
// asker saw (a stale one is a conflict). One file: each is a line or two.
import { validateTabName } from '../../tabName.js';
import { expectedRev, type RequestHandler } from './context.js';

export const rename: RequestHandler<'rename'> = {
  take: (_ctx, a) => {
    const verdict = validateTabName(String(a.name ?? ''));
    if (!verdict.ok) return { error: { code: 'invalid-name', message: verdict.reason } };
    return { req: { op: 'rename', tabId: String(a.tabId), name: verdict.name, expectedRev: expectedRev(a) }, name: verdict.name };
  },
  // The validated name, kept by take().
  answer: (_ctx, open, r) => ({ name: open.name ?? '', rev: r.rev }),
};

export const reorder: RequestHandler<'reorder'> = {
  take: (_ctx, a) => ({ req: { op: 'reorder', tabId: String(a.tabId), toIndex: Number(a.toIndex), expectedRev: expectedRev(a) } }),
  answer: (_ctx, _open, r) => ({ rev: r.rev }),
};
