// The checks every request to `a1 web` passes (issue 20), pure: which Host names this server
// answers to (a page reached through another name is a DNS-rebinding attempt), which Origin may
// open the page's WebSocket (only the page's own), and the session cookie.
import net from 'node:net';

/** The session cookie's name: per port, since browsers scope cookies by host, not port, and two
 * profiles' `a1 web` on one host must not overwrite each other's session. */
export function sessionCookieName(port: number): string {
  return `a1web-${port}`;
}

/** Whether `addr` (an address or a name) only reaches this machine. */
export function isLoopback(addr: string): boolean {
  const a = addr.replace(/^\[|\]$/g, '').toLowerCase();
  if (a === 'localhost' || a === '::1') return true;
  if (net.isIPv4(a)) return a.startsWith('127.');
  return a.startsWith('::ffff:127.');
}

/** The Host header values a page may use: for a loopback bind, the loopback names with this port;
 * for another bind, any host (its TLS certificate names the host the user reaches it by). */
export function hostAllowed(host: string | undefined, bind: string, port: number): boolean {
  if (!host) return false;
  if (!isLoopback(bind)) return true;
  const m = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(host);
  if (!m || Number(m[2]) !== port) return false;
  return isLoopback(m[1]);
}

/** The page's WebSocket comes from the page itself: its Origin is this server's scheme and the
 * Host the request names (checked by hostAllowed), nothing else. */
export function originAllowed(origin: string | undefined, host: string | undefined, tls: boolean): boolean {
  if (!origin || !host) return false;
  return origin.toLowerCase() === `${tls ? 'https' : 'http'}://${host.toLowerCase()}`;
}

/** One cookie's value from a Cookie header, or null. */
export function cookieValue(header: string | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

/** The Set-Cookie header for a new session: the page's script can never read it (HttpOnly), and
 * no other site's page can send it (SameSite=Strict). */
export function sessionCookie(port: number, sid: string, tls: boolean): string {
  return `${sessionCookieName(port)}=${sid}; HttpOnly; SameSite=Strict; Path=/${tls ? '; Secure' : ''}`;
}
