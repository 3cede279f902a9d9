// The profile's server (SPEC §3, §10): registry writer, holder supervisor, ticket broker. It owns
// no PTY and relays no terminal bytes. Every decision about tabs is the pure core's
// (./core, step(state, event) → effects, simulated in test/sim); this shell boots it, runs its
// event loop (sockets, timers and process events in, effects out) and hands the effects to their
// carriers: registry transactions to ./registryCommits, holder processes to ./holderIO, replies
// and tab news to the clients in ./clientHub (requests in ./requests), resume records here.
import type { TabInfo } from '../protocol/messages.js';
import type { Registry } from '../store/registry.js';
import type { Paths } from '../paths.js';
import type { Config } from '../config.js';
import { newIncarnation } from '../security.js';
import type { Logger } from '../log.js';
import { errorCode } from '../log.js';
import type { Counters } from '../diag/counters.js';
import type { TerminateIO } from '../lifecycle/terminate.js';
import { pruneRecoveryFiles } from '../pruneFiles.js';
import { DisposableStore, interval, toDisposable } from '../disposable.js';
import { FencedError } from '../store/errors.js';
import { boot, step, HOLDER_HEARTBEAT_MS, type CoreEvent, type CoreState, type CoreTab, type Effect, type StepResult } from './core/index.js';
import { HolderIO, type SpawnPlan } from './holderIO.js';
import { AgentStarts } from './agentStarts.js';
import { SHELL_KIND } from '../lifecycle/agents.js';
import { coreLimits, reloadConfig } from './configReload.js';
import { tabInfo } from './answers.js';
import { rowToDurable } from './rows.js';
import { contradiction, type Contradiction } from './invariants.js';
import { ClientHub } from './clientHub.js';
import { RegistryCommits } from './registryCommits.js';
import { moveTabsToHistoryAfterReboot } from './rebootHistory.js';
import type { RequestContext } from './requests/context.js';

/** The exit status of a server that found itself fenced (EX_TEMPFAIL: its successor runs). */
const FENCED_EXIT_CODE = 75;
/** How often the core is ticked: idleness, waiting views, orphans, retries after a failed write. */
const TICK_MS = 1_000;
/** How often a running agent's `live` resume record is captured again (SPEC §9). */
const LIVE_CAPTURE_MS = 60_000;

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
  private readonly hub: ClientHub;
  private readonly commits: RegistryCommits;
  /** Resolved once the host stop's processes have ended: its answer waits for it. */
  private readonly stopped: Promise<void>;
  private stopDone!: () => void;
  private feeding = 0;
  /** Replies of the event being carried out. */
  private readonly outbox: (() => void)[] = [];
  /** The core said exit: nothing more is fed to it. */
  private exited = false;
  /** Everything released on exit, in this order: the timers, the clients, the holder links,
   * then the listening socket (kept by a fenced server: see shutdown). */
  private readonly store = new DisposableStore();
  /** The periodic work, stopped first: at a host stop, before the store. */
  private readonly timers = this.store.add(new DisposableStore());
  private fenced = false;
  private lastBeat = Date.now();
  private readonly startedAt = Date.now();

  constructor(private readonly d: ServerDeps) {
    this.stopped = new Promise((resolve) => (this.stopDone = resolve));
    this.agents = new AgentStarts(d.config, d.registry);
    this.io = new HolderIO({ ...d, core: { feed: (e) => this.feed(e), state: () => this.state, stillWriter: () => this.stillWriter() } });
    this.hub = new ClientHub({
      ...d,
      requests: this.requestContext(),
      feed: (e) => this.feed(e),
      state: () => this.state,
      exited: () => this.exited,
      tabInfo: (tab) => this.tabInfo(tab),
      forgetTab: (tabId) => {
        this.io.forget(tabId);
        this.agents.forget(tabId);
      },
    });
    this.commits = new RegistryCommits({
      registry: d.registry,
      log: d.log,
      state: () => this.state,
      io: this.io,
      guarded: (write) => this.guarded(write),
      notice: (text) => this.hub.broadcast({ t: 'notice', text }),
    });
    this.releaseOnExit();
  }

  /** After the timers: the clients, the holder links, then the listening socket. */
  private releaseOnExit(): void {
    this.store.add(toDisposable(() => this.hub.closeAll()));
    this.store.add(this.io);
    // A fenced server's socket path is its successor's now; closing the listener would unlink
    // that path too (libuv removes a Unix socket's file on close).
    this.store.add(toDisposable(() => this.fenced || this.hub.listener.close()));
  }

  /** What request handlers see of this server. */
  private requestContext(): RequestContext {
    const d = this.d;
    return {
      state: () => this.state,
      registry: d.registry,
      config: d.config,
      paths: d.paths,
      secret: d.secret,
      epoch: d.epoch,
      startedAt: this.startedAt,
      agents: this.agents,
      holderState: (tabId) => this.io.stateOf(tabId),
      liveState: (tab) => this.liveState(tab),
      orphanReport: () => this.io.orphanReport,
      attachedClients: () => this.hub.attached,
      diag: d.diag,
      closeEnding: (tabId) => this.commits.closesEnding.get(tabId),
      hostStopped: () => this.stopped,
      reloadConfig: () =>
        reloadConfig(d.config, d.paths.configDir, process.env, {
          setLimits: (limits) => this.feed({ t: 'limits', limits }),
          notice: (text) => this.hub.broadcast({ t: 'notice', text }),
        }),
    };
  }

  async start(): Promise<void> {
    try {
      pruneRecoveryFiles(this.d.paths.recoveryDir, Date.now());
    } catch (err) {
      this.d.log.warn('recovery-prune-failed', { code: errorCode(err) });
    }
    if (this.d.rebooted) {
      moveTabsToHistoryAfterReboot({ ...this.d, graceMs: this.d.config.closeGraceMs, track: (p) => void this.io.track(p) });
    }
    const rows = this.d.registry.listTabs();
    const durable = {
      // main.ts committed this server's epoch (registry.startServer) before the core boots.
      epoch: this.d.epoch - 1,
      rev: this.d.registry.revision,
      tabs: Object.fromEntries(rows.map((r) => [r.id, rowToDurable(r)])),
      resumeExpired: this.agents.expiredResumes(rows),
    };
    // The id makes this server's tab ids and incarnations unique; short, since they name sockets.
    this.run(boot(newIncarnation().slice(0, 7), Date.now(), durable, coreLimits(this.d.config)));
    // Only the lease holder gets here, so a leftover socket is a dead predecessor's.
    await this.hub.listener.listen();
    this.timers.add(interval(TICK_MS, () => this.tick()));
    this.timers.add(interval(LIVE_CAPTURE_MS, () => this.captureLiveRecords()));
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
    if (!this.exited) this.hub.tellChanges();
    for (const send of this.outbox.splice(0)) send();
  }

  private execute(fx: Effect): void {
    switch (fx.t) {
      case 'commit': {
        const result = this.commits.commit(fx);
        this.feed({ t: 'committed', id: fx.id, result });
        if (result === 'ok') this.checkInvariants();
        return;
      }
      case 'spawnHolder':
        if (this.stillWriter()) void this.io.clear(fx, this.spawnPlan(fx));
        return;
      case 'launchHolder':
        if (this.stillWriter()) void this.io.launch(fx);
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
        return void this.outbox.push(() => this.hub.answer(fx.reqId, fx.reply));
      case 'notifyClients':
        return this.hub.notify(fx);
      case 'exit':
        return this.exit(fx.reason);
    }
  }

  private tick(): void {
    if (!this.stillWriter()) return;
    const now = Date.now();
    const heartbeat = now - this.lastBeat >= HOLDER_HEARTBEAT_MS;
    // SPEC §4: a vanished socket is back within one heartbeat; looking every second cost more.
    if (heartbeat) this.hub.keepSocket();
    this.checkInvariants();
    if (this.exited) return;
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
    if (fx.origin === 'live' && tab.lifecycle === 'asleep' && !this.agents.resumeAuthority(tab, Object.values(this.state.tabs))) {
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

  /** The linked holder's last state, if it is the tab's current holder's. */
  private liveState(tab: CoreTab) {
    const st = this.io.stateOf(tab.id);
    return st && tab.holder && st.holderInc === tab.holder.inc ? st : null;
  }

  private tabInfo(tab: CoreTab): TabInfo {
    return tabInfo(tab, this.liveState(tab));
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
    this.timers.dispose();
    void this.terminationsDone().then(() => {
      this.stopDone();
      setTimeout(() => this.shutdown(0), 50);
    });
  }

  private async terminationsDone(): Promise<void> {
    while (this.io.terminations.size > 0) await Promise.all([...this.io.terminations]);
  }

  shutdown(code: number): void {
    if (this.store.isDisposed) return;
    this.exited = true;
    this.fenced = code === FENCED_EXIT_CODE;
    try {
      this.store.dispose();
    } finally {
      this.d.onExit(code);
    }
  }
}
