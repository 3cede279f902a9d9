// `view`: the tab becomes the last viewed, and once the core has a verified holder for it the
// asker gets a ticket for that holder (SPEC §15).
import { deriveKey, makeTicket, ticketProofKey, TICKET_TTL_MS } from '../../security.js';
import type { RequestHandler } from './context.js';

export const view: RequestHandler<'view'> = {
  take: (ctx, a) => {
    const tabId = String(a.tabId);
    if (ctx.state().tabs[tabId] && a.peek !== true) ctx.registry.setMeta('last_viewed_tab', tabId);
    return { req: { op: 'view', tabId } };
  },
  answer: (ctx, open, r) => {
    const tabId = String(open.args.tabId);
    // The core answers a view with the holder it verified (core/controller.ts), so `holderInc`
    // is there; a ticket for no incarnation would be refused by every holder.
    const inc = r.holderInc ?? '';
    const ticketKey = deriveKey(ctx.secret, 'ticket', tabId, inc);
    const ticket = makeTicket(ticketKey, { clientId: open.asker.id || (open.asker.coreId ?? ''), tabId, holderInc: inc, expiresAt: Date.now() + TICKET_TTL_MS });
    return { ticket, proofKey: ticketProofKey(ticketKey, ticket).toString('base64'), socketPath: ctx.paths.holderSock(tabId, inc), holderInc: inc, controller: r.controller === true };
  },
};
