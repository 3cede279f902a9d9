// The profile's server (SPEC §3, §10): registry writer, holder supervisor, ticket broker.
// It owns no PTY and relays no terminal bytes.
import net from 'node:net';
import fs from 'node:fs';
import { Connection } from '../protocol/connection.js';
import { acceptHandshake } from '../protocol/handshake.js';
import { ProtocolError } from '../protocol/errors.js';
import { controlSchema, type HolderState, type TabInfo, type ReplyError } from '../protocol/messages.js';
import type { Registry, TabRow } from '../store/registry.js';
import type { Paths } from '../paths.js';
import type { Config } from '../config.js';
import { deriveKey, makeTicket, newId, newIncarnation, ticketProofKey, TICKET_TTL_MS } from '../security.js';
import { isSameProcess, isLiveProcess, procStartTime, listProcesses, procEnvironHas, foregroundGroupOf } from '../proc.js';
import { spawnHolder, connectHolder, firstState } from './holderLink.js';
import { defaultTabName } from './naming.js';
import { validateTabName } from '../tabName.js';
import type { Logger } from '../log.js';
import { errorCode } from '../log.js';
import { VERSION } from '../version.js';

/** How long a closing tab's processes get between SIGHUP and SIGKILL, unless configured. */
const CLOSE_GRACE_MS = 2_000;
/** A holder that died is restarted at most this many times per minute before the tab fails. */
const HOLDER_RESTARTS_PER_MINUTE = 3;
/** A live holder whose connection broke is reconnected this many times, this far apart, before
 * it is reported unreachable; a holder that died meanwhile is replaced instead. */
const HOLDER_RECONNECT_ATTEMPTS = 10;
const HOLDER_RECONNECT_DELAY_MS = 300;
/** Waiting for a starting holder before answering a view request. */
const VIEW_WAIT_MS = 15_000;
/** How often idleness is checked. */
const IDLE_CHECK_MS = 1_000;

interface TabRuntime {
  row: TabRow;
  link: Connection | null;
  state: HolderState | null;
  starting: Promise<void> | null;
  closing: boolean;
  holderRestarts: number[];
}

interface ClientSession {
  id: string;
  conn: Connection;
  viewing: string | null;
}

export interface ServerDeps {
  paths: Paths;
  config: Config;
  registry: Registry;
  secret: Buffer;
  clientToken: Buffer;
  epoch: number;
  entry: string;
  log: Logger;
  notices: string[];
  /** Environment for holder processes: the starting client's, which carries A1_HOME/A1_PROFILE. */
  holderEnv: NodeJS.ProcessEnv;
  onExit: (code: number) => void;
}

export class Server {
  private readonly tabs = new Map<string, TabRuntime>();
  private readonly clients = new Map<Connection, ClientSession>();
  private listener: net.Server | null = null;
  private idleSince = Date.now();
  private idleTimer: NodeJS.Timeout | null = null;
  private readonly startedAt = Date.now();
  private stopping = false;

  constructor(private readonly d: ServerDeps) {}

  async start(): Promise<void> {
    for (const row of this.d.registry.listTabs()) {
      this.tabs.set(row.id, { row, link: null, state: null, starting: null, closing: false, holderRestarts: [] });
    }
    await this.listen();
    await Promise.all([...this.tabs.values()].map((t) => this.adoptOrStart(t)));
    this.idleTimer = setInterval(() => this.checkIdle(), IDLE_CHECK_MS);
    this.idleTimer.unref();
  }

  private listen(): Promise<void> {
    const sock = this.d.paths.serverSock;
    try {
      fs.unlinkSync(sock);
    } catch {
      // Only the lease holder gets here, so a leftover socket is a dead predecessor's.
    }
    return new Promise((resolve, reject) => {
      const server = net.createServer((s) => this.accept(s));
      server.once('error', reject);
      server.listen(sock, () => {
        server.off('error', reject);
        // Owner-only, inside a 0700 directory (SPEC §4).
        fs.chmodSync(sock, 0o600);
        this.listener = server;
        resolve();
      });
    });
  }

  // ---- holders ----

  private holderKey(tabId: string, inc: string): Buffer {
    return deriveKey(this.d.secret, 'holder', tabId, inc);
  }

  /** Re-adopts a recorded holder only after verifying pid, start time, credential and
   * incarnation (SPEC §4); a tab whose holder is gone is started afresh. */
  private async adoptOrStart(tab: TabRuntime): Promise<void> {
    const { row } = tab;
    if (row.holderPid && row.holderStart && row.holderInc) {
      if (isSameProcess({ pid: row.holderPid, startTime: row.holderStart })) {
        try {
          const conn = await connectHolder(this.d.paths.holderSock(row.id, row.holderInc), this.holderKey(row.id, row.holderInc));
          const state = await firstState(conn);
          if (state.holderPid !== row.holderPid || state.holderInc !== row.holderInc || state.tabId !== row.id) {
            conn.close();
            this.d.log.warn('adopt-mismatch', { tab: row.id });
            this.markUnverifiable(tab);
            return;
          }
          this.bindLink(tab, conn, state);
          this.d.log.info('adopted', { tab: row.id, holderPid: row.holderPid });
          return;
        } catch (err) {
          // A live process we cannot verify is left untouched and reported (SPEC §4).
          this.d.log.warn('adopt-unverifiable', { tab: row.id, code: errorCode(err) });
          this.markUnverifiable(tab);
          return;
        }
      }
      this.d.log.info('holder-gone', { tab: row.id });
    } else if (row.holderInc && !row.holderPid && (await this.adoptPending(tab))) {
      return;
    }
    // Started in the background so that the server reports ready without waiting for spawns.
    if (row.desired === 'running') void this.startHolder(tab);
  }

  /** A predecessor committed the pending incarnation but died before recording its pid: that
   * holder may be running. It is adopted if it proves the incarnation's credential and its
   * reported pid is a live process of this incarnation (its start time read from /proc). */
  private async adoptPending(tab: TabRuntime): Promise<boolean> {
    const { row } = tab;
    let conn;
    try {
      conn = await connectHolder(this.d.paths.holderSock(row.id, row.holderInc!), this.holderKey(row.id, row.holderInc!));
    } catch {
      return false;
    }
    try {
      const state = await firstState(conn);
      const start = procStartTime(state.holderPid);
      if (state.tabId !== row.id || state.holderInc !== row.holderInc || !start || !procEnvironHas(state.holderPid, 'A1_HOLDER_INC', row.holderInc!)) {
        conn.close();
        return false;
      }
      this.d.registry.updateTab(row.id, { holderPid: state.holderPid, holderStart: start }, { topology: false });
      tab.row = this.d.registry.getTab(row.id) ?? row;
      this.bindLink(tab, conn, state);
      this.d.log.info('adopted-pending', { tab: row.id, holderPid: state.holderPid });
      return true;
    } catch {
      conn.close();
      return false;
    }
  }

  private markUnverifiable(tab: TabRuntime): void {
    this.d.registry.updateTab(tab.row.id, { lifecycle: 'failed' }, { topology: false });
    tab.row = this.d.registry.getTab(tab.row.id) ?? tab.row;
    this.broadcastStatus(tab);
  }

  private startHolder(tab: TabRuntime, env?: NodeJS.ProcessEnv, umask?: number, size?: { cols: number; rows: number }): Promise<void> {
    if (tab.starting) return tab.starting;
    tab.starting = this.doStartHolder(tab, env, umask, size).finally(() => {
      tab.starting = null;
    });
    return tab.starting;
  }

  private async doStartHolder(tab: TabRuntime, env?: NodeJS.ProcessEnv, umask?: number, size?: { cols: number; rows: number }): Promise<void> {
    const id = tab.row.id;
    const inc = newIncarnation();
    // The pending incarnation is committed before the spawn, so a crash between the two
    // leaves an orphan that reconciliation can find (SPEC §15).
    this.d.registry.updateTab(id, { holderInc: inc, holderPid: null, holderStart: null, childPid: null, lifecycle: 'starting', lastExit: null }, { topology: false });
    tab.row = this.d.registry.getTab(id)!;
    tab.state = null;
    this.broadcastStatus(tab);
    const childEnv = sanitizeChildEnv(env ?? this.d.holderEnv);
    const socketPath = this.d.paths.holderSock(id, inc);
    try {
      const spawned = await spawnHolder({
        entry: this.d.entry,
        env: { ...this.d.holderEnv, A1_HOLDER_TAB: id, A1_HOLDER_INC: inc },
        init: {
          tabId: id,
          holderInc: inc,
          epoch: this.d.epoch,
          command: tab.row.command ?? this.d.config.tabCommand,
          cwd: existingDir(tab.row.cwd),
          env: childEnv,
          cols: size?.cols ?? 120,
          rows: size?.rows ?? 40,
          scrollback: this.d.config.scrollbackLines,
          umask: umask ?? 0o022,
          socketPath,
          holderKey: this.holderKey(id, inc).toString('base64'),
          ticketKey: deriveKey(this.d.secret, 'ticket', id, inc).toString('base64'),
          inputQueueBytes: this.d.config.inputQueueBytes,
          logDir: this.d.paths.logsDir,
        },
      });
      const start = procStartTime(spawned.pid);
      if (!this.tabs.has(id) || tab.closing || this.stopping) {
        // A spawn that completes after its tab was retired (or the host stopped) is killed
        // before it is bound.
        if (start) killVerified(spawned.pid, start);
        if (spawned.childPid) killSession(spawned.childPid);
        return;
      }
      this.d.registry.updateTab(id, { holderPid: spawned.pid, holderStart: start, childPid: spawned.childPid }, { topology: false });
      tab.row = this.d.registry.getTab(id)!;
      const conn = await connectHolder(socketPath, this.holderKey(id, inc));
      const state = await firstState(conn);
      this.bindLink(tab, conn, state);
    } catch (err) {
      this.d.log.error('holder-start-failed', { tab: id, code: errorCode(err) });
      if (this.tabs.has(id)) {
        this.d.registry.updateTab(id, { lifecycle: 'failed' }, { topology: false });
        tab.row = this.d.registry.getTab(id) ?? tab.row;
        this.broadcastStatus(tab);
      }
    }
  }

  private bindLink(tab: TabRuntime, conn: Connection, state: HolderState): void {
    tab.link = conn;
    conn.send({ t: 'epoch', epoch: this.d.epoch });
    this.applyHolderState(tab, state);
    conn.onMessage((msg) => {
      const m = msg as { t: string; state?: HolderState };
      if (m.t === 'state' && m.state && tab.link === conn) this.applyHolderState(tab, m.state);
    });
    conn.onClose(() => {
      if (tab.link !== conn) return;
      tab.link = null;
      void this.onHolderLost(tab);
    });
    // A controller recorded before a restart is re-sent so input keeps its fence.
    if (state.controller.rev < tab.row.controllerRev) {
      conn.send({ t: 'setController', epoch: this.d.epoch, clientId: null, rev: tab.row.controllerRev });
    }
  }

  private applyHolderState(tab: TabRuntime, state: HolderState): void {
    tab.state = state;
    if (!this.tabs.has(tab.row.id) || tab.closing) return;
    const lifecycle = state.lifecycle;
    const patch: Partial<TabRow> = {
      lifecycle,
      childPid: state.childPid,
      childInc: state.childInc,
      lastExit: state.exit,
    };
    if (tab.row.lifecycle !== lifecycle || tab.row.childPid !== state.childPid || tab.row.childInc !== state.childInc) {
      this.d.registry.updateTab(tab.row.id, patch, { topology: false });
      tab.row = this.d.registry.getTab(tab.row.id) ?? tab.row;
    }
    this.broadcastStatus(tab);
  }

  private async onHolderLost(tab: TabRuntime): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      if (this.stopping || tab.closing || !this.tabs.has(tab.row.id) || tab.link) return;
      const { holderPid, holderStart, holderInc } = tab.row;
      if (!holderPid || !holderStart || !holderInc || !isLiveProcess({ pid: holderPid, startTime: holderStart })) break;
      // The process lives: the connection broke, not the holder. Reconnect.
      try {
        const conn = await connectHolder(this.d.paths.holderSock(tab.row.id, holderInc), this.holderKey(tab.row.id, holderInc));
        this.bindLink(tab, conn, await firstState(conn));
        return;
      } catch (err) {
        this.d.log.warn('holder-reconnect-failed', { tab: tab.row.id, code: errorCode(err), attempt });
        if (attempt >= HOLDER_RECONNECT_ATTEMPTS) {
          // Alive but unreachable: left untouched and reported (SPEC §4).
          this.markUnverifiable(tab);
          return;
        }
        await delay(HOLDER_RECONNECT_DELAY_MS);
      }
    }
    this.d.log.warn('holder-died', { tab: tab.row.id });
    // The dead holder's PTY hung up its child's session; whatever ignored that is ended too,
    // so a restart never leaves the previous incarnation's processes behind.
    const childPid = tab.state?.childPid;
    const childStart = tab.state?.childStart;
    if (childPid && childStart && isSameProcess({ pid: childPid, startTime: childStart })) killSession(childPid);
    const now = Date.now();
    tab.holderRestarts = tab.holderRestarts.filter((t) => now - t < 60_000);
    if (tab.holderRestarts.length >= HOLDER_RESTARTS_PER_MINUTE) {
      this.d.registry.updateTab(tab.row.id, { lifecycle: 'failed', holderPid: null, holderStart: null, childPid: null }, { topology: false });
      tab.row = this.d.registry.getTab(tab.row.id) ?? tab.row;
      this.broadcastStatus(tab);
      return;
    }
    tab.holderRestarts.push(now);
    await this.startHolder(tab);
  }

  // ---- clients ----

  private accept(socket: net.Socket): void {
    const conn = new Connection(socket, controlSchema);
    acceptHandshake(conn, {
      role: 'server',
      methods: ['topology', 'tickets', 'host'],
      keyFor: (auth) => (auth.role === 'client' ? this.d.clientToken : new ProtocolError('auth', 'Unknown role.')),
    }).then(
      () => this.addClient(conn),
      (err) => {
        this.d.log.warn('client-handshake-refused', { code: err instanceof ProtocolError ? err.code : errorCode(err) });
        conn.close();
      },
    );
  }

  private addClient(conn: Connection): void {
    const session: ClientSession = { id: '', conn, viewing: null };
    this.clients.set(conn, session);
    this.idleSince = Date.now();
    conn.onClose(() => {
      this.clients.delete(conn);
      this.idleSince = Date.now();
      this.handOverControl(session);
    });
    conn.onMessage((msg) => {
      const m = msg as Record<string, unknown> & { t: string };
      if (m.t === 'subscribe') {
        session.id = m.clientId as string;
        conn.send({
          t: 'snapshot',
          rev: this.d.registry.revision,
          epoch: this.d.epoch,
          serverPid: process.pid,
          tabs: this.tabInfos(),
          notices: this.d.notices,
          viewedTab: this.d.registry.getMeta('last_viewed_tab') ?? undefined,
        });
      } else if (m.t === 'request') {
        void this.handleRequest(session, m.id as number, m.op as string, (m.args ?? {}) as Record<string, unknown>);
      }
    });
  }

  private async handleRequest(session: ClientSession, id: number, op: string, args: Record<string, unknown>): Promise<void> {
    const reply = (result: unknown) => session.conn.send({ t: 'reply', id, ok: true, result: result ?? null, error: null });
    const fail = (error: ReplyError) => session.conn.send({ t: 'reply', id, ok: false, result: null, error });
    try {
      const handler = this.ops[op];
      if (!handler) return fail({ code: 'unknown-op', message: `Unknown request "${op}".` });
      const result = await handler(session, args);
      if (result && typeof result === 'object' && 'error' in result) fail((result as { error: ReplyError }).error);
      else reply(result);
    } catch (err) {
      this.d.log.error('request-failed', { op, code: errorCode(err) });
      fail({ code: errorCode(err), message: 'The server could not complete the request.' });
    }
  }

  private readonly ops: Record<string, (s: ClientSession, a: Record<string, unknown>) => Promise<unknown> | unknown> = {
    create: (_s, a) => this.createTab(a),
    ensureTab: (_s, a) => {
      if (this.tabs.size === 0) return this.createTab(a);
      const last = this.d.registry.getMeta('last_viewed_tab');
      const id = last && this.tabs.has(last) ? last : this.orderedTabs()[0].row.id;
      return { tabId: id };
    },
    view: (s, a) => this.view(s, String(a.tabId), a),
    close: (_s, a) => this.staleRevision(a) ?? this.closeTab(String(a.tabId)),
    rename: (_s, a) => this.staleRevision(a) ?? this.renameTab(String(a.tabId), String(a.name ?? '')),
    reorder: (_s, a) => this.staleRevision(a) ?? this.reorderTab(String(a.tabId), Number(a.toIndex)),
    busy: (_s, a) => this.busy(String(a.tabId)),
    claim: (s, a) => this.claim(s, String(a.tabId), a.force === true),
    list: () => ({ server: { pid: process.pid, epoch: this.d.epoch }, tabs: this.listing() }),
    hostStatus: () => this.hostStatus(),
    hostStop: () => this.hostStop(),
  };

  private orderedTabs(): TabRuntime[] {
    return [...this.tabs.values()].sort((a, b) => a.row.ord - b.row.ord);
  }

  /** Mutations carry the revision their sender saw; a mutation against an older one is refused
   * whole with a typed conflict (SPEC §6), so two clients racing on one revision get one winner. */
  private staleRevision(a: Record<string, unknown>): { error: ReplyError } | null {
    if (typeof a.expectedRev !== 'number') return null;
    const rev = this.d.registry.revision;
    if (a.expectedRev === rev) return null;
    return { error: { code: 'conflict', message: 'The tabs changed meanwhile; nothing was changed.' } };
  }

  private renameTab(tabId: string, raw: string): unknown {
    const tab = this.tabs.get(tabId);
    if (!tab) return { error: { code: 'no-tab', message: 'That tab no longer exists.' } };
    const verdict = validateTabName(raw);
    if (!verdict.ok) return { error: { code: 'invalid-name', message: verdict.reason } };
    const rev = this.d.registry.updateTab(tabId, { name: verdict.name, nameSource: 'user' }, { topology: true });
    tab.row = this.d.registry.getTab(tabId) ?? tab.row;
    this.broadcast({ t: 'tab', rev, tab: this.tabInfo(tab) });
    return { name: verdict.name };
  }

  private reorderTab(tabId: string, toIndex: number): unknown {
    const order = this.orderedTabs().map((t) => t.row.id);
    const from = order.indexOf(tabId);
    if (from < 0) return { error: { code: 'no-tab', message: 'That tab no longer exists.' } };
    if (!Number.isInteger(toIndex) || toIndex < 0 || toIndex >= order.length) {
      return { error: { code: 'bad-index', message: 'That position is outside the strip.' } };
    }
    if (from === toIndex) return { rev: this.d.registry.revision };
    order.splice(from, 1);
    order.splice(toIndex, 0, tabId);
    const rev = this.d.registry.reorderTabs(order);
    for (const t of this.tabs.values()) t.row = this.d.registry.getTab(t.row.id) ?? t.row;
    this.broadcast({ t: 'tabs', rev, tabs: this.tabInfos() });
    return { rev };
  }

  /** Whether closing the tab would stop work: a foreground job runs in its PTY (the terminal's
   * foreground process group is not the child's own), a process-level fact, not a screen read. */
  private busy(tabId: string): unknown {
    const tab = this.tabs.get(tabId);
    if (!tab) return { busy: false };
    const childPid = tab.state?.childPid;
    const childStart = tab.state?.childStart;
    if (!childPid || !childStart || !isSameProcess({ pid: childPid, startTime: childStart })) return { busy: false };
    const fg = foregroundGroupOf(childPid);
    return { busy: fg !== null && fg > 0 && fg !== childPid };
  }

  /** Take control of a tab (Alt+Enter), or claim it only if nobody controls it. */
  private async claim(session: ClientSession, tabId: string, force: boolean): Promise<unknown> {
    const tab = this.tabs.get(tabId);
    if (!tab || !tab.link) return { error: { code: 'no-tab', message: 'That tab is not running.' } };
    const current = tab.state?.controller.clientId ?? null;
    if (current === session.id) return { controller: true };
    const currentLive = current !== null && [...this.clients.values()].some((c) => c.id === current && c.viewing === tabId);
    if (currentLive && !force) return { controller: false };
    await this.setController(tab, session.id);
    return { controller: true };
  }

  private async createTab(a: Record<string, unknown>): Promise<unknown> {
    const stale = this.staleRevision(a);
    if (stale) return stale;
    if (this.tabs.size >= this.d.config.tabsMax) {
      return { error: { code: 'tabs-max', message: `The tab limit of ${this.d.config.tabsMax} is reached.` } };
    }
    const cwd = typeof a.cwd === 'string' ? a.cwd : process.cwd();
    const command = Array.isArray(a.command) && a.command.length > 0 ? (a.command as unknown[]).map(String) : null;
    let userName = '';
    if (typeof a.name === 'string' && a.name.length > 0) {
      const verdict = validateTabName(a.name);
      if (!verdict.ok) return { error: { code: 'invalid-name', message: verdict.reason } };
      userName = verdict.name;
    }
    const name = userName || defaultTabName(this.orderedTabs().map((t) => t.row.name));
    const { tab: row, revision } = this.d.registry.insertTab({
      id: newId('tab'),
      kind: 'shell',
      name,
      nameSource: userName ? 'user' : 'default',
      cwd,
      command,
      desired: 'running',
      lifecycle: 'starting',
      holderPid: null,
      holderStart: null,
      holderInc: null,
      childPid: null,
      childInc: null,
      controllerRev: 0,
      lastExit: null,
      createdAt: Date.now(),
      viewedAt: null,
    });
    const tab: TabRuntime = { row, link: null, state: null, starting: null, closing: false, holderRestarts: [] };
    this.tabs.set(row.id, tab);
    this.broadcast({ t: 'tab', rev: revision, tab: this.tabInfo(tab) });
    const env = a.env && typeof a.env === 'object' ? (a.env as NodeJS.ProcessEnv) : undefined;
    const umask = typeof a.umask === 'number' ? a.umask : undefined;
    const size = typeof a.cols === 'number' && typeof a.rows === 'number' ? { cols: a.cols, rows: a.rows } : undefined;
    void this.startHolder(tab, env, umask, size);
    return { tabId: row.id };
  }

  /** A client views a tab: it becomes the controller when nobody controls the tab, and gets
   * a ticket for the tab's holder (SPEC §15). */
  private async view(session: ClientSession, tabId: string, a: Record<string, unknown>): Promise<unknown> {
    const tab = this.tabs.get(tabId);
    if (!tab) return { error: { code: 'no-tab', message: 'That tab no longer exists.' } };
    const previous = session.viewing;
    session.viewing = tabId;
    if (previous && previous !== tabId) this.releaseControl(session, previous);
    this.d.registry.setMeta('last_viewed_tab', tabId);
    const deadline = Date.now() + VIEW_WAIT_MS;
    while (!tab.link && Date.now() < deadline) {
      if (tab.starting) await Promise.race([tab.starting, delay(250)]);
      else if (tab.row.lifecycle === 'failed') break;
      else await delay(50);
    }
    if (!tab.link || !tab.row.holderInc) return { error: { code: 'holder-unavailable', message: 'The tab is not running.' } };
    const controller = tab.state?.controller;
    const controllerLive = controller?.clientId && [...this.clients.values()].some((c) => c.id === controller.clientId && c.viewing === tabId);
    if (!controllerLive || a.takeControl === true) await this.setController(tab, session.id);
    const inc = tab.row.holderInc;
    const ticketKey = deriveKey(this.d.secret, 'ticket', tabId, inc);
    const ticket = makeTicket(ticketKey, {
      clientId: session.id,
      tabId,
      holderInc: inc,
      expiresAt: Date.now() + TICKET_TTL_MS,
    });
    return { ticket, proofKey: ticketProofKey(ticketKey, ticket).toString('base64'), socketPath: this.d.paths.holderSock(tabId, inc), holderInc: inc };
  }

  /** Controller transfer is ordered by the holder; the revision is committed after its ack. */
  private setController(tab: TabRuntime, clientId: string | null): Promise<void> {
    const link = tab.link;
    if (!link) return Promise.resolve();
    const rev = Math.max(tab.row.controllerRev, tab.state?.controller.rev ?? 0) + 1;
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, 2_000);
      const off = link.onMessage((msg) => {
        const m = msg as { t: string; rev?: number };
        if (m.t === 'controllerSet' && m.rev === rev) {
          clearTimeout(timer);
          off?.();
          if (this.tabs.has(tab.row.id)) {
            this.d.registry.updateTab(tab.row.id, { controllerRev: rev }, { topology: false });
            tab.row = this.d.registry.getTab(tab.row.id) ?? tab.row;
          }
          if (tab.state) tab.state = { ...tab.state, controller: { clientId, rev } };
          resolve();
        }
      });
      link.send({ t: 'setController', epoch: this.d.epoch, clientId, rev });
    });
  }

  private handOverControl(gone: ClientSession): void {
    for (const tab of this.tabs.values()) this.releaseControl(gone, tab.row.id);
  }

  /** A client that stops viewing a tab stops controlling it: control passes to another client
   * viewing it, or to nobody, so the next client that types takes it. */
  private releaseControl(session: ClientSession, tabId: string): void {
    const tab = this.tabs.get(tabId);
    if (!tab || tab.state?.controller.clientId !== session.id) return;
    const next = [...this.clients.values()].find((c) => c !== session && c.id && c.viewing === tabId);
    void this.setController(tab, next ? next.id : null);
  }

  private closeTab(tabId: string): unknown {
    const tab = this.tabs.get(tabId);
    if (!tab) return { closed: false };
    tab.closing = true;
    this.tabs.delete(tabId);
    const rev = this.d.registry.deleteTab(tabId);
    if (this.d.registry.getMeta('last_viewed_tab') === tabId) this.d.registry.setMeta('last_viewed_tab', '');
    this.broadcast({ t: 'tabRemoved', rev, id: tabId });
    void this.retire(tab);
    return { closed: true };
  }

  /** Ends a tab's holder and process tree; the holder does it gracefully, and anything still
   * alive after the grace window is killed here, each pid verified by its start time. */
  private async retire(tab: TabRuntime): Promise<void> {
    const grace = CLOSE_GRACE_MS;
    const { holderPid, holderStart, childPid } = tab.row;
    const childStart = tab.state?.childStart ?? null;
    const sessionMembers = childPid ? listProcesses().filter((p) => p.sid === childPid) : [];
    tab.link?.send({ t: 'terminate', epoch: this.d.epoch, graceMs: grace });
    const deadline = Date.now() + grace + 2_000;
    const alive = () => holderPid && holderStart && isLiveProcess({ pid: holderPid, startTime: holderStart });
    while (Date.now() < deadline && alive()) await delay(50);
    if (holderPid && holderStart) killVerified(holderPid, holderStart);
    if (childPid && childStart) killVerified(childPid, childStart);
    for (const p of sessionMembers) killVerified(p.pid, p.startTime);
    tab.link?.close();
  }

  private async hostStop(): Promise<unknown> {
    this.stopping = true;
    this.broadcast({ t: 'hostStopping' });
    const tabs = [...this.tabs.values()];
    // Spawns in flight end themselves once they see `stopping`; wait for them first.
    await Promise.all(tabs.map((t) => t.starting?.catch(() => undefined)));
    await Promise.all(tabs.map((t) => this.retire(t)));
    for (const t of tabs) {
      // Kept as desired state: the next start restores the tab set (SPEC §9, host stop).
      this.d.registry.updateTab(t.row.id, { holderPid: null, holderStart: null, childPid: null, lifecycle: 'suspended' }, { topology: false });
    }
    setTimeout(() => this.shutdown(0), 50);
    return { stopped: tabs.length };
  }

  private hostStatus(): unknown {
    return {
      pid: process.pid,
      version: VERSION,
      epoch: this.d.epoch,
      uptimeMs: Date.now() - this.startedAt,
      tabCount: this.tabs.size,
      clients: [...this.clients.values()].filter((c) => c.id).length,
      profile: this.d.paths.profile,
      socket: this.d.paths.serverSock,
      logs: this.d.paths.logsDir,
      registry: this.d.paths.registryFile,
    };
  }

  // ---- topology broadcast ----

  private tabInfo(tab: TabRuntime): TabInfo {
    const r = tab.row;
    return {
      id: r.id,
      name: r.name,
      nameSource: r.nameSource,
      ord: r.ord,
      cwd: r.cwd,
      lifecycle: r.lifecycle,
      holderPid: r.holderPid,
      childPid: tab.state?.childPid ?? r.childPid,
      exit: tab.state?.exit ?? r.lastExit,
      title: tab.state?.title ?? '',
    };
  }

  private tabInfos(): TabInfo[] {
    return this.orderedTabs().map((t) => this.tabInfo(t));
  }

  private listing(): unknown[] {
    return this.orderedTabs().map((t) => ({
      id: t.row.id,
      name: t.row.name,
      status: t.row.lifecycle,
      cwd: t.row.cwd,
      holderPid: t.row.holderPid,
      childPid: t.state?.childPid ?? t.row.childPid,
    }));
  }

  private broadcast(msg: { t: string; [k: string]: unknown }): void {
    for (const c of this.clients.values()) if (c.id) c.conn.send(msg);
  }

  private broadcastStatus(tab: TabRuntime): void {
    if (this.tabs.has(tab.row.id)) this.broadcast({ t: 'tabStatus', tab: this.tabInfo(tab) });
  }

  // ---- lifetime ----

  private checkIdle(): void {
    const busy = this.clients.size > 0 || [...this.tabs.values()].some((t) => t.row.lifecycle === 'running' || t.row.lifecycle === 'starting');
    if (busy) {
      this.idleSince = Date.now();
      return;
    }
    if (Date.now() - this.idleSince >= this.d.config.serverIdleExitMinutes * 60_000) {
      this.d.log.info('idle-exit');
      this.shutdown(0);
    }
  }

  shutdown(code: number): void {
    if (this.idleTimer) clearInterval(this.idleTimer);
    for (const c of this.clients.keys()) c.close();
    for (const t of this.tabs.values()) t.link?.close();
    this.listener?.close();
    try {
      fs.unlinkSync(this.d.paths.serverSock);
    } catch {
      // Already gone.
    }
    this.d.onExit(code);
  }
}

/** The child gets the requesting client's environment minus a1's own markers (SPEC §15). */
function sanitizeChildEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) continue;
    if (k === 'A1_TAB_ID' || k === 'A1_BRIDGE' || k === 'A1_BRIDGE_TOKEN' || k.startsWith('A1_HOLDER_')) continue;
    out[k] = v;
  }
  return out;
}

function existingDir(dir: string): string {
  try {
    if (fs.statSync(dir).isDirectory()) return dir;
  } catch {
    // Fall through to the home directory.
  }
  return process.env.HOME ?? '/';
}

/** SIGKILLs every process in the session led by `sid` (a tab child's session), each verified. */
function killSession(sid: number): void {
  for (const p of listProcesses().filter((q) => q.sid === sid)) killVerified(p.pid, p.startTime);
}

function killVerified(pid: number, startTime: string): void {
  if (!isSameProcess({ pid, startTime })) return;
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
