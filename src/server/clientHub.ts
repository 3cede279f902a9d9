// The server's clients (SPEC §6, §15): the control socket, each connection's handshake and
// messages, the requests they send (./requests: answered at once or handed to the core, then
// answered when the core replies), and what they are told of the tabs: only changes, and never
// queued without bound for a client that stopped reading.
import fs from 'node:fs';
import type net from 'node:net';
import { Connection } from '../protocol/connection.js';
import { unhandled } from '../protocol/schema.js';

/** A client's control connection, as the server sees it. */
type ClientConnection = Connection<ControlToServer, ControlToClient>;
import { acceptHandshake } from '../protocol/handshake.js';
import { UnixListener } from '../protocol/unixListener.js';
import { controlMethods } from '../protocol/methods.js';
import { ProtocolError } from '../protocol/errors.js';
import { controlSchema, type ControlToClient, type ControlToServer, type HolderState, type TabInfo, type ReplyError } from '../protocol/messages.js';
import type { RequestOp } from '../protocol/requests.js';
import type { Registry } from '../store/registry.js';
import { FencedError } from '../store/errors.js';
import type { Paths } from '../paths.js';
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import { errorCode } from '../log.js';
import { restoreClientToken } from '../security.js';
import { lockHolder } from '../lockHolder.js';
import { writerLockPath } from '../store/layout.js';
import { refusal } from './answers.js';
import { orderedIds, type CoreEvent, type CoreState, type CoreTab, type Effect, type Reply } from './core/index.js';
import { REQUEST_HANDLERS, servedOps } from './requests/index.js';
import type { OpenRequest, Outcome, RequestContext, RequestHandler, WireArgs } from './requests/context.js';

interface ClientSession {
  /** The client's id from its subscription; empty for a connection that did not subscribe. */
  id: string;
  /** The id the core knows this connection by: the client's own, or one made up for a
   * connection that sends requests without subscribing (the CLI). */
  coreId: string | null;
  conn: ClientConnection;
  /** It stopped reading: topology waits until it drains, then comes whole (clientQueueBytes). */
  behind: boolean;
  /** It watches (`a1 events`): told everything a subscriber is told, attached to nothing. */
  watcher: boolean;
}

/** A request the core was handed, with its connection's id for the reply. */
interface PendingRequest extends OpenRequest<RequestOp> {
  op: RequestOp;
  id: number;
  conn: ClientConnection;
}

export interface ClientHubDeps {
  paths: Paths;
  config: Config;
  registry: Registry;
  clientToken: Buffer;
  epoch: number;
  log: Logger;
  notices: string[];
  /** Test-only (A1_TEST_SERVER_LACKS): ops this server leaves out, as an older one would. */
  testLacksOps?: readonly string[];
  requests: RequestContext;
  feed(e: CoreEvent): void;
  state(): CoreState;
  /** The core said exit: nothing more is fed to it. */
  exited(): boolean;
  tabInfo(tab: CoreTab): TabInfo;
  /** A tab left the core: what was kept of it goes. */
  forgetTab(tabId: string): void;
}

export class ClientHub {
  private readonly clients = new Map<ClientConnection, ClientSession>();
  /** Connections per core client id: the core hears of a client once, and of its end once. */
  private readonly coreClients = new Map<string, number>();
  private readonly pending = new Map<number, PendingRequest>();
  private nextReqId = 1;
  private anonymous = 0;
  /** What clients were last told of each tab, so only changes are sent, and what it was made
   * from: a tab whose core row and holder state are the very objects it was made from has not
   * changed (both are replaced, never changed in place), so it is not made again. */
  private readonly told = new Map<string, { json: string; tab: CoreTab; st: HolderState | null }>();
  private readonly ops: readonly RequestOp[];
  readonly listener: UnixListener;

  constructor(private readonly d: ClientHubDeps) {
    this.ops = servedOps(d.testLacksOps);
    this.listener = new UnixListener(d.paths.serverSock, (s) => this.accept(s), {
      error: (err) => this.d.log.warn('listen-error', { code: errorCode(err) }),
      restoreFailed: (err) => this.d.log.warn('socket-restore-failed', { code: errorCode(err) }),
    });
  }

  /** Subscribed (attached) clients. */
  get attached(): number {
    return [...this.clients.values()].filter((c) => c.id).length;
  }

  // ---- the socket ----

  /** server.sock is bound again within a tick when its path vanished (SPEC §4), and only by the
   * lease holder: tick() stops a fenced server before this, and the kernel must still name this
   * process as the lock's holder (a lock file replaced behind its back is someone else's lease). */
  keepSocket(): void {
    const socketInPlace = this.listener.inPlace();
    const tokenInPlace = fs.existsSync(this.d.paths.clientTokenFile);
    if (socketInPlace && tokenInPlace) return;
    const owner = lockHolder(writerLockPath(this.d.paths.stateDir));
    if (owner !== undefined && owner !== process.pid) {
      if (!this.socketLeftAlone) this.d.log.warn('socket-not-restored', { reason: 'not-lease-holder' });
      this.socketLeftAlone = true;
      return;
    }
    this.socketLeftAlone = false;
    // The client token lives beside the socket: a cleaner that took the directory took both, and
    // a socket clients cannot authenticate to is no way back to the tabs.
    if (!tokenInPlace) {
      try {
        if (restoreClientToken(this.d.paths.clientTokenFile, this.d.clientToken)) this.d.log.info('token-restored');
      } catch (err) {
        this.d.log.warn('token-restore-failed', { code: errorCode(err) });
      }
    }
    if (socketInPlace) return;
    void this.listener.restore().then((ok) => {
      if (ok) this.d.log.info('socket-restored');
    });
  }

  /** A vanished server.sock was left alone for want of the lease, and said so once. */
  private socketLeftAlone = false;

  private accept(socket: net.Socket): void {
    const conn: ClientConnection = new Connection(socket, controlSchema);
    acceptHandshake(conn, {
      role: 'server',
      methods: controlMethods(['topology', 'tickets', 'host', 'watch', 'passive'], this.ops),
      keyFor: (auth) => (auth.role === 'client' ? this.d.clientToken : new ProtocolError('auth', 'Unknown role.')),
    }).then(
      () => this.addClient(conn),
      (err) => {
        this.d.log.warn('client-handshake-refused', { code: err instanceof ProtocolError ? err.code : errorCode(err) });
        conn.close();
      },
    );
  }

  private addClient(conn: ClientConnection): void {
    const session: ClientSession = { id: '', coreId: null, conn, behind: false, watcher: false };
    this.clients.set(conn, session);
    // A newer client's message this server lacks is dropped; the connection goes on (SPEC §6).
    const offSkipped = conn.onSkipped(() => {
      offSkipped();
      this.d.log.warn('client-message-skipped', {});
    });
    conn.onClose(() => {
      this.clients.delete(conn);
      for (const [reqId, open] of this.pending) if (open.asker === session) this.pending.delete(reqId);
      if (session.coreId) this.detach(session.coreId);
    });
    conn.onMessage((m) => {
      switch (m.t) {
        case 'subscribe':
          return this.subscribe(session, m.clientId, m.passive === true);
        case 'watch':
          session.watcher = true;
          return session.conn.send(this.snapshot());
        case 'request':
          if (!session.coreId) this.attach(session, `cli${++this.anonymous}`);
          return this.handleRequest(session, m.id, m.op, m.args);
        default:
          unhandled(m);
      }
    });
  }

  /** A client views: it is attached under its own id and gets the whole topology. */
  private subscribe(session: ClientSession, clientId: string, passive: boolean): void {
    session.id = clientId;
    this.attach(session, session.id, passive);
    session.conn.send(this.snapshot());
  }

  private snapshot(): Extract<ControlToClient, { t: 'snapshot' }> {
    return {
      t: 'snapshot',
      rev: this.d.state().rev,
      epoch: this.d.epoch,
      serverPid: process.pid,
      tabs: this.tabInfos(),
      notices: this.d.notices,
      viewedTab: this.d.registry.getMeta('last_viewed_tab') ?? undefined,
    };
  }

  private attach(session: ClientSession, coreId: string, passive = false): void {
    if (session.coreId === coreId) return;
    if (session.coreId) this.detach(session.coreId);
    session.coreId = coreId;
    const n = this.coreClients.get(coreId) ?? 0;
    this.coreClients.set(coreId, n + 1);
    if (n === 0) this.d.feed(passive ? { t: 'clientAttached', clientId: coreId, passive } : { t: 'clientAttached', clientId: coreId });
  }

  private detach(coreId: string): void {
    const n = (this.coreClients.get(coreId) ?? 1) - 1;
    if (n > 0) return void this.coreClients.set(coreId, n);
    this.coreClients.delete(coreId);
    this.d.feed({ t: 'clientGone', clientId: coreId });
  }

  // ---- requests ----

  private handlerOf(op: string): RequestHandler<RequestOp> | null {
    if (!(this.ops as readonly string[]).includes(op)) return null;
    return REQUEST_HANDLERS[op as RequestOp] as RequestHandler<RequestOp>;
  }

  private handleRequest(session: ClientSession, id: number, op: string, args: WireArgs<RequestOp>): void {
    const fail = (error: ReplyError) => session.conn.send({ t: 'reply', id, ok: false, result: null, error });
    try {
      const handler = this.handlerOf(op);
      if (!handler) return fail({ code: 'unknown-op', message: `Unknown request "${op}".` });
      const outcome: Outcome<RequestOp> = handler.take(this.d.requests, args);
      if ('error' in outcome) return fail(outcome.error);
      if ('result' in outcome) return session.conn.send({ t: 'reply', id, ok: true, result: outcome.result ?? null, error: null });
      const reqId = this.nextReqId++;
      this.pending.set(reqId, { asker: session, conn: session.conn, id, op: op as RequestOp, args, name: outcome.name });
      this.d.feed({ t: 'request', clientId: session.coreId!, reqId, req: outcome.req });
      // A request the core did not take (the server stopped meanwhile) has nobody to answer it.
      if (this.d.exited()) this.pending.delete(reqId);
    } catch (err) {
      if (err instanceof FencedError) {
        fail({ code: 'fenced', message: 'This a1 server was replaced; nothing was changed.' });
        return this.d.feed({ t: 'fenced' });
      }
      this.d.log.error('request-failed', { op, code: errorCode(err) });
      fail({ code: errorCode(err), message: 'The server could not complete the request.' });
    }
  }

  /** The core's answer, in the protocol's shape. */
  answer(reqId: number, r: Reply): void {
    const open = this.pending.get(reqId);
    if (!open) return;
    this.pending.delete(reqId);
    const { conn, id, op } = open;
    const send = (result: unknown) => conn.send({ t: 'reply', id, ok: true, result: result ?? null, error: null });
    if (!r.ok) return void conn.send({ t: 'reply', id, ok: false, result: null, error: refusal(op, r.code, { serving: this.d.state().phase === 'serving', tabsMax: this.d.config.tabsMax }) });
    const answer = REQUEST_HANDLERS[op].answer as RequestHandler<RequestOp>['answer'];
    if (!answer) return send(r);
    const result = answer(this.d.requests, open, r);
    if (result instanceof Promise) void result.then(send);
    else send(result);
  }

  // ---- telling clients ----

  private tabInfos(): TabInfo[] {
    const tabs = this.d.state().tabs;
    return orderedIds(tabs).map((id) => this.d.tabInfo(tabs[id]));
  }

  notify(fx: Extract<Effect, { t: 'notifyClients' }>): void {
    if (fx.change === 'hostStopping') return this.broadcast({ t: 'hostStopping' });
    if (fx.change === 'tabs') return this.broadcast({ t: 'tabs', rev: fx.rev, tabs: this.tabInfos() });
    if (fx.change === 'tabRemoved' && fx.tabId) {
      this.told.delete(fx.tabId);
      this.d.forgetTab(fx.tabId);
      return this.broadcast({ t: 'tabRemoved', rev: fx.rev, id: fx.tabId });
    }
    const tab = fx.tabId ? this.d.state().tabs[fx.tabId] : undefined;
    if (!tab) return;
    const info = this.d.tabInfo(tab);
    this.told.set(tab.id, { json: JSON.stringify(info), tab, st: this.d.requests.holderState(tab.id) });
    this.broadcast({ t: 'tab', rev: fx.rev, tab: info });
  }

  /** After every event: each tab whose status, holder, child, title or glyph changed is sent. */
  tellChanges(): void {
    for (const tab of Object.values(this.d.state().tabs)) {
      const st = this.d.requests.holderState(tab.id);
      const last = this.told.get(tab.id);
      if (last?.tab === tab && last.st === st) continue;
      const info = this.d.tabInfo(tab);
      const json = JSON.stringify(info);
      this.told.set(tab.id, { json, tab, st });
      if (last?.json === json) continue;
      this.broadcast({ t: 'tabStatus', tab: info });
    }
  }

  broadcast(msg: ControlToClient): void {
    for (const c of this.clients.values()) {
      if (!c.id && !c.watcher) continue;
      // The host stopping is never held back: a client that missed it would start a new server.
      if (msg.t !== 'hostStopping' && (c.behind || this.fallsBehind(c))) continue;
      c.conn.send(msg);
    }
  }

  /** A client that stops reading (stopped, or its terminal stuck) is not queued for without bound:
   * past clientQueueBytes it gets nothing more until it drains, then the whole tab list at once. */
  private fallsBehind(c: ClientSession): boolean {
    if (c.conn.pendingBytes < this.d.config.clientQueueBytes) return false;
    c.behind = true;
    this.d.log.warn('client-behind', { bytes: c.conn.pendingBytes });
    const off = c.conn.onDrain(() => {
      off();
      c.behind = false;
      c.conn.send({ t: 'tabs', rev: this.d.state().rev, tabs: this.tabInfos() });
    });
    return true;
  }

  closeAll(): void {
    for (const c of this.clients.keys()) c.close();
  }
}
