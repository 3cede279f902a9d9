// `a1 web` beyond this machine (issue 20): a non-loopback bind serves only over TLS, with the
// user's certificate and key; its session cookie is Secure, and its WebSocket takes only the
// page's own https origin.
import { execFileSync } from 'node:child_process';
import https from 'node:https';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { e2e, type E2E } from './harness.js';
import { startWeb, stopWebProcess, type WebStart } from '../helpers/browser.js';

function get(port: number, pathname: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    // The certificate is the test's own, self-signed: the request trusts it, not the system's roots.
    const req = https.get({ host: '127.0.0.1', port, path: pathname, rejectUnauthorized: false, headers: { Host: `localhost:${port}`, ...headers } }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
  });
}

function openSocket(port: number, cookie: string, origin: string): Promise<{ opened: boolean; status?: number; first?: string }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`wss://127.0.0.1:${port}/ws`, { rejectUnauthorized: false, headers: { Host: `localhost:${port}`, Cookie: cookie, Origin: origin } });
    ws.once('message', (data) => {
      ws.terminate();
      resolve({ opened: true, first: String(data) });
    });
    ws.once('unexpected-response', (_req, res) => {
      ws.terminate();
      resolve({ opened: false, status: res.statusCode });
    });
    ws.once('error', () => resolve({ opened: false }));
  });
}

describe('a1 web over TLS', () => {
  let t: E2E;
  let web: WebStart | null = null;
  beforeEach(() => {
    t = e2e();
  });
  afterEach(async () => {
    if (web) stopWebProcess(web);
    web = null;
    await t.teardown();
  });

  it('serves a non-loopback bind over https with a Secure cookie, and its socket only to the https page', async () => {
    const cert = path.join(t.home.dir, 'cert.pem');
    const key = path.join(t.home.dir, 'key.pem');
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=localhost'], { stdio: 'ignore' });
    web = await startWeb(t.run, '--bind', '0.0.0.0', '--cert', cert, '--key', key);
    expect(web).toMatchObject({ tls: true, bind: '0.0.0.0' });
    expect(web.url.startsWith('https://')).toBe(true);
    const { port, token } = web;
    expect((await get(port, '/')).status).toBe(401);
    const exchanged = await get(port, `/?token=${token}`);
    expect(exchanged.status).toBe(303);
    const setCookie = String(exchanged.headers['set-cookie']);
    expect(setCookie).toMatch(/HttpOnly; SameSite=Strict; Path=\/; Secure/);
    const cookie = setCookie.split(';')[0];
    const page = await get(port, '/', { Cookie: cookie });
    expect(page.status).toBe(200);
    expect(page.body).toContain('app.js');
    expect(await openSocket(port, cookie, `http://localhost:${port}`)).toMatchObject({ opened: false, status: 401 });
    const ok = await openSocket(port, cookie, `https://localhost:${port}`);
    expect(ok.opened).toBe(true);
    expect(JSON.parse(ok.first!)).toMatchObject({ t: 'hello' });
  });

  it('refuses a certificate without its key, and a key file it cannot read, in one sentence', async () => {
    const bad = await t.run('web', '--bind', '0.0.0.0', '--cert', path.join(t.home.dir, 'nope.pem'));
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/both --cert and --key/);
    const missing = await t.run('web', '--bind', '0.0.0.0', '--cert', path.join(t.home.dir, 'nope.pem'), '--key', path.join(t.home.dir, 'nope.key'));
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toMatch(/--cert ".*nope.pem" is not a readable file/);
  });
});
