// Who may use `a1 web` (src/web/auth.ts, src/web/gate.ts): one-time tokens, idle sessions, revoke,
// and the Host, Origin and cookie checks every request passes.
import { describe, expect, it } from 'vitest';
import { TOKEN_TTL_MS, WebAuth } from '../../src/web/auth.js';
import { cookieValue, hostAllowed, isLoopback, originAllowed, sessionCookie } from '../../src/web/gate.js';
import { SurfaceModel } from '../../src/web/surfaceModel.js';
import { DEFAULT_MODES, type SurfacePatch } from '../../src/surface/types.js';

describe('web sessions', () => {
  it('exchanges a token once, within its lifetime, for a session', () => {
    const auth = new WebAuth(60_000);
    const token = auth.mintToken(0);
    const sid = auth.exchange(token, 1_000);
    expect(sid).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(auth.touch(sid, 2_000)).toBe(true);
    // Used: refused the second time.
    expect(auth.exchange(token, 2_000)).toBeNull();
    expect(auth.exchange('not-a-token', 2_000)).toBeNull();
    const late = auth.mintToken(0);
    expect(auth.exchange(late, TOKEN_TTL_MS)).toBeNull();
  });

  it('ends a session idle with no page open, never one with a page open', () => {
    const auth = new WebAuth(60_000);
    const a = auth.exchange(auth.mintToken(0), 0)!;
    const b = auth.exchange(auth.mintToken(0), 0)!;
    auth.pageOpen(b, true, 0);
    expect(auth.touch(a, 59_999)).toBe(true);
    expect(auth.isLive(a, 59_999 + 60_000)).toBe(false);
    expect(auth.isLive(b, 10 * 60_000)).toBe(true);
    auth.pageOpen(b, false, 10 * 60_000);
    expect(auth.isLive(b, 11 * 60_000)).toBe(false);
    expect(auth.touch(null, 0)).toBe(false);
  });

  it('revoke ends every session and every unused token', () => {
    const auth = new WebAuth();
    const sid = auth.exchange(auth.mintToken(0), 0)!;
    const unused = auth.mintToken(0);
    expect(auth.revokeAll()).toBe(1);
    expect(auth.touch(sid, 1)).toBe(false);
    expect(auth.exchange(unused, 1)).toBeNull();
  });
});

describe('web request checks', () => {
  it('answers a loopback bind only through loopback names on its port', () => {
    expect(hostAllowed('127.0.0.1:8377', '127.0.0.1', 8377)).toBe(true);
    expect(hostAllowed('localhost:8377', '127.0.0.1', 8377)).toBe(true);
    expect(hostAllowed('[::1]:8377', '::1', 8377)).toBe(true);
    // DNS rebinding: an attacker's name that resolves to 127.0.0.1.
    expect(hostAllowed('evil.example:8377', '127.0.0.1', 8377)).toBe(false);
    expect(hostAllowed('127.0.0.1:9999', '127.0.0.1', 8377)).toBe(false);
    expect(hostAllowed(undefined, '127.0.0.1', 8377)).toBe(false);
    expect(hostAllowed('phone.lan:8377', '0.0.0.0', 8377)).toBe(true);
    expect(isLoopback('127.1.2.3')).toBe(true);
    expect(isLoopback('192.168.1.2')).toBe(false);
    expect(isLoopback('0.0.0.0')).toBe(false);
  });

  it("admits a WebSocket only from the page's own origin", () => {
    expect(originAllowed('http://127.0.0.1:8377', '127.0.0.1:8377', false)).toBe(true);
    expect(originAllowed('https://127.0.0.1:8377', '127.0.0.1:8377', false)).toBe(false);
    expect(originAllowed('http://evil.example', '127.0.0.1:8377', false)).toBe(false);
    expect(originAllowed(undefined, '127.0.0.1:8377', false)).toBe(false);
    expect(originAllowed('https://box.lan:8377', 'box.lan:8377', true)).toBe(true);
  });

  it('sets a cookie the page cannot read and other sites cannot send, named for its port', () => {
    expect(sessionCookie(8377, 'abc', false)).toBe('a1web-8377=abc; HttpOnly; SameSite=Strict; Path=/');
    expect(sessionCookie(8377, 'abc', true)).toContain('; Secure');
    expect(cookieValue('x=1; a1web-8377=abc; a1web-9=zz', 'a1web-8377')).toBe('abc');
    expect(cookieValue('a1web-83770=abc', 'a1web-8377')).toBeNull();
    expect(cookieValue(undefined, 'a1web-8377')).toBeNull();
  });
});

describe('the surface a behind page is sent', () => {
  const row = (y: number, s: string) => ({ y, runs: [{ s, fg: -1, bg: -1, fl: 0 }] });
  const patch = (full: boolean, lines: ReturnType<typeof row>[], rows = 3): SurfacePatch => ({
    full,
    cols: 10,
    rows,
    lines,
    cursor: { x: 0, y: 0, visible: true, shape: 'block', blink: false },
    modes: DEFAULT_MODES,
    title: '',
  });

  it('is every row as the patches left it, in order', () => {
    const model = new SurfaceModel();
    expect(model.full()).toBeNull();
    model.apply(patch(true, [row(0, 'a'), row(1, 'b'), row(2, 'c')]));
    model.apply(patch(false, [row(1, 'B')]));
    model.apply(patch(false, [row(2, 'C')]));
    expect(model.full()!.lines.map((l) => l.runs[0].s)).toEqual(['a', 'B', 'C']);
    expect(model.full()!.full).toBe(true);
    // A shorter surface drops the rows below it.
    model.apply(patch(true, [row(0, 'x'), row(1, 'y')], 2));
    expect(model.full()!.lines.map((l) => l.y)).toEqual([0, 1]);
  });
});
