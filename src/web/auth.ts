// Who may use `a1 web` (issue 20): one-time tokens, printed by `a1 web`, each exchanged once for a
// session; a session lives while a page of it is open and for `idleMs` after the last one closed
// or asked for anything. Only digests are kept, so a memory dump does not hold a usable secret;
// nothing here is ever logged or written to disk. Pure but for the random bytes; the clock is given.
import crypto from 'node:crypto';

/** An unused token is refused after this: the link is meant to be opened now. */
export const TOKEN_TTL_MS = 10 * 60_000;
/** A session with no page open and no request for this long ends (`a1 web --idle-minutes`). */
export const DEFAULT_IDLE_MS = 30 * 60_000;
const SECRET_BYTES = 32;

interface Session {
  lastSeenAt: number;
  /** Pages of this session with an open socket: the session is not idle while any is. */
  openPages: number;
}

function digest(secret: string): string {
  return crypto.createHash('sha256').update(secret).digest('base64url');
}

export function newSecret(): string {
  return crypto.randomBytes(SECRET_BYTES).toString('base64url');
}

export class WebAuth {
  /** Token digest → when it stops being accepted. */
  private readonly tokens = new Map<string, number>();
  /** Session id digest → its session. */
  private readonly sessions = new Map<string, Session>();

  constructor(readonly idleMs: number = DEFAULT_IDLE_MS) {}

  /** A new one-time token (the caller prints it once; only its digest stays here). */
  mintToken(now: number): string {
    const token = newSecret();
    this.tokens.set(digest(token), now + TOKEN_TTL_MS);
    return token;
  }

  /** Spends `token`: a new session id, or null for a token that is wrong, used or expired. */
  exchange(token: string, now: number): string | null {
    this.sweep(now);
    const key = digest(token);
    const until = this.tokens.get(key);
    if (until === undefined) return null;
    this.tokens.delete(key);
    if (now >= until) return null;
    const sid = newSecret();
    this.sessions.set(digest(sid), { lastSeenAt: now, openPages: 0 });
    return sid;
  }

  /** Whether `sid` names a live session; a live one counts as seen now. */
  touch(sid: string | null | undefined, now: number): boolean {
    if (!sid) return false;
    this.sweep(now);
    const session = this.sessions.get(digest(sid));
    if (!session) return false;
    session.lastSeenAt = now;
    return true;
  }

  /** A page of `sid` opened (true) or closed (false) its socket. */
  pageOpen(sid: string, open: boolean, now: number): void {
    const session = this.sessions.get(digest(sid));
    if (!session) return;
    session.openPages = Math.max(0, session.openPages + (open ? 1 : -1));
    session.lastSeenAt = now;
  }

  isLive(sid: string, now: number): boolean {
    this.sweep(now);
    return this.sessions.has(digest(sid));
  }

  /** `a1 web --revoke`: every session and every unused token ends. Returns how many sessions. */
  revokeAll(): number {
    const n = this.sessions.size;
    this.sessions.clear();
    this.tokens.clear();
    return n;
  }

  get sessionCount(): number {
    return this.sessions.size;
  }

  /** Drops expired tokens and idle sessions (a session with an open page is never idle). */
  sweep(now: number): void {
    for (const [key, until] of this.tokens) if (now >= until) this.tokens.delete(key);
    for (const [key, s] of this.sessions) if (s.openPages === 0 && now - s.lastSeenAt >= this.idleMs) this.sessions.delete(key);
  }
}
