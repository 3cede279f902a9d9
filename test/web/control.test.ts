// The web control socket (src/web/control.ts): `a1 web`'s request and the web process's reply are
// declared once; the web process refuses a request that is not one (logged by its code), and
// `a1 web` takes a reply that is not one for no answer. In process, on a real Unix socket.
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { askWeb, readWebReply, readWebRequest, serveWebControl, webSocketPath, WEB_OPS, type WebInfo, type WebOp } from '../../src/web/control.js';
import { ProtocolError } from '../../src/protocol/errors.js';
import { ensureProfileDirs, resolvePaths } from '../../src/paths.js';
import { loadOrCreateClientToken, readClientToken } from '../../src/security.js';
import type { Logger, LogFields } from '../../src/log.js';
import { makeHome, type TestHome } from '../helpers/home.js';

const KEY = Buffer.alloc(32, 7);
const INFO: WebInfo = { pid: 1, port: 8377, bind: '127.0.0.1', tls: false, sessions: 0 };

function request(fields: object): string {
  return JSON.stringify(fields);
}

function codeOf(result: unknown): string | null {
  return result instanceof ProtocolError ? result.code : null;
}

describe('a request to the web process', () => {
  it('is admitted for every op with the client token', () => {
    for (const op of WEB_OPS) expect(readWebRequest(request({ op, key: KEY.toString('base64') }), KEY)).toBe(op);
  });

  it('is refused without the token, with a missing or mistyped field, with an unknown op, or unreadable', () => {
    const key = KEY.toString('base64');
    expect(codeOf(readWebRequest(request({ op: 'info', key: Buffer.alloc(32, 8).toString('base64') }), KEY))).toBe('auth');
    expect(codeOf(readWebRequest(request({ op: 'info', key }), null))).toBe('auth');
    expect(codeOf(readWebRequest(request({ op: 'info' }), KEY))).toBe('bad-field');
    expect(codeOf(readWebRequest(request({ key }), KEY))).toBe('bad-field');
    expect(codeOf(readWebRequest(request({ op: 1, key }), KEY))).toBe('bad-field');
    expect(codeOf(readWebRequest(request({ op: 'shutdown', key }), KEY))).toBe('unknown-type');
    expect(codeOf(readWebRequest(request({ op: 'toString', key }), KEY))).toBe('unknown-type');
    expect(codeOf(readWebRequest('info', KEY))).toBe('malformed');
    expect(codeOf(readWebRequest('["info"]', KEY))).toBe('not-object');
  });

  it('is refused without quoting the token', () => {
    const refused = readWebRequest(request({ op: 5, key: 'c2VjcmV0' }), KEY) as ProtocolError;
    expect(refused.message).not.toContain('c2VjcmV0');
  });
});

describe("the web process's reply", () => {
  it('reads every reply it sends: info, a minted url, a revoke count, a refusal', () => {
    expect(readWebReply(JSON.stringify({ ok: true, info: INFO }))).toEqual(INFO);
    const minted = { ...INFO, url: 'http://127.0.0.1:8377/?token=abc' };
    expect(readWebReply(JSON.stringify({ ok: true, info: minted }))).toEqual(minted);
    expect(readWebReply(JSON.stringify({ ok: true, info: { ...INFO, ended: 2 } }))).toEqual({ ...INFO, ended: 2 });
    expect(readWebReply(JSON.stringify({ ok: false }))).toBeNull();
  });

  it('refuses info without its fields, a wrong type, a missing ok, and what is not an object', () => {
    const { port: _port, ...noPort } = INFO;
    expect(codeOf(readWebReply(JSON.stringify({ ok: true })))).toBe('not-object');
    expect(codeOf(readWebReply(JSON.stringify({ ok: true, info: noPort })))).toBe('bad-field');
    expect(codeOf(readWebReply(JSON.stringify({ ok: true, info: { ...INFO, tls: 'no' } })))).toBe('bad-field');
    expect(codeOf(readWebReply(JSON.stringify({ ok: true, info: { ...INFO, url: 5 } })))).toBe('bad-field');
    expect(codeOf(readWebReply(JSON.stringify({ info: INFO })))).toBe('bad-field');
    expect(codeOf(readWebReply('{'))).toBe('malformed');
  });
});

describe('the control socket, both sides', () => {
  let home: TestHome | null = null;
  let server: net.Server | null = null;
  afterEach(async () => {
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    server = null;
    home?.cleanup();
    home = null;
  });

  async function serve(): Promise<{ paths: ReturnType<typeof resolvePaths>; asked: WebOp[]; refused: (LogFields | undefined)[] }> {
    home = makeHome();
    const paths = resolvePaths({ env: home.env, profile: 'default' });
    ensureProfileDirs(paths);
    loadOrCreateClientToken(paths.clientTokenFile);
    const asked: WebOp[] = [];
    const refused: (LogFields | undefined)[] = [];
    const log: Logger = { info: () => undefined, warn: (event, fields) => void (event === 'control-refused' && refused.push(fields)), error: () => undefined };
    server = await serveWebControl(paths, (op) => (asked.push(op), { ...INFO, pid: process.pid }), log);
    return { paths, asked, refused };
  }

  function send(file: string, text: string): Promise<string> {
    return new Promise((resolve) => {
      const conn = net.connect(file);
      let got = '';
      conn.on('data', (c) => (got += c.toString('utf8')));
      conn.on('error', () => resolve(got));
      conn.on('close', () => resolve(got));
      conn.on('connect', () => conn.write(text));
    });
  }

  it('answers a1 web, and refuses a stranger, an unknown op and an oversized line, logging only the code', async () => {
    const { paths, asked, refused } = await serve();
    expect(await askWeb(paths, 'info')).toEqual({ ...INFO, pid: process.pid });
    const file = webSocketPath(paths);
    expect(JSON.parse(await send(file, request({ op: 'info', key: Buffer.alloc(32).toString('base64') }) + '\n'))).toEqual({ ok: false });
    const key = readClientToken(paths.clientTokenFile);
    expect(JSON.parse(await send(file, request({ op: 'stop-all', key: key?.toString('base64') }) + '\n'))).toEqual({ ok: false });
    expect(await send(file, 'x'.repeat(70 * 1024))).toBe('');
    expect(asked).toEqual(['info']);
    expect(refused).toEqual([{ code: 'auth' }, { code: 'unknown-type' }, { code: 'oversize' }]);
  });
});
