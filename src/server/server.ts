// The profile's server (SPEC §3, §10): registry writer, holder supervisor, ticket broker. It owns
// no PTY and relays no terminal bytes. Every decision about tabs is the pure core's
// (./core, step(state, event) → effects, simulated in test/sim); this shell turns sockets, timers
// and process events into core events and carries out the effects: registry transactions and
// resume records here, holder processes in ./holderIO. Queries (list, busy, sessions, host status)
// read the core's state.
import net from 'node:net';
import fs from 'node:fs';
import { Connection } from '../protocol/connection.js';
import { acceptHandshake } from '../protocol/handshake.js';
import { UnixListener } from '../protocol/unixListener.js';
import { controlMethods } from '../protocol/methods.js';
import { ProtocolError } from '../protocol/errors.js';
import { controlSchema, type TabInfo, type ReplyError } from '../protocol/messages.js';
import type { Registry, HistoryEntry } from '../store/registry.js';
import type { Paths } from '../paths.js';
import type { Config } from '../config.js';
import { deriveKey, makeTicket, newIncarnation, restoreClientToken, ticketProofKey, TICKET_TTL_MS } from '../security.js';
import { isSameProcess, foregroundGroupOf } from '../proc.js';
import { isBusyGlyph } from '../status/model.js';
import { defaultTabName } from './naming.js';
import { validateTabName } from '../tabName.js';
import type { Logger } from '../log.js';
import { errorCode } from '../log.js';
import { VERSION } from '../version.js';
import type { Counters } from '../diag/counters.js';
import { planRetirement } from '../lifecycle/retirement.js';
import { executeTermination, type TerminateIO } from '../lifecycle/terminate.js';
import type { ProcessRef } from '../lifecycle/retirement.js';
import { snapshotProcesses } from '../lifecycle/processSnapshot.js';
import { pruneRecoveryFiles } from '../holder/recovery.js';
import { FencedError } from '../store/errors.js';
import { lockHolder } from '../lockHolder.js';
import { writerLockPath } from '../store/layout.js';
import { boot, step, HOLDER_HEARTBEAT_MS, orderedIds, sessionHolder, type CoreEvent, type CoreState, type CoreTab, type Effect, type Reply, type Request, type StepResult } from './core/index.js';
import { HolderIO, type SpawnPlan } from './holderIO.js';
import { AgentStarts } from './agentStarts.js';
import { SHELL_KIND, isShellCommand } from '../lifecycle/agents.js';
import { sanitizeChildEnv } from './childEnv.js';
import { expectedRev, listingEntry, NOT_RESUMABLE, PAST_SESSIONS_LISTED, pastSessions, refusal, tabInfo, unendedNotice } from './answers.js';
import { durableToRow, patchToRow, rowToDurable } from './rows.js';
import { contradiction, type Contradiction } from './invariants.js';

/** The exit status of a server that found itself fenced (EX_TEMPFAIL: its successor runs). */
const FENCED_EXIT_CODE = 75;
/** How often the core is ticked: idleness, waiting views, orphans, retries after a failed write. */
const TICK_MS = 1_000;
/** How often a running agent's `live` resume record is captured again (SPEC §9). */
const LIVE_CAPTURE_MS = 60_000;

interface ClientSession {
  /** The client's id from its subscription; empty for a connection that did not subscribe. */
  id: string;
  /** The id the core knows this connection by: the client's own, or one made up for a
   * connection that sends requests without subscribing (the CLI). */
  coreId: string | null;
  conn: Connection;
  /** It stopped reading: topology waits until it drains, then comes whole (clientQueueBytes). */
  behind: boolean;
}

/** A client request handed to the core, answered when the core replies. */
interface OpenRequest {
  session: ClientSession;
  id: number;
  op: string;
  args: Record<string, unknown>;
  /** A validated name (create, rename), for the answer. */
  name?: string;
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
  /** Set when this start is the first since a reboot: the previous tab set moves to history. */
  rebooted?: boolean;
  /** Test-only (A1_TEST_BIND_DELAY_MS): a pause between a holder's spawn and its binding, so a
   * test can close the tab while the spawn is in flight (SPEC §15, forcing races). */
  testBindDelayMs?: number;
  /** Test-only (A1_TEST_UNRESPONSIVE_MS): the missed-heartbeat window instead of 30 s; the
   * unresponsive restart then follows after four such windows. */
  testUnresponsiveMs?: number;
  /** Test-only (A1_TEST_SERVER_LACKS): control ops this server leaves out, as an older server
   * without them would (SPEC §6: a method the peer lacks disables only that operation). */
  testLacksOps?: readonly string[];
  /** How processes are signalled: the real terminator, or a test's faulty one (src/diag/testFaults.ts). */
  terminateIO: TerminateIO;
  /** Test-only (A1_TEST_EARLIER_SIGNALS_LOST): see HolderIODeps. */
  testEarlierSignalsLost?: boolean;
  /** This process's diagnostics for host status: counters since it started (src/diag). */
  diag?: () => { counters: Counters };
  /** Ends the process at once with a crash record: its state contradicts itself (SPEC §3). */
  onInvariantViolation: (found: Contradiction) => void;
}

export class Server {
  private state!: CoreState;
  private readonly io: HolderIO;
  private readonly agents: AgentStarts;
  private readonly clients = new Map<Connection, ClientSession>();
  /** Connections per core client id: the core hears of a client once, and of its end once. */
  private readonly coreClients = new Map<string, number>();
  private readonly requests = new Map<number, OpenRequest>();
  private nextReqId = 1;
  private anonymous = 0;
  /** What clients were last told of each tab, so only changes are sent. */
  private readonly told = new Map<string, string>();
  /** Closes whose processes are still ending, for `close --wait`: each resolves with the processes
   * it could not end. */
  private readonly closesEnding = new Map<string, Promise<ProcessRef[]>>();
  /** Replies held until the host stop's processes have ended. */
  private readonly afterStop: (() => void)[] = [];
  private feeding = 0;
  /** Replies of the event being carried out. */
  private readonly outbox: (() => void)[] = [];
  /** The core said exit: nothing more is fed to it. */
  private exited = false;
  private shutDown = false;
  private readonly listener: UnixListener;
  private tickTimer: NodeJS.Timeout | null = null;
  private captureTimer: NodeJS.Timeout | null = null;
  private lastBeat = Date.now();
  private readonly startedAt = Date.now();

  constructor(private readonly d: ServerDeps) {
    for (const op of d.testLacksOps ?? []) delete this.ops[op];
    this.agents = new AgentStarts(d.config, d.registry);
    this.io = new HolderIO({
      ...d,
      feed: (e) => this.feed(e),
      state: () => this.state,
      stillWriter: () => this.stillWriter(),
    });
    this.listener = new UnixListener(d.paths.serverSock, (s) => this.accept(s), {
      error: (err) => this.d.log.warn('listen-error', { code: errorCode(err) }),
      restoreFailed: (err) => this.d.log.warn('socket-restore-failed', { code: errorCode(err) }),
    });
  }

  async start(): Promise<void> {
    try {
      pruneRecoveryFiles(this.d.paths.recoveryDir, Date.now());
    } catch (err) {
      this.d.log.warn('recovery-prune-failed', { code: errorCode(err) });
    }
    if (this.d.rebooted) this.moveTabsToHistoryAfterReboot();
    const rows = this.d.registry.listTabs();
    const durable = {
      // main.ts committed this server's epoch (registry.startServer) before the core boots.
      epoch: this.d.epoch - 1,
      rev: this.d.registry.revision,
      tabs: Object.fromEntries(rows.map((r) => [r.id, rowToDurable(r)])),
      resumeExpired: this.agents.expiredResumes(rows),
    };
    const c = this.d.config;
    const limits = {
      tabsMax: c.tabsMax,
      maxConcurrentStarts: c.tabsMaxConcurrentStarts,
      idleSuspendMs: c.idleSuspendMinutes * 60_000,
      serverIdleExitMs: c.serverIdleExitMinutes * 60_000,
      agentKinds: Object.keys(c.agents),
      tabCommandIsShell: isShellCommand(c.tabCommand),
      resumableKinds: Object.keys(c.agents).filter((k) => c.agents[k].resume),
    };
    // The id makes this server's tab ids and incarnations unique; short, since they name sockets.
    this.run(boot(newIncarnation().slice(0, 7), Date.now(), durable, limits));
    // Only the lease holder gets here, so a leftover socket is a dead predecessor's.
    await this.listener.listen();
    this.tickTimer = setInterval(() => this.tick(), TICK_MS);
    this.tickTimer.unref();
    this.captureTimer = setInterval(() => this.captureLiveRecords(), LIVE_CAPTURE_MS);
    this.captureTimer.unref();
  }

  // ---- the core ----

  private feed(e: CoreEvent): void {
    if (this.exited) return;
    this.run(step(this.state, e));
  }

  /** Takes the core's new state and carries out its effects in order. A commit's answer is fed
   * back before the next effect (better-sqlite3 is synchronous), as the simulation does. */
  private run(r: StepResult): void {
    this.state = r.state;
    this.feeding++;
    try {
      for (const fx of r.effects) {
        if (this.exited) return;
        this.execute(fx);
      }
    } finally {
      this.feeding--;
    }
    if (this.feeding > 0) return;
    if (!this.exited) this.tellChanges();
    for (const send of this.outbox.splice(0)) send();
  }

  private execute(fx: Effect): void {
    switch (fx.t) {
      case 'commit': {
        const result = this.commit(fx);
        this.feed({ t: 'committed', id: fx.id, result });
        if (result === 'ok') this.checkInvariants();
        return;
      }
      case 'spawnHolder':
        if (this.stillWriter()) void this.io.spawn(fx, this.spawnPlan(fx));
        return;
      case 'verifyHolder':
        void this.io.verify(fx.tabId, fx.ref);
        return;
      case 'sendToHolder':
        return this.io.send(fx);
      case 'kill':
        return this.io.kill(fx);
      case 'sweepOrphans':
        return this.io.sweep(fx.owned, this.state.phase === 'stopped');
      case 'putResumeRecord':
        return this.putResumeRecord(fx);
      case 'dropResumeRecords':
        return this.guarded(() => {
          const ids = this.d.registry.listResumeRecordsOf(fx.tabId).filter((r) => fx.origin === 'all' || r.origin === fx.origin).map((r) => r.id);
          if (ids.length > 0) this.d.registry.deleteResumeRecords(ids);
        });
      case 'reply':
        // Sent once the event is carried out: clients hear what the answer is about (the tab
        // list, a tab's status) before the asker hears the answer, and act on both.
        return void this.outbox.push(() => this.answer(fx.reqId, fx.reply));
      case 'notifyClients':
        return this.notify(fx);
      case 'exit':
        return this.exit(fx.reason);
    }
  }

  private tick(): void {
    if (!this.stillWriter()) return;
    this.keepSocket();
    this.checkInvariants();
    if (this.exited) return;
    const now = Date.now();
    const heartbeat = now - this.lastBeat >= HOLDER_HEARTBEAT_MS;
    if (heartbeat) this.lastBeat = now;
    this.feed({ t: 'tick', now, heartbeat });
  }

  /** Memory and the registry agree on the tabs and the revision (./invariants.ts); when they do
   * not, this server ends now and its replacement starts from the registry. A registry that
   * cannot be read is not a contradiction: that is a write failure's degraded state. */
  private checkInvariants(): void {
    if (this.exited || this.state.phase === 'starting') return;
    let registry;
    try {
      registry = { rev: this.d.registry.revision, tabs: this.d.registry.listTabs() };
    } catch (err) {
      this.d.log.warn('invariant-check-failed', { code: errorCode(err) });
      return;
    }
    const found = contradiction({ rev: this.state.rev, tabs: Object.values(this.state.tabs) }, registry);
    if (!found) return;
    this.exited = true;
    this.d.onInvariantViolation(found);
  }

  /** Runs a registry write outside a commit (records, meta); a fenced one stops this server. */
  private guarded(write: () => void): void {
    try {
      write();
    } catch (err) {
      if (err instanceof FencedError) return this.feed({ t: 'fenced' });
      this.d.log.warn('record-write-failed', { code: errorCode(err) });
    }
  }

  /** Whether this server still holds the lease at its epoch; a fenced one stops here (SPEC §4:
   * the epoch is checked before signalling any process). */
  private stillWriter(): boolean {
    if (this.exited) return false;
    if (this.d.registry.isWriter) return true;
    this.feed({ t: 'fenced' });
    return false;
  }

  // ---- commits ----

  /** One registry transaction per commit, fenced by the registry (SPEC §5). */
  private commit(fx: Extract<Effect, { t: 'commit' }>): 'ok' | 'fenced' | 'failed' {
    const m = fx.mutation;
    const reg = this.d.registry;
    try {
      let rev = reg.revision;
      switch (m.t) {
        case 'startEpoch':
          // Committed by registry.startServer before the core booted; the fence says it is ours.
          if (!reg.isWriter) return 'fenced';
          break;
        case 'insertTab':
          rev = reg.insertTab(durableToRow(m.tab, Date.now())).revision;
          break;
        case 'retireTab':
          rev = m.reason === 'closed' ? this.retireClosed(m.id) : this.retireExpired(m.id);
          break;
        case 'rename':
          rev = reg.updateTab(m.id, { name: m.name, nameSource: 'user' }, { topology: true });
          break;
        case 'reorder':
          rev = reg.reorderTabs(m.order);
          break;
        case 'update':
          reg.updateTab(m.id, patchToRow(m.patch), { topology: false });
          break;
      }
      if (rev !== fx.rev) this.d.log.warn('revision-mismatch', { count: rev - fx.rev });
      return 'ok';
    } catch (err) {
      if (err instanceof FencedError) return 'fenced';
      this.d.log.error('commit-failed', { op: m.t, code: errorCode(err) });
      return 'failed';
    }
  }

  /** Close (SPEC §9): the plan is made from one snapshot before anything is pruned; the tab, its
   * records and its history entry change in one transaction; then its processes end. */
  private retireClosed(tabId: string): number {
    const tab = this.state.tabs[tabId];
    const plan = this.io.planFor(tabId, 'user');
    const at = Date.now();
    const history: Omit<HistoryEntry, 'id'>[] = [];
    const seen = new Set<string>();
    for (const r of plan.history) {
      if (seen.has(r.sessionId)) continue;
      seen.add(r.sessionId);
      history.push({ tabId, name: tab.name, agentKind: r.agentKind, sessionId: r.sessionId, cwd: r.cwd, reason: 'closed', at, command: tab.spec.command });
    }
    // Revoking is not forgetting: an agent session with no record left still goes to history.
    if (tab.sessionId && !seen.has(tab.sessionId) && tab.spec.kind !== SHELL_KIND) {
      history.push({ tabId, name: tab.name, agentKind: tab.spec.kind, sessionId: tab.sessionId, cwd: tab.spec.cwd, reason: 'closed', at, command: tab.spec.command });
    }
    const rev = this.d.registry.retireTab(tabId, { revoke: plan.revoke, history });
    if (this.d.registry.getMeta('last_viewed_tab') === tabId) this.guarded(() => this.d.registry.setMeta('last_viewed_tab', ''));
    const ending = this.io
      .endClosedTab(tabId, plan)
      .then((unended) => {
        if (unended.length > 0) this.broadcast({ t: 'notice', text: unendedNotice(tab.name, unended) });
        return unended;
      })
      .finally(() => this.closesEnding.delete(tabId));
    this.closesEnding.set(tabId, ending);
    return rev;
  }

  /** A tab whose session can no longer resume leaves, its identity kept in history so the user
   * can reopen it on purpose (SPEC §9). */
  private retireExpired(tabId: string): number {
    const tab = this.state.tabs[tabId];
    const records = this.d.registry.listResumeRecordsOf(tabId);
    const rev = this.d.registry.retireTab(tabId, {
      revoke: records.map((r) => r.id),
      history: [{ tabId, name: tab.name, agentKind: tab.spec.kind, sessionId: tab.sessionId, cwd: tab.spec.cwd, reason: 'expired', at: Date.now(), command: tab.spec.command }],
    });
    this.d.log.info('tab-to-history', { tab: tabId, reason: 'expired' });
    return rev;
  }

  // ---- agents and resume records ----

  private spawnPlan(fx: Extract<Effect, { t: 'spawnHolder' }>): SpawnPlan {
    return this.agents.spawnPlan(this.state.tabs[fx.tabId], Object.values(this.state.tabs), fx.options, this.d.holderEnv);
  }

  /** Resume authority, written when the core says (SPEC §9). A running agent's holder learns
   * the argv that resumes it, since it restarts crashed children on its own. */
  private putResumeRecord(fx: Extract<Effect, { t: 'putResumeRecord' }>): void {
    const tab = this.state.tabs[fx.tabId];
    if (!tab || tab.spec.kind === SHELL_KIND) return;
    if (fx.origin === 'quit' && !this.agents.spec(tab.spec.kind)?.resume) return;
    // A wake (the live capture of a tab that sleeps) continues the authority the tab's records
    // give; it never grants one they do not: the validator decides this resume too (SPEC §9).
    if (fx.origin === 'live' && tab.lifecycle === 'suspended' && !this.agents.resumeAuthority(tab, Object.values(this.state.tabs))) {
      this.d.log.info('resume-refused', { tab: tab.id, reason: 'wake' });
      return;
    }
    this.guarded(() => {
      this.d.registry.putResumeRecord({ tabId: tab.id, agentKind: tab.spec.kind, sessionId: fx.sessionId, cwd: tab.spec.cwd, name: tab.name, origin: fx.origin, capturedAt: Date.now(), command: tab.spec.command });
      if (fx.origin === 'live' && tab.bound) this.io.sendRaw(tab.id, { t: 'setResume', epoch: this.d.epoch, resume: this.agents.resumeAuthority(tab, Object.values(this.state.tabs)) });
    });
  }

  /** The `live` records of running agents are captured again now and then, so a quit record's
   * successor stays fresh; the holder's resume argv is refreshed alongside. */
  private captureLiveRecords(): void {
    for (const tab of Object.values(this.state.tabs)) {
      if (!tab.bound || tab.reported?.lifecycle !== 'running' || !tab.sessionId || tab.spec.kind === SHELL_KIND) continue;
      if (this.exited) return;
      this.putResumeRecord({ t: 'putResumeRecord', epoch: this.state.epoch, tabId: tab.id, sessionId: tab.sessionId, origin: 'live' });
    }
  }

  // ---- reboot ----

  /** A new boot (SPEC §9, §10): the previous tab set is not started; it moves to history, and
   * every agent session in it stays resumable (its records are kept). Whatever of it still runs
   * (only possible when the boot id was overridden for a test) is ended, records untouched. */
  private moveTabsToHistoryAfterReboot(): void {
    const rows = this.d.registry.listTabs();
    if (rows.length === 0) return;
    const processes = snapshotProcesses();
    const claims = rows.map((r) => ({
      tabId: r.id,
      agent: r.kind !== SHELL_KIND,
      bound: r.holderPid && r.holderStart ? [{ pid: r.holderPid, startTime: r.holderStart }] : [],
      // No child start time is recorded: the child counts while the holder is its verified parent
      // or it carries the tab's marker (`sessionMembers`).
      sessions: r.childPid ? [{ pid: r.childPid, startTime: null }] : [],
    }));
    for (const tab of claims) {
      const plan = planRetirement({ tab, otherTabs: claims.filter((c) => c !== tab), processes, records: [], protectedPids: [process.pid, 1] }, 'cleanup');
      void this.io.track(executeTermination({ ...plan, revoke: [], history: [] }, { graceMs: this.d.config.closeGraceMs, io: this.d.terminateIO }).then(() => undefined));
    }
    this.d.registry.moveAllTabsToHistory('reboot', Date.now(), (tab) => ({ agentKind: tab.kind, sessionId: tab.sessionId }));
    if (this.d.registry.getMeta('last_viewed_tab')) this.d.registry.setMeta('last_viewed_tab', '');
    this.d.log.info('reboot-history', { tabs: rows.length });
  }

  // ---- clients ----

  /** server.sock is bound again within a tick when its path vanished (SPEC §4), and only by the
   * lease holder: tick() stops a fenced server before this, and the kernel must still name this
   * process as the lock's holder (a lock file replaced behind its back is someone else's lease). */
  private keepSocket(): void {
    if (this.exited) return;
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
    const conn = new Connection(socket, controlSchema);
    acceptHandshake(conn, {
      role: 'server',
      methods: controlMethods(['topology', 'tickets', 'host'], Object.keys(this.ops)),
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
    const session: ClientSession = { id: '', coreId: null, conn, behind: false };
    this.clients.set(conn, session);
    // A newer client's message this server lacks is dropped; the connection goes on (SPEC §6).
    const offSkipped = conn.onSkipped(() => {
      offSkipped();
      this.d.log.warn('client-message-skipped', {});
    });
    conn.onClose(() => {
      this.clients.delete(conn);
      for (const [reqId, open] of this.requests) if (open.session === session) this.requests.delete(reqId);
      if (session.coreId) this.detach(session.coreId);
    });
    conn.onMessage((msg) => {
      const m = msg as Record<string, unknown> & { t: string };
      if (m.t === 'subscribe') {
        session.id = m.clientId as string;
        this.attach(session, session.id);
        conn.send({
          t: 'snapshot',
          rev: this.state.rev,
          epoch: this.d.epoch,
          serverPid: process.pid,
          tabs: this.tabInfos(),
          notices: this.d.notices,
          viewedTab: this.d.registry.getMeta('last_viewed_tab') ?? undefined,
        });
      } else if (m.t === 'request') {
        if (!session.coreId) this.attach(session, `cli${++this.anonymous}`);
        this.handleRequest(session, m.id as number, m.op as string, (m.args ?? {}) as Record<string, unknown>);
      }
    });
  }

  private attach(session: ClientSession, coreId: string): void {
    if (session.coreId === coreId) return;
    if (session.coreId) this.detach(session.coreId);
    session.coreId = coreId;
    const n = this.coreClients.get(coreId) ?? 0;
    this.coreClients.set(coreId, n + 1);
    if (n === 0) this.feed({ t: 'clientAttached', clientId: coreId });
  }

  private detach(coreId: string): void {
    const n = (this.coreClients.get(coreId) ?? 1) - 1;
    if (n > 0) return void this.coreClients.set(coreId, n);
    this.coreClients.delete(coreId);
    this.feed({ t: 'clientGone', clientId: coreId });
  }

  private handleRequest(session: ClientSession, id: number, op: string, args: Record<string, unknown>): void {
    const fail = (error: ReplyError) => session.conn.send({ t: 'reply', id, ok: false, result: null, error });
    try {
      const handler = this.ops[op];
      if (!handler) return fail({ code: 'unknown-op', message: `Unknown request "${op}".` });
      const outcome = handler(session, args);
      if ('error' in outcome) return fail(outcome.error);
      if ('result' in outcome) return session.conn.send({ t: 'reply', id, ok: true, result: outcome.result ?? null, error: null });
      const reqId = this.nextReqId++;
      this.requests.set(reqId, { session, id, op, args, name: outcome.name });
      this.feed({ t: 'request', clientId: session.coreId!, reqId, req: outcome.req });
      // A request the core did not take (the server stopped meanwhile) has nobody to answer it.
      if (this.exited) this.requests.delete(reqId);
    } catch (err) {
      if (err instanceof FencedError) {
        fail({ code: 'fenced', message: 'This a1 server was replaced; nothing was changed.' });
        return this.feed({ t: 'fenced' });
      }
      this.d.log.error('request-failed', { op, code: errorCode(err) });
      fail({ code: errorCode(err), message: 'The server could not complete the request.' });
    }
  }

  /** Each op is answered at once (a query, a refused argument) or handed to the core. */
  private readonly ops: Record<string, (s: ClientSession, a: Record<string, unknown>) => Outcome> = {
    create: (_s, a) => this.createRequest(a),
    ensureTab: (_s, a) => {
      const tabs = orderedIds(this.state.tabs);
      if (tabs.length === 0) return this.createRequest(a);
      const last = this.d.registry.getMeta('last_viewed_tab');
      return { result: { tabId: last && this.state.tabs[last] ? last : tabs[0] } };
    },
    openSession: (_s, a) => this.openSession(a),
    view: (_s, a) => {
      const tabId = String(a.tabId);
      if (this.state.tabs[tabId]) this.d.registry.setMeta('last_viewed_tab', tabId);
      return { req: { op: 'view', tabId } };
    },
    // The name is kept for the answer: once closed, the tab is gone from the core.
    close: (_s, a) => ({ req: { op: 'close', tabId: String(a.tabId), expectedRev: expectedRev(a) }, name: this.state.tabs[String(a.tabId)]?.name }),
    sleep: (_s, a) => {
      const tab = this.state.tabs[String(a.tabId)];
      if (tab && !this.agents.spec(tab.spec.kind)?.resume && tab.lifecycle !== 'suspended') return NOT_RESUMABLE;
      return { req: { op: 'sleep', tabId: String(a.tabId) } };
    },
    restart: (_s, a) => ({ req: { op: 'restart', tabId: String(a.tabId), fresh: a.fresh === true, force: a.force === true } }),
    rename: (_s, a) => {
      const verdict = validateTabName(String(a.name ?? ''));
      if (!verdict.ok) return { error: { code: 'invalid-name', message: verdict.reason } };
      return { req: { op: 'rename', tabId: String(a.tabId), name: verdict.name, expectedRev: expectedRev(a) }, name: verdict.name };
    },
    reorder: (_s, a) => ({ req: { op: 'reorder', tabId: String(a.tabId), toIndex: Number(a.toIndex), expectedRev: expectedRev(a) } }),
    claim: (_s, a) => ({ req: { op: 'claim', tabId: String(a.tabId), force: a.force === true } }),
    hostStop: () => ({ req: { op: 'hostStop' } }),
    sessions: () => ({ result: { sessions: pastSessions(this.d.registry.listResumeRecords(), this.d.registry.listHistory(PAST_SESSIONS_LISTED), Object.values(this.state.tabs)) } }),
    busy: (_s, a) => ({ result: this.busy(String(a.tabId)) }),
    list: () => ({ result: { server: { pid: process.pid, epoch: this.d.epoch }, tabs: this.listing() } }),
    hostStatus: () => ({ result: this.hostStatus() }),
  };

  private createRequest(a: Record<string, unknown>, session?: { sessionId: string; kind: string; name: string | null }): Outcome {
    let kind = SHELL_KIND;
    if (session) kind = session.kind;
    else if (typeof a.agent === 'string' && a.agent !== '') {
      if (!this.d.config.agents[a.agent]) return { error: { code: 'unknown-agent', message: `"${a.agent}" is not an agent kind in the config.` } };
      kind = a.agent;
    }
    const command = Array.isArray(a.command) && a.command.length > 0 ? (a.command as unknown[]).map(String) : null;
    let userName = '';
    if (typeof a.name === 'string' && a.name.length > 0) {
      const verdict = validateTabName(a.name);
      if (!verdict.ok) return { error: { code: 'invalid-name', message: verdict.reason } };
      userName = verdict.name;
    }
    const name = userName || session?.name || defaultTabName(orderedIds(this.state.tabs).map((id) => this.state.tabs[id].name));
    const env = a.env && typeof a.env === 'object' ? sanitizeChildEnv(a.env as NodeJS.ProcessEnv) : undefined;
    const req: Request = {
      op: 'create',
      name,
      sessionId: session?.sessionId ?? null,
      expectedRev: expectedRev(a),
      spec: { kind, cwd: typeof a.cwd === 'string' ? a.cwd : process.cwd(), command, nameSource: userName ? 'user' : 'default' },
      start: {
        env,
        umask: typeof a.umask === 'number' ? a.umask : undefined,
        ...(typeof a.cols === 'number' && typeof a.rows === 'number' ? { cols: a.cols, rows: a.rows } : {}),
      },
    };
    return { req };
  }

  /** `a1 --session`: focus the live tab that holds the session (the core's rule), or open it in
   * a new tab. */
  private openSession(a: Record<string, unknown>): Outcome {
    const sessionId = typeof a.sessionId === 'string' ? a.sessionId : '';
    if (!sessionId) return { error: { code: 'bad-session', message: 'Name a session id.' } };
    const held = sessionHolder(Object.values(this.state.tabs), sessionId);
    if (held) return { result: { tabId: held.id, focused: true } };
    const record = this.d.registry.listResumeRecords().filter((r) => r.sessionId === sessionId).at(-1);
    const past = this.d.registry.listHistory().find((h) => h.sessionId === sessionId);
    const kind = (typeof a.agent === 'string' && a.agent) || record?.agentKind || past?.agentKind || null;
    if (!kind || kind === SHELL_KIND) return { error: { code: 'unknown-session', message: `a1 knows no agent session "${sessionId}"; pass the session file's path instead.` } };
    if (!this.d.config.agents[kind]?.resume) return { error: { code: 'not-resumable', message: `The "${kind}" agent has no resume command in the config.` } };
    const cwd = (typeof a.cwd === 'string' && a.cwd) || record?.cwd || past?.cwd || process.cwd();
    // The session's own program (a generic agent's), unless the agent kind names one.
    const command = record?.command ?? past?.command ?? null;
    if (!command && this.d.config.agents[kind].resume!.includes('{command}')) {
      return { error: { code: 'unknown-program', message: `a1 does not know which program ran session "${sessionId}".` } };
    }
    return this.createRequest({ ...a, cwd, command, name: undefined }, { sessionId, kind, name: record?.name ?? past?.name ?? null });
  }

  /** The core's answer, in the protocol's shape. */
  private answer(reqId: number, r: Reply): void {
    const open = this.requests.get(reqId);
    if (!open) return;
    this.requests.delete(reqId);
    const { session, id, op } = open;
    const send = (result: unknown) => session.conn.send({ t: 'reply', id, ok: true, result: result ?? null, error: null });
    if (!r.ok) return void session.conn.send({ t: 'reply', id, ok: false, result: null, error: refusal(op, r.code, { serving: this.state.phase === 'serving', tabsMax: this.d.config.tabsMax }) });
    switch (op) {
      case 'create':
      case 'ensureTab':
      case 'openSession':
        return send(r.focused ? { tabId: r.tabId, focused: true } : { tabId: r.tabId });
      case 'view':
        return send(this.ticket(session, String(open.args.tabId), r.holderInc!));
      case 'claim':
        return send({ controller: r.controller === true });
      case 'close': {
        const ending = open.args.wait === true && r.closed ? this.closesEnding.get(String(open.args.tabId)) : undefined;
        if (ending) {
          const name = open.name ?? String(open.args.tabId);
          return void ending.then((unended) => send({ closed: true, ...(unended.length > 0 ? { incomplete: { pids: unended.map((p) => p.pid), message: unendedNotice(name, unended) } } : {}) }));
        }
        return send({ closed: r.closed === true });
      }
      case 'sleep':
        return send({ asleep: true });
      case 'restart':
        return send({ restarted: r.restarted === true });
      case 'rename':
        return send({ name: open.name, rev: r.rev });
      case 'reorder':
        return send({ rev: r.rev });
      case 'hostStop':
        // Answered once every process of the stopped tabs has ended.
        return void this.afterStop.push(() => send({ stopped: r.stopped }));
      default:
        return send(r);
    }
  }

  /** A ticket for the tab's holder (SPEC §15). */
  private ticket(session: ClientSession, tabId: string, inc: string): unknown {
    const ticketKey = deriveKey(this.d.secret, 'ticket', tabId, inc);
    const ticket = makeTicket(ticketKey, { clientId: session.id || session.coreId!, tabId, holderInc: inc, expiresAt: Date.now() + TICKET_TTL_MS });
    return { ticket, proofKey: ticketProofKey(ticketKey, ticket).toString('base64'), socketPath: this.d.paths.holderSock(tabId, inc), holderInc: inc };
  }

  // ---- queries ----

  /** Whether closing the tab would stop work (SPEC §8): its agent is working or waits for an
   * answer (agents run in the child's own process group, so only their status tells), or a
   * foreground job runs in its PTY (the terminal's foreground group is not the child's own). */
  private busy(tabId: string): { busy: boolean } {
    const st = this.state.tabs[tabId] ? this.io.stateOf(tabId) : null;
    if (!st?.childPid || !st.childStart || !isSameProcess({ pid: st.childPid, startTime: st.childStart })) return { busy: false };
    if (isBusyGlyph(st.glyph)) return { busy: true };
    const fg = foregroundGroupOf(st.childPid);
    return { busy: fg !== null && fg > 0 && fg !== st.childPid };
  }

  /** Sessions no live tab holds (records of gone tabs, and history), newest first, one each. */
  private hostStatus(): unknown {
    return {
      pid: process.pid,
      version: VERSION,
      epoch: this.d.epoch,
      uptimeMs: Date.now() - this.startedAt,
      tabCount: Object.keys(this.state.tabs).length,
      clients: [...this.clients.values()].filter((c) => c.id).length,
      profile: this.d.paths.profile,
      socket: this.d.paths.serverSock,
      logs: this.d.paths.logsDir,
      crashRecords: this.d.paths.crashDir,
      registry: this.d.paths.registryFile,
      orphans: this.io.orphanReport,
      ...this.d.diag?.(),
    };
  }

  private orderedTabs(): CoreTab[] {
    return orderedIds(this.state.tabs).map((id) => this.state.tabs[id]);
  }

  /** The linked holder's last state, if it is the tab's current holder's. */
  private liveState(tab: CoreTab) {
    const st = this.io.stateOf(tab.id);
    return st && tab.holder && st.holderInc === tab.holder.inc ? st : null;
  }

  private tabInfo(tab: CoreTab): TabInfo {
    return tabInfo(tab, this.liveState(tab));
  }

  private tabInfos(): TabInfo[] {
    return this.orderedTabs().map((t) => this.tabInfo(t));
  }

  private listing(): unknown[] {
    return this.orderedTabs().map((t) => listingEntry(t, this.liveState(t)));
  }

  // ---- telling clients ----

  private notify(fx: Extract<Effect, { t: 'notifyClients' }>): void {
    if (fx.change === 'hostStopping') return this.broadcast({ t: 'hostStopping' });
    if (fx.change === 'tabs') return this.broadcast({ t: 'tabs', rev: fx.rev, tabs: this.tabInfos() });
    if (fx.change === 'tabRemoved' && fx.tabId) {
      this.told.delete(fx.tabId);
      this.io.forget(fx.tabId);
      this.agents.forget(fx.tabId);
      return this.broadcast({ t: 'tabRemoved', rev: fx.rev, id: fx.tabId });
    }
    const tab = fx.tabId ? this.state.tabs[fx.tabId] : undefined;
    if (!tab) return;
    const info = this.tabInfo(tab);
    this.told.set(tab.id, JSON.stringify(info));
    this.broadcast({ t: 'tab', rev: fx.rev, tab: info });
  }

  /** After every event: each tab whose status, holder, child, title or glyph changed is sent. */
  private tellChanges(): void {
    for (const tab of Object.values(this.state.tabs)) {
      const info = this.tabInfo(tab);
      const json = JSON.stringify(info);
      if (this.told.get(tab.id) === json) continue;
      this.told.set(tab.id, json);
      this.broadcast({ t: 'tabStatus', tab: info });
    }
  }

  private broadcast(msg: { t: string; [k: string]: unknown }): void {
    for (const c of this.clients.values()) {
      if (!c.id) continue;
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
      c.conn.send({ t: 'tabs', rev: this.state.rev, tabs: this.tabInfos() });
    });
    return true;
  }

  // ---- lifetime ----

  private exit(reason: 'fenced' | 'hostStop' | 'idle'): void {
    if (reason === 'fenced') {
      this.d.log.error('fenced', { epoch: this.d.epoch });
      return this.shutdown(FENCED_EXIT_CODE);
    }
    if (reason === 'idle') {
      this.d.log.info('idle-exit');
      return this.shutdown(0);
    }
    // Host stop: answered once every process it ended is gone, then the server exits.
    this.stopTimers();
    void this.terminationsDone().then(() => {
      for (const answer of this.afterStop.splice(0)) answer();
      setTimeout(() => this.shutdown(0), 50);
    });
  }

  private async terminationsDone(): Promise<void> {
    while (this.io.terminations.size > 0) await Promise.all([...this.io.terminations]);
  }

  private stopTimers(): void {
    if (this.tickTimer) clearInterval(this.tickTimer);
    if (this.captureTimer) clearInterval(this.captureTimer);
    this.tickTimer = null;
    this.captureTimer = null;
  }

  shutdown(code: number): void {
    if (this.shutDown) return;
    this.shutDown = true;
    this.exited = true;
    this.stopTimers();
    for (const c of this.clients.keys()) c.close();
    this.io.closeLinks();
    // A fenced server's socket path is its successor's now; closing the listener would unlink
    // that path too (libuv removes a Unix socket's file on close).
    if (code !== FENCED_EXIT_CODE) this.listener.close();
    this.d.onExit(code);
  }
}

type Outcome = { result: unknown } | { error: ReplyError } | { req: Request; name?: string };
