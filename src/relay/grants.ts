// The remote entry's view grants (issue 30): a view's reply carries a holder's ticket, proof key
// and socket path, which must never leave the machine. The entry keeps them and hands the other
// machine an opaque handle instead; the handle opens one data channel, once, before the ticket
// expires, and dies with the link (the table is the link's).
import { randomBytes } from 'node:crypto';
import type { ViewGrant } from '../protocol/requests.js';

/** What the other machine gets in place of a ViewGrant. */
export type RemoteViewGrant = Omit<ViewGrant, 'ticket' | 'proofKey' | 'socketPath'> & { grant: string };

/** What a handle stands for, kept on this machine. */
export type HeldGrant = Pick<ViewGrant, 'ticket' | 'proofKey' | 'socketPath'>;

/** 128 bits: a handle cannot be guessed, and names nothing on this machine. */
const newHandle = (): string => randomBytes(16).toString('base64url');

export class GrantTable {
  readonly #held = new Map<string, HeldGrant>();

  constructor(private readonly handle: () => string = newHandle) {}

  /** Keeps `grant`'s credentials here; returns the reply to pass on. */
  issue(grant: ViewGrant, now: number): RemoteViewGrant {
    this.#dropExpired(now);
    const { ticket, proofKey, socketPath, ...rest } = grant;
    const handle = this.handle();
    this.#held.set(handle, { ticket, proofKey, socketPath });
    return { ...rest, grant: handle };
  }

  /** The credentials of `handle`, once: null for an unknown, used or expired handle. */
  take(handle: string, now: number): HeldGrant | null {
    const held = this.#held.get(handle);
    this.#held.delete(handle);
    if (held === undefined || held.ticket.expiresAt <= now) return null;
    return held;
  }

  get size(): number {
    return this.#held.size;
  }

  /** The link ended: no handle outlives it. */
  clear(): void {
    this.#held.clear();
  }

  #dropExpired(now: number): void {
    for (const [handle, held] of this.#held) if (held.ticket.expiresAt <= now) this.#held.delete(handle);
  }
}
