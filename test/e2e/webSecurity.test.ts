// `a1 web`'s doors (issue 20, "Security and limits"), with plain HTTP and a `ws` client: without a
// valid session anything gets 401 and an empty body; a token is good once; a WebSocket needs the
// session cookie and the page's own Origin; `a1 web --revoke` ends every session, unused token
// and open socket (4401); neither a token nor a session id is ever written under A1_HOME; a
// non-loopback bind needs TLS.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { describe, it, expect, afterEach } from 'vitest';
import WebSocket from 'ws';
import { e2e, livePids, type E2E } from './harness.js';
import { startWeb, stopWebProcess, type WebStart } from '../helpers/browser.js';
import { waitFor } from '../helpers/wait.js';
import { isAlive } from '../helpers/procs.js';
import { WS_CLOSE, WS_PATH } from '../../src/web/protocol.js';
import { sessionCookieName } from '../../src/web/gate.js';

let t: E2E | undefined;
const webs: WebStart[] = [];
const sockets: WebSocket[] = [];
afterEach(async () => {
  for (const ws of sockets.splice(0)) ws.terminate();
  for (const w of webs.splice(0)) stopWebProcess(w);
  await t?.teardown();
  t = undefined;
});

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function get(port: number, pathname: string, headers: Record<string, string> = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path: pathname, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

/** A refusal as the contract has it: 401, nothing in the body, no session handed out. */
function expectRefused(r: Reply, what: string): void {
  expect(r.status, what).toBe(401);
  expect(r.body, `${what}: the body`).toBe('');
  expect(r.headers['set-cookie'], `${what}: no cookie`).toBeUndefined();
}

/** The `a1web-PORT=SID` pair of a reply's Set-Cookie, after checking its attributes. */
function sessionCookie(r: Reply, port: number): string {
  const set = r.headers['set-cookie'] ?? [];
  expect(set).toHaveLength(1);
  const [pair, ...attrs] = set[0].split(';').map((s) => s.trim());
  expect(pair.startsWith(`${sessionCookieName(port)}=`), set[0]).toBe(true);
  expect(pair.length).toBeGreaterThan(sessionCookieName(port).length + 1);
  const lower = attrs.map((a) => a.toLowerCase());
  expect(lower).toContain('httponly');
  expect(lower).toContain('samesite=strict');
  expect(lower).toContain('path=/');
  return pair;
}

/** Exchanges the one-time token for a session; returns the cookie pair. */
async function exchange(w: WebStart): Promise<string> {
  const r = await get(w.port, `/?token=${encodeURIComponent(w.token)}`);
  expect(r.status).toBe(303);
  expect(r.headers.location).toBe('/');
  return sessionCookie(r, w.port);
}

type Upgrade = { opened: WebSocket; messages: unknown[] } | { refused: number; body: string };

/** Opens /ws with these headers; resolves once it is open (collecting what it receives) or refused. */
function upgrade(port: number, opts: { cookie?: string; origin?: string }): Promise<Upgrade> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}${WS_PATH}`, {
      headers: opts.cookie === undefined ? {} : { Cookie: opts.cookie },
      ...(opts.origin === undefined ? {} : { origin: opts.origin }),
    });
    sockets.push(ws);
    const messages: unknown[] = [];
    ws.on('message', (data) => messages.push(JSON.parse(String(data))));
    ws.on('open', () => resolve({ opened: ws, messages }));
    ws.on('unexpected-response', (req, res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        req.destroy();
        resolve({ refused: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') });
      });
    });
    ws.on('error', reject);
  });
}

async function expectUpgradeRefused(port: number, opts: { cookie?: string; origin?: string }, what: string): Promise<void> {
  const r = await upgrade(port, opts);
  if ('opened' in r) throw new Error(`${what}: the WebSocket opened (received ${JSON.stringify(r.messages)})`);
  expect([401, 403], `${what}: status`).toContain(r.refused);
  expect(r.body, `${what}: the body`).toBe('');
}

/** Every regular file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((d) => d.isFile())
    .map((d) => path.join(d.parentPath, d.name));
}

/** The files under A1_HOME that hold `secret` anywhere in their bytes. */
function filesHolding(home: string, secret: string): string[] {
  const needle = Buffer.from(secret, 'utf8');
  return filesUnder(home).filter((f) => {
    try {
      return fs.readFileSync(f).includes(needle);
    } catch {
      return false; // removed meanwhile
    }
  });
}

/** `a1 new --name NAME`; returns the new tab's id. */
async function newTab(e: E2E, name: string): Promise<string> {
  const r = await e.run('new', '--name', name);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout.trim();
}

describe('a1 web security', () => {
  it('prints a one-time URL; without a valid session everything is 401 with an empty body', async () => {
    t = e2e();
    await newTab(t, 'sh');
    const human = await t.run('web', '--port', '0');
    expect(human.code, human.stderr).toBe(0);
    const printed = /a1 web: open (http:\/\/127\.0\.0\.1:(\d+)\/\?token=(\S+))/.exec(human.stdout);
    expect(printed, human.stdout).not.toBeNull();
    expect(human.stdout).toMatch(/\bonce\b/i);
    expect(human.stdout).toMatch(/--revoke/);
    const w = await startWeb(t.run);
    webs.push(w);
    expect(w.port).toBe(Number(printed![2]));
    expect(w.token).not.toBe(printed![3]);

    for (const p of ['/', '/app.js', '/app.css', '/xterm.css', WS_PATH, '/index.html', '/nothing-here']) {
      expectRefused(await get(w.port, p), `GET ${p} without a session`);
    }
    await expectUpgradeRefused(w.port, { origin: `http://127.0.0.1:${w.port}` }, 'a WebSocket without a session');
    expectRefused(await get(w.port, '/?token=wrong'), 'a wrong token');
    expectRefused(await get(w.port, `/?token=${w.token}x`), 'the token with a character more');
    expectRefused(await get(w.port, '/', { Cookie: `${sessionCookieName(w.port)}=made-up` }), 'a made-up session');

    // The token, once: a session cookie; the same token again: 401 (both printed tokens are good once).
    const cookie = await exchange(w);
    expectRefused(await get(w.port, `/?token=${w.token}`), 'a token used twice');
    const first = await get(w.port, `/?token=${printed![3]}`);
    expect(first.status).toBe(303);
    expectRefused(await get(w.port, `/?token=${printed![3]}`), 'the printed token used twice');

    // With the session: the page and its assets, all from a1 itself.
    const page = await get(w.port, '/', { Cookie: cookie });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).not.toMatch(/<script[^>]+src="https?:/);
    expect(page.body).not.toMatch(/<link[^>]+href="https?:/);
    for (const asset of ['/app.js', '/app.css', '/xterm.css']) {
      const r = await get(w.port, asset, { Cookie: cookie });
      expect(r.status, asset).toBe(200);
      expect(r.body.length, asset).toBeGreaterThan(0);
    }
  });

  it("a WebSocket needs the session cookie and the page's own Origin", async () => {
    t = e2e();
    await newTab(t, 'sh');
    const w = await startWeb(t.run);
    webs.push(w);
    const cookie = await exchange(w);
    const own = `http://127.0.0.1:${w.port}`;
    await expectUpgradeRefused(w.port, { cookie, origin: 'http://evil.example' }, 'a foreign Origin');
    await expectUpgradeRefused(w.port, { cookie, origin: `http://localhost:${w.port}` }, 'another name for the host as Origin');
    await expectUpgradeRefused(w.port, { cookie, origin: `http://127.0.0.1:${w.port + 1}` }, 'another port as Origin');
    await expectUpgradeRefused(w.port, { cookie }, 'no Origin');
    await expectUpgradeRefused(w.port, { origin: own }, 'the right Origin without the cookie');
    const ok = await upgrade(w.port, { cookie, origin: own });
    if (!('opened' in ok)) throw new Error(`the page's own WebSocket was refused with ${ok.refused}`);
    const hello = await waitFor(() => ok.messages[0] as { t: string; clientId?: string } | undefined, { what: 'the first frame' });
    expect(hello.t).toBe('hello');
    expect(typeof hello.clientId).toBe('string');
  });

  it('--revoke ends every session, unused token and open socket (4401); --stop; no token or session id is ever on disk', async () => {
    t = e2e();
    const sh = await newTab(t, 'sh');
    const w = await startWeb(t.run);
    webs.push(w);
    const cookie = await exchange(w);
    const own = `http://127.0.0.1:${w.port}`;
    const ok = await upgrade(w.port, { cookie, origin: own });
    if (!('opened' in ok)) throw new Error(`the page's own WebSocket was refused with ${ok.refused}`);
    await waitFor(() => ok.messages.length > 0, { what: 'the socket in use' });
    let closedWith: number | null = null;
    ok.opened.on('close', (code) => {
      closedWith = code;
    });
    const unused = await startWeb(t.run);
    expect(unused.pid).toBe(w.pid);

    const revoked = await t.run('web', '--revoke');
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(await waitFor(() => closedWith, { what: 'the open socket closed' })).toBe(WS_CLOSE.sessionEnded);
    expectRefused(await get(w.port, '/', { Cookie: cookie }), 'a revoked session');
    expectRefused(await get(w.port, '/app.js', { Cookie: cookie }), 'an asset with a revoked session');
    await expectUpgradeRefused(w.port, { cookie, origin: own }, 'a WebSocket with a revoked session');
    expectRefused(await get(w.port, `/?token=${unused.token}`), 'a token minted before --revoke');

    // A new token still works after a revoke: the web process serves on.
    const fresh = await startWeb(t.run);
    const freshCookie = await exchange(fresh);
    expect((await get(fresh.port, '/', { Cookie: freshCookie })).status).toBe(200);

    // Stopped, so that nothing it would write is still in its buffers.
    const stopped = await t.run('web', '--stop');
    expect(stopped.code, stopped.stderr).toBe(0);
    await waitFor(() => !isAlive(w.pid), { what: 'the web process gone after a1 web --stop' });
    // The search reads every file, the registry included: it finds the tab's id there.
    expect(filesHolding(t.home.dir, sh).length).toBeGreaterThan(0);
    const sid = (c: string) => c.slice(c.indexOf('=') + 1);
    for (const [what, secret] of [
      ['the first token', w.token],
      ['an unused token', unused.token],
      ['a fresh token', fresh.token],
      ['a revoked session id', sid(cookie)],
      ['a live session id', sid(freshCookie)],
    ] as const) {
      expect(filesHolding(t.home.dir, secret), `${what} written under A1_HOME`).toEqual([]);
    }
  });

  it('a non-loopback --bind without --cert and --key is refused in one sentence about TLS, and nothing serves', async () => {
    t = e2e();
    await newTab(t, 'sh');
    const r = await t.run('web', '--port', '0', '--bind', '0.0.0.0');
    expect(r.code, r.stderr).not.toBe(0);
    expect(r.stderr).toMatch(/TLS/);
    expect(r.stderr).toMatch(/--cert/);
    expect(r.stderr).toMatch(/--key/);
    expect(r.stdout).not.toMatch(/token=/);
    const webRole = livePids(t).filter((pid) => {
      try {
        return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes('__web');
      } catch {
        return false;
      }
    });
    expect(webRole, 'a web process left running').toEqual([]);
  });
});
