// How `a1 web` talks to the profile's running web process (issue 20): one JSON line each way on a
// Unix socket in the profile's private socket directory, each request carrying the profile's
// client token as the server's own control socket requires. Both sides are here.
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { Paths } from '../paths.js';
import { readClientToken } from '../security.js';

export type WebOp = 'info' | 'mint' | 'revoke' | 'stop';

/** What the web process says about itself; `url` (with a new one-time token) only for `mint`. */
export interface WebInfo {
  pid: number;
  port: number;
  bind: string;
  tls: boolean;
  url?: string;
  /** Sessions ended, for `revoke`. */
  ended?: number;
  /** Live sessions (idle ones already dropped). */
  sessions: number;
}

const ASK_TIMEOUT_MS = 5_000;
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
    conn.on('connect', () => conn.write(JSON.stringify({ op, key: key.toString('base64') }) + '\n'));
    conn.on('data', (chunk) => {
      buf += chunk.toString('utf8');
      const nl = buf.indexOf('\n');
      if (nl < 0) return buf.length > LINE_MAX ? done(null) : undefined;
      try {
        const reply = JSON.parse(buf.slice(0, nl)) as { ok: boolean; info?: WebInfo };
        done(reply.ok && reply.info ? reply.info : null);
      } catch {
        done(null);
      }
    });
    conn.on('end', () => done(null));
  });
}

/** The web process's side: answers each request whose key is the profile's client token. */
export function serveWebControl(paths: Paths, answer: (op: WebOp) => WebInfo | null): Promise<net.Server> {
  const key = readClientToken(paths.clientTokenFile);
  const file = webSocketPath(paths);
  const server = net.createServer((conn) => {
    let buf = '';
    conn.on('error', () => undefined);
    conn.on('data', (chunk) => {
      buf += chunk.toString('utf8');
      const nl = buf.indexOf('\n');
      if (nl < 0) {
        if (buf.length > LINE_MAX) conn.destroy();
        return;
      }
      let reply: { ok: boolean; info?: WebInfo } = { ok: false };
      try {
        const req = JSON.parse(buf.slice(0, nl)) as { op?: string; key?: string };
        const given = Buffer.from(String(req.key ?? ''), 'base64');
        const admitted = key !== null && given.length === key.length && crypto.timingSafeEqual(given, key);
        const op = req.op as WebOp;
        if (admitted && ['info', 'mint', 'revoke', 'stop'].includes(op)) {
          const info = answer(op);
          if (info) reply = { ok: true, info };
        }
      } catch {
        // Unreadable: refused.
      }
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
