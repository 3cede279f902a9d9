// The HTTP and WebSocket front of `a1 web` (issue 20): the one-time token becomes a session
// cookie, the page's few files are served to a session only, and the page's WebSocket is admitted
// only with the session and the page's own Origin. Everything refused gets 401 with no body: a
// wrong guess learns nothing, not even whether the path exists.
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { WebAuth } from './auth.js';
import { cookieValue, hostAllowed, originAllowed, sessionCookie, sessionCookieName } from './gate.js';
import { PAGE_MESSAGE_MAX_BYTES } from './pageLink.js';
import { WS_PATH } from './protocol.js';

/** The page's files (built into dist/web by scripts/bundle.mjs), by the path the page asks for. */
const ASSETS: Readonly<Record<string, { file: string; type: string }>> = {
  '/': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/app.js': { file: 'app.js', type: 'text/javascript; charset=utf-8' },
  '/app.css': { file: 'app.css', type: 'text/css; charset=utf-8' },
  '/xterm.css': { file: 'xterm.css', type: 'text/css; charset=utf-8' },
};

/** The page runs only its own script, talks only to its own origin, and is framed by nobody.
 * xterm.js sets element styles, so inline styles are allowed; inline scripts are not. */
const PAGE_HEADERS = {
  'Content-Security-Policy': "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; connect-src 'self'; img-src 'self' data:; font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
  'X-Frame-Options': 'DENY',
};

export interface WebServerOptions {
  bind: string;
  port: number;
  tls: { cert: Buffer; key: Buffer } | null;
  assetsDir: string;
  auth: WebAuth;
  /** A page's WebSocket, admitted for session `sid`. */
  onPage(ws: WebSocket, sid: string): void;
}

export interface WebServer {
  port: number;
  close(): void;
}

function deny(res: http.ServerResponse): void {
  res.writeHead(401, { 'Content-Length': '0', 'Cache-Control': 'no-store' });
  res.end();
}

function denyUpgrade(socket: Duplex): void {
  socket.end('HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
}

export function startWebServer(opts: WebServerOptions): Promise<WebServer> {
  const tls = opts.tls !== null;
  let port = opts.port;
  const wss = new WebSocketServer({ noServer: true, maxPayload: PAGE_MESSAGE_MAX_BYTES, perMessageDeflate: false });

  const onRequest = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const now = Date.now();
    if (!hostAllowed(req.headers.host, opts.bind, port) || (req.method !== 'GET' && req.method !== 'HEAD')) return deny(res);
    const url = new URL(req.url ?? '/', 'http://a1.invalid');
    const token = url.searchParams.get('token');
    if (url.pathname === '/' && token !== null) {
      const sid = opts.auth.exchange(token, now);
      if (!sid) return deny(res);
      // To the page without the token in its address (history, bookmarks, screenshots).
      res.writeHead(303, { Location: '/', 'Set-Cookie': sessionCookie(port, sid, tls), 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer', 'Content-Length': '0' });
      return void res.end();
    }
    if (!opts.auth.touch(cookieValue(req.headers.cookie, sessionCookieName(port)), now)) return deny(res);
    const asset = ASSETS[url.pathname];
    if (!asset) {
      res.writeHead(404, { 'Content-Length': '0', 'Cache-Control': 'no-store' });
      return void res.end();
    }
    let body: Buffer;
    try {
      body = fs.readFileSync(path.join(opts.assetsDir, asset.file));
    } catch {
      res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
      return void res.end('The page is not built: run npm run build.\n');
    }
    res.writeHead(200, { 'Content-Type': asset.type, 'Content-Length': String(body.length), ...PAGE_HEADERS });
    res.end(req.method === 'HEAD' ? undefined : body);
  };

  const server = tls ? https.createServer({ cert: opts.tls!.cert, key: opts.tls!.key }, onRequest) : http.createServer(onRequest);
  server.on('upgrade', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? '/', 'http://a1.invalid');
    const sid = cookieValue(req.headers.cookie, sessionCookieName(port));
    const ok =
      url.pathname === WS_PATH &&
      hostAllowed(req.headers.host, opts.bind, port) &&
      originAllowed(req.headers.origin, req.headers.host, tls) &&
      opts.auth.touch(sid, Date.now());
    if (!ok || !sid) return denyUpgrade(socket);
    wss.handleUpgrade(req, socket, head, (ws) => opts.onPage(ws, sid));
  });
  // A client that stops mid-request must not keep a socket forever.
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.bind, () => {
      server.off('error', reject);
      const addr = server.address();
      port = typeof addr === 'object' && addr ? addr.port : opts.port;
      resolve({
        port,
        close: () => {
          for (const ws of wss.clients) ws.terminate();
          wss.close();
          server.close();
          server.closeAllConnections?.();
        },
      });
    });
  });
}
