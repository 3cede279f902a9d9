// The web process (`a1 __web`, issue 20): its own resident role, one per profile, started by
// `a1 web`. It serves the page and its WebSocket, and for each open page is a client of the server
// and of the viewed tab's holder. It reports once on fd 3 (ready with its port, lost when another
// web process already serves the profile, or an error), ends with `a1 web --stop` or when the
// server stops on purpose (`a1 tabs host stop`), and keeps nothing on disk but its socket: killed,
// it leaves only sessions that were in memory, and `a1 web` starts it again.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type net from 'node:net';
import { fileURLToPath } from 'node:url';
import type { WebSocket } from 'ws';
import { ensureProfileDirs, resolvePaths, type Paths } from '../paths.js';
import { createLogger, errorCode, type Logger } from '../log.js';
import { DisposableStore, interval, toDisposable } from '../disposable.js';
import { ServerClient } from '../client/serverClient.js';
import { DEFAULT_IDLE_MS, WebAuth } from './auth.js';
import { askWeb, serveWebControl, webSocketPath, type WebInfo, type WebOp } from './control.js';
import { startWebServer, type WebServer } from './httpServer.js';
import { PageLink } from './pageLink.js';
import { openStatusPipe } from '../spawnReady.js';
import { statusLine, type WebStatusLine } from '../protocol/statusLine.js';
import { WS_CLOSE } from './protocol.js';

/** How often idle sessions and unused tokens are dropped. */
const SWEEP_MS = 10_000;
/** Pages are pinged this often; one that has not answered the previous ping is gone (a phone that
 * lost its network), and its links to the server and holder close. */
const PING_MS = 30_000;
/** Between attempts to reach the server again after it went away without stopping on purpose. */
const WATCH_RETRY_MS = 1_000;

export interface WebArgs {
  profile?: string;
  port: number;
  bind: string;
  cert?: string;
  key?: string;
  idleMs: number;
}

export function parseWebArgs(argv: readonly string[]): WebArgs {
  const get = (name: string) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const minutes = Number(get('--idle-minutes'));
  return {
    profile: get('--profile'),
    port: Number(get('--port') ?? 0),
    bind: get('--bind') ?? '127.0.0.1',
    cert: get('--cert'),
    key: get('--key'),
    idleMs: Number.isFinite(minutes) && minutes > 0 ? minutes * 60_000 : DEFAULT_IDLE_MS,
  };
}

/** The page's files: dist/web beside this bundle. */
function assetsDir(): string {
  return path.join(path.dirname(fileURLToPath(import.meta.url)), 'web');
}

/** The address a person opens: loopback as bound; any other bind by this machine's name. */
export function pageOrigin(bind: string, port: number, tls: boolean): string {
  const scheme = tls ? 'https' : 'http';
  if (bind === '0.0.0.0' || bind === '::') return `${scheme}://${os.hostname()}:${port}`;
  return `${scheme}://${bind.includes(':') ? `[${bind}]` : bind}:${port}`;
}

export async function webMain(argv: readonly string[]): Promise<void> {
  process.umask(0o077);
  const status = openStatusPipe();
  const report = (msg: WebStatusLine) => {
    try {
      status?.end(statusLine(msg));
    } catch {
      // The launching command is gone.
    }
  };
  const args = parseWebArgs(argv);
  let paths: Paths;
  try {
    paths = resolvePaths({ env: process.env, profile: args.profile });
    ensureProfileDirs(paths);
  } catch (err) {
    report({ error: { code: errorCode(err), message: (err as Error).message } });
    return process.exit(1);
  }
  const log = createLogger(paths.logsDir, 'web');
  if (await askWeb(paths, 'info')) {
    report({ lost: true });
    return process.exit(0);
  }
  let tls: { cert: Buffer; key: Buffer } | null = null;
  try {
    if (args.cert && args.key) tls = { cert: fs.readFileSync(args.cert), key: fs.readFileSync(args.key) };
  } catch (err) {
    report({ error: { code: 'tls', message: `Cannot read the certificate or key: ${(err as Error).message}` } });
    return process.exit(1);
  }
  const auth = new WebAuth(args.idleMs);
  const pages = new Map<WebSocket, { sid: string; link: PageLink; alive: boolean }>();
  /** Everything released on stop, in the order it was opened: the pages, the web server, the
   * control socket and its file, the timers. */
  const store = new DisposableStore();
  let web: WebServer;
  try {
    web = await startWebServer({
      bind: args.bind,
      port: args.port,
      tls,
      assetsDir: assetsDir(),
      auth,
      onPage: (ws, sid) => openPage(ws, sid),
    });
  } catch (err) {
    const code = errorCode(err);
    const message = code === 'EADDRINUSE' ? `Port ${args.port} is in use; choose another with --port.` : `Cannot listen on ${args.bind}:${args.port}: ${(err as Error).message}`;
    report({ error: { code, message } });
    return process.exit(1);
  }
  store.add(
    toDisposable(() => {
      for (const [ws, page] of pages) {
        page.link.close();
        ws.close(WS_CLOSE.stopping, 'a1 web stopped');
      }
    }),
  );
  store.add(toDisposable(() => web.close()));

  function openPage(ws: WebSocket, sid: string): void {
    const link = new PageLink({ paths, profile: paths.profile, env: process.env, log, socket: ws });
    const page = { sid, link, alive: true };
    pages.set(ws, page);
    auth.pageOpen(sid, true, Date.now());
    ws.on('pong', () => (page.alive = true));
    ws.on('message', (data, isBinary) => {
      if (isBinary) return;
      if (!auth.isLive(sid, Date.now())) return ws.close(WS_CLOSE.sessionEnded, 'session ended');
      auth.touch(sid, Date.now());
      link.onMessage(data.toString());
    });
    ws.on('error', () => undefined);
    ws.on('close', () => {
      pages.delete(ws);
      link.close();
      auth.pageOpen(sid, false, Date.now());
    });
    link.start().catch((err) => {
      log.warn('page-start-failed', { code: errorCode(err) });
      ws.close(WS_CLOSE.stopping, 'no a1 server');
    });
  }

  const info = (): WebInfo => {
    auth.sweep(Date.now());
    return { pid: process.pid, port: web.port, bind: args.bind, tls: tls !== null, sessions: auth.sessionCount };
  };
  let control: net.Server;
  const answer = (op: WebOp): WebInfo | null => {
    switch (op) {
      case 'info':
        return info();
      case 'mint':
        // The token goes to the asking command only: never logged.
        return { ...info(), url: `${pageOrigin(args.bind, web.port, tls !== null)}/?token=${auth.mintToken(Date.now())}` };
      case 'revoke': {
        const ended = auth.revokeAll();
        for (const ws of pages.keys()) ws.close(WS_CLOSE.sessionEnded, 'revoked');
        log.info('revoked', { count: ended });
        return { ...info(), ended };
      }
      case 'stop':
        setImmediate(() => shutdown('stopped'));
        return info();
    }
  };
  try {
    fs.rmSync(webSocketPath(paths), { force: true });
    control = await serveWebControl(paths, answer, log);
  } catch (err) {
    store.dispose();
    report({ error: { code: errorCode(err), message: `Cannot open the web process's socket: ${(err as Error).message}` } });
    return process.exit(1);
  }
  store.add(toDisposable(() => control.close()));
  store.add(toDisposable(() => fs.rmSync(webSocketPath(paths), { force: true })));

  function shutdown(why: string): void {
    if (store.isDisposed) return;
    log.info('stop', { reason: why });
    try {
      store.dispose();
    } finally {
      // Let the close frames go out.
      setTimeout(() => process.exit(0), 200).unref();
    }
  }
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGHUP', () => undefined);

  store.add(interval(SWEEP_MS, () => auth.sweep(Date.now())));
  store.add(interval(PING_MS, () => {
    for (const [ws, page] of pages) {
      if (!page.alive) {
        ws.terminate();
        continue;
      }
      page.alive = false;
      ws.ping();
    }
  }));
  void watchServer(paths, log, () => shutdown('host-stop'));
  log.info('start', {});
  report({ ready: true, port: web.port });
  // Resident: the listeners keep the process up.
}

/** Follows the server without attaching (a watcher): when it stops on purpose, so does this
 * process; when it goes away otherwise, this waits for the next one (pages start it if needed). */
async function watchServer(paths: Paths, log: Logger, onHostStop: () => void): Promise<void> {
  for (;;) {
    try {
      const server = await ServerClient.connect(paths, { start: false, profile: paths.profile });
      await new Promise<void>((resolve) => {
        server.conn.onMessage((m) => {
          if (m.t === 'hostStopping') onHostStop();
        });
        server.conn.onClose(() => resolve());
        server.conn.send({ t: 'watch' });
      });
      log.info('server-gone', {});
    } catch {
      // None runs now.
    }
    await new Promise((r) => setTimeout(r, WATCH_RETRY_MS));
  }
}
