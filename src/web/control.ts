// How `a1 web` talks to the profile's running web process (issue 20): one JSON line each way on a
// Unix socket in the profile's private socket directory, each request carrying the profile's
// client token as the server's own control socket requires. Both sides are here. The lines carry
// no `t` (each side knows what comes next), so a newer `a1 web` still asks an older web process.
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { Logger } from '../log.js';
import type { Paths } from '../paths.js';
import { ProtocolError } from '../protocol/errors.js';
import { readJsonFields } from '../protocol/jsonWire.js';
import { defineSchema, validateFields, type ShapeOf } from '../protocol/schema.js';
import { readClientToken } from '../security.js';

export const WEB_OPS = ['info', 'mint', 'revoke', 'stop'] as const;
export type WebOp = (typeof WEB_OPS)[number];

export const webControlSchema = defineSchema({
  /** `a1 web` → the web process: one of WEB_OPS, with the profile's client token (base64). */
  request: { op: 'string', key: 'string' },
  /** The web process → `a1 web`: ok with its info, or refused (no info). */
  reply: { ok: 'boolean', info: 'object?' },
  /** What the web process says about itself; `url` (with a new one-time token) only for `mint`,
   * `ended` (sessions ended) only for `revoke`; `sessions`: live ones (idle ones already dropped). */
  info: { pid: 'int', port: 'int', bind: 'string', tls: 'boolean', url: 'string?', ended: 'int?', sessions: 'int' },
});

export type WebInfo = ShapeOf<(typeof webControlSchema)['info']>;
type WebRequest = ShapeOf<(typeof webControlSchema)['request'], { op: WebOp }>;
type WebReply = { ok: false } | { ok: true; info: WebInfo };

const ASK_TIMEOUT_MS = 5_000;
/** Far above a reply with a minted URL; a line longer than this is not from a1. */
const LINE_MAX = 64 * 1024;

export function webSocketPath(paths: Paths): string {
  return path.join(paths.socketDir, 'web.sock');
}

/** Asks the running web process; null when none answers (none runs, or a stale socket). */
export function askWeb(paths: Paths, op: WebOp): Promise<WebInfo | null> {
  const key = readClientToken(paths.clientTokenFile);
  if (!key) return Promise.resolve(null);
  return new Promise((resolve) => {
    const conn = net.connect(webSocketPath(paths));
    let buf = '';
    const done = (v: WebInfo | null) => {
      clearTimeout(timer);
      conn.destroy();
      resolve(v);
    };
    const timer = setTimeout(() => done(null), ASK_TIMEOUT_MS);
    conn.on('error', () => done(null));
    const request: WebRequest = { op, key: key.toString('base64') };
    conn.on('connect', () => conn.write(JSON.stringify(request) + '\n'));
    conn.on('data', (chunk) => {
      buf += chunk.toString('utf8');
      const nl = buf.indexOf('\n');
      if (nl < 0) return buf.length > LINE_MAX ? done(null) : undefined;
      // A reply that is not one is no answer, as a refusal is.
      const info = readWebReply(buf.slice(0, nl));
      done(info instanceof ProtocolError ? null : info);
    });
    conn.on('end', () => done(null));
  });
}

/** The web process's side: answers each request whose key is the profile's client token; a
 * request that is not one, or not admitted, is refused and logged by its code. */
export function serveWebControl(paths: Paths, answer: (op: WebOp) => WebInfo | null, log: Logger): Promise<net.Server> {
  const key = readClientToken(paths.clientTokenFile);
  const file = webSocketPath(paths);
  const server = net.createServer((conn) => {
    let buf = '';
    conn.on('error', () => undefined);
    conn.on('data', (chunk) => {
      buf += chunk.toString('utf8');
      const nl = buf.indexOf('\n');
      if (nl < 0) {
        if (buf.length > LINE_MAX) {
          log.warn('control-refused', { code: 'oversize' });
          conn.destroy();
        }
        return;
      }
      const op = readWebRequest(buf.slice(0, nl), key);
      if (op instanceof ProtocolError) log.warn('control-refused', { code: op.code });
      const info = op instanceof ProtocolError ? null : answer(op);
      const reply: WebReply = info ? { ok: true, info } : { ok: false };
      conn.end(JSON.stringify(reply) + '\n');
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(file, () => {
      server.off('error', reject);
      fs.chmodSync(file, 0o600);
      resolve(server);
    });
  });
}

/** A request line as its op, when it is one and carries `key`; else why it is refused (never
 * quoting the line: it carries a token). */
export function readWebRequest(line: string, key: Buffer | null): WebOp | ProtocolError {
  const req = readJsonFields(webControlSchema, 'request', line);
  if (req instanceof ProtocolError) return req;
  const given = Buffer.from(req.key, 'base64');
  if (key === null || given.length !== key.length || !crypto.timingSafeEqual(given, key)) return new ProtocolError('auth', 'The request does not carry the client token.');
  const op = WEB_OPS.find((o) => o === req.op);
  return op ?? new ProtocolError('unknown-type', 'The op is unknown.');
}

/** A reply line as the web process's info, null when it refused, or why it is no reply. */
export function readWebReply(line: string): WebInfo | null | ProtocolError {
  const reply = readJsonFields(webControlSchema, 'reply', line);
  if (reply instanceof ProtocolError) return reply;
  if (!reply.ok) return null;
  return validateFields(webControlSchema, 'info', reply.info);
}
