// The server's hands on holder processes (SPEC §4, §9, §10): it carries out the core's spawn,
// verify, send and kill effects and feeds back what happened (spawned, verified, gone, states,
// acknowledgements, closed links). It decides nothing about tabs; it keeps only process facts the
// core does not reason over: every holder and child seen per tab (for retirement plans), the
// holder's last state (titles, glyphs, busy), and the links.
import { setTimeout as delay } from 'node:timers/promises';
import { unhandled } from '../protocol/schema.js';
import type { HolderState, ToHolder } from '../protocol/messages.js';
import type { Paths } from '../paths.js';
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import { errorCode } from '../log.js';
import type { Registry } from '../store/registry.js';
import { deriveKey } from '../security.js';
import { isSameProcess, procStartTime, procEnvironHas } from '../proc.js';
import { spawnHolder, connectHolder, firstState, type HolderConnection, HOLDER_RECONNECT_DELAY_MS, HOLDER_START_DEADLINE_MS } from './holderLink.js';
import type { ProcessRef, RetireReason, RetirementPlan } from '../lifecycle/retirement.js';
import type { TerminateIO } from '../lifecycle/terminate.js';
import { crashPoint } from '../crashPoints.js';
import type { ResumeAuthority } from '../lifecycle/records.js';
import { writerLockPath } from '../store/layout.js';
import type { OrphanReport } from './orphans.js';
import { HOLDER_INC_ENV, HOLDER_PROFILE_ENV, HOLDER_TAB_ENV, profileHolders } from './holderProcesses.js';
import { reportOf } from './rows.js';
import { afterLinkLoss, type CoreEvent, type CoreState, type Effect, type HolderRef } from './core/index.js';
import { TabProcessBook, killSession } from './tabProcesses.js';
import { HolderEnding } from './holderEnding.js';
import { OrphanSweep } from './orphanSweep.js';
import { shimDirOf } from '../paths.js';

/** A live holder whose connection broke is reconnected this many times (HOLDER_RECONNECT_DELAY_MS
 * apart) before it is reported unverifiable; a holder that died meanwhile is reported gone instead. */
const HOLDER_RECONNECT_ATTEMPTS = 10;

export interface HolderIODeps {
  paths: Paths;
  config: Config;
  registry: Registry;
  secret: Buffer;
  epoch: number;
  entry: string;
  log: Logger;
  holderEnv: NodeJS.ProcessEnv;
  testBindDelayMs?: number;
  testUnresponsiveMs?: number;
  /** How processes are signalled: the real terminator, or a test's faulty one (src/diag/testFaults.ts). */
  terminateIO: TerminateIO;
  /** Test-only (A1_TEST_EARLIER_SIGNALS_LOST): signals meant for a tab's earlier processes are
   * not sent, so a test can keep one alive that a1 must not start beside. */
  testEarlierSignalsLost?: boolean;
  /** Feeds the core an event; it is a no-op once the server stopped. */
  feed: (e: CoreEvent) => void;
  state: () => CoreState;
  /** Whether this server still holds the lease at its epoch; false also stops it (fenced). */
  stillWriter: () => boolean;
}

/** What one spawn runs: decided by the server (the resume validator), carried here. */
export interface SpawnPlan {
  command: string[];
  /** The validated record a crash restart may resume from, and its argv. */
  resume: ResumeAuthority | null;
  agentKind: string | null;
  cwd: string;
  env: Record<string, string>;
  umask: number;
  cols: number;
  rows: number;
}

export class HolderIO {
  private readonly book = new TabProcessBook();
  private readonly ending: HolderEnding;
  private readonly orphans: OrphanSweep;
  /** Incarnations this server spawned: their first verification is a bind, not an adoption. */
  private readonly spawnedHere = new Set<string>();
  /** Incarnations whose link closed while they were bound, until verified again or found gone. */
  private readonly lostLinks = new Set<string>();

  constructor(private readonly d: HolderIODeps) {
    this.ending = new HolderEnding({ ...d, book: this.book });
    this.orphans = new OrphanSweep({ ...d, ending: this.ending, holderKey: (tabId, inc) => this.holderKey(tabId, inc) });
  }

  /** The linked holder's last state, for what clients see (title, glyph, child). */
  stateOf(tabId: string): HolderState | null {
    return this.book.stateOf(tabId);
  }

  /** Terminations in flight, so a host stop can wait for them. */
  get terminations(): ReadonlySet<Promise<void>> {
    return this.ending.terminations;
  }

  get orphanReport(): OrphanReport {
    return this.orphans.report;
  }

  track(p: Promise<void>): Promise<void> {
    return this.ending.track(p);
  }

  planFor(tabId: string, reason: RetireReason, extra: ProcessRef[] = []): RetirementPlan {
    return this.ending.planFor(tabId, reason, extra);
  }

  endClosedTab(tabId: string, plan: RetirementPlan): Promise<ProcessRef[]> {
    return this.ending.endClosedTab(tabId, plan);
  }

  kill(fx: Extract<Effect, { t: 'kill' }>): void {
    this.ending.kill(fx);
  }

  sweep(owned: { tabId: string; inc: string }[], final: boolean): void {
    this.orphans.sweep(owned, final);
  }

  private holderKey(tabId: string, inc: string): Buffer {
    return deriveKey(this.d.secret, 'holder', tabId, inc);
  }

  // ---- spawn ----

  async spawn(fx: Extract<Effect, { t: 'spawnHolder' }>, plan: SpawnPlan): Promise<void> {
    const { tabId, inc } = fx;
    this.spawnedHere.add(inc);
    // A holder of this tab that no row owns (a spawn that outlived its server, one a host stop
    // missed) would run the tab, and its agent session, beside the new one: it is ended first, or,
    // when it does not prove itself (it may still be starting), this start fails and is retried.
    if (!(await this.orphans.clearStrays(tabId, inc))) {
      this.d.log.error('holder-start-failed', { tab: tabId, code: 'stray-unverifiable' });
      this.d.feed({ t: 'spawnFailed', tabId, inc });
      return;
    }
    const clearance = await this.ending.clearEarlier(tabId);
    if (!clearance.ok) {
      const { ok: _ok, ...why } = clearance;
      this.d.log.warn('start-refused', { tab: tabId, ...why });
      this.d.feed({ t: 'startRefused', tabId, inc });
      return;
    }
    // Closed, put to sleep or stopped while its earlier processes ended: nothing starts.
    if (this.d.state().tabs[tabId]?.starting !== inc) {
      this.d.feed({ t: 'spawnFailed', tabId, inc });
      return;
    }
    let spawned;
    try {
      crashPoint('holder.spawn.before');
      spawned = await spawnHolder({
        entry: this.d.entry,
        env: { ...this.d.holderEnv, [HOLDER_TAB_ENV]: tabId, [HOLDER_INC_ENV]: inc, [HOLDER_PROFILE_ENV]: this.d.paths.stateDir },
        init: {
          tabId,
          holderInc: inc,
          epoch: this.d.epoch,
          command: plan.command,
          resume: plan.resume,
          recoveryDir: this.d.paths.recoveryDir,
          bridgeKey: deriveKey(this.d.secret, 'bridge', tabId, inc).toString('base64'),
          bridgeSocketPath: this.d.paths.bridgeSock(tabId, inc),
          agentKind: plan.agentKind,
          shimDir: shimDirOf(this.d.entry),
          stallNoticeMs: this.d.config.tabsStallNoticeSeconds * 1000,
          unresponsiveRestartMs: this.d.testUnresponsiveMs ? this.d.testUnresponsiveMs * 4 : this.d.config.tabsUnresponsiveRestartSeconds * 1000,
          unresponsiveMs: this.d.testUnresponsiveMs,
          cwd: plan.cwd,
          env: plan.env,
          cols: plan.cols,
          rows: plan.rows,
          scrollback: this.d.config.scrollbackLines,
          umask: plan.umask,
          socketPath: this.d.paths.holderSock(tabId, inc),
          holderKey: this.holderKey(tabId, inc).toString('base64'),
          ticketKey: deriveKey(this.d.secret, 'ticket', tabId, inc).toString('base64'),
          inputQueueBytes: this.d.config.inputQueueBytes,
          logDir: this.d.paths.logsDir,
          serverSocketPath: this.d.paths.serverSock,
          writerLockPath: writerLockPath(this.d.paths.stateDir),
          profile: this.d.paths.profile,
        },
      });
      crashPoint('holder.spawn.after');
    } catch (err) {
      // A holder that missed its PTY deadline was killed by spawnHolder; the core spends the
      // tab's restart budget on the next start (SPEC §10).
      this.d.log.error('holder-start-failed', { tab: tabId, code: errorCode(err) });
      this.d.feed({ t: 'spawnFailed', tabId, inc });
      return;
    }
    const startTime = procStartTime(spawned.pid);
    const childStart = spawned.childPid ? procStartTime(spawned.childPid) : null;
    this.book.noteBound(tabId, { pid: spawned.pid, startTime });
    if (spawned.childPid) this.book.noteChild(tabId, { pid: spawned.childPid, startTime: childStart });
    if (!startTime) {
      this.d.log.error('holder-start-failed', { tab: tabId, code: 'holder-gone' });
      if (spawned.childPid) killSession({ pid: spawned.childPid, startTime: childStart }, tabId);
      this.d.feed({ t: 'spawnFailed', tabId, inc });
      return;
    }
    // Test-only: a window between the spawn and its binding (SPEC §15, forcing races).
    if (this.d.testBindDelayMs) await delay(this.d.testBindDelayMs);
    this.d.feed({ t: 'spawned', tabId, inc, pid: spawned.pid, startTime });
  }

  // ---- verification and links ----

  /** Whether the core still waits for this verification. */
  private awaited(tabId: string, inc: string): boolean {
    const tab = this.d.state().tabs[tabId];
    return !!tab && tab.verifying && tab.holder?.inc === inc;
  }

  /** Connects, authenticates and checks pid, start time and incarnation (SPEC §4). A live holder
   * that does not answer is tried again, then reported unverifiable; a dead one, gone. */
  async verify(tabId: string, ref: HolderRef): Promise<void> {
    // The child the registry last recorded: a holder found gone may have left it running.
    const recorded = this.d.state().tabs[tabId]?.child;
    if (recorded) this.book.noteChild(tabId, recorded);
    if (ref.pid === null || ref.startTime === null) return this.verifyPending(tabId, ref.inc);
    const holder = { pid: ref.pid, startTime: ref.startTime };
    const fresh = this.spawnedHere.has(ref.inc);
    for (let attempt = 0; ; attempt++) {
      const action = afterLinkLoss({
        writer: this.d.stillWriter(),
        wanted: this.awaited(tabId, ref.inc),
        linked: false,
        holderAlive: isSameProcess(holder),
        attempts: attempt,
        maxAttempts: HOLDER_RECONNECT_ATTEMPTS,
      });
      if (action === 'nothing') return;
      if (action === 'replace') {
        // A holder that dies under its link is a loss the crash records keep (diag/exitWatch);
        // one found gone at a start died with its server's predecessor.
        if (this.lostLinks.delete(ref.inc)) this.d.log.warn('holder-died', { tab: tabId });
        else this.d.log.info('holder-gone', { tab: tabId });
        this.ending.endEarlier(tabId);
        this.d.feed({ t: 'holderGone', tabId, inc: ref.inc });
        return;
      }
      if (action === 'unverifiable') {
        // Alive but unreachable: left untouched and reported (SPEC §4).
        this.d.log.warn('adopt-unverifiable', { tab: tabId, holderPid: ref.pid });
        this.d.feed({ t: 'holderUnverifiable', tabId, inc: ref.inc });
        return;
      }
      if (attempt > 0) await delay(HOLDER_RECONNECT_DELAY_MS);
      let conn: HolderConnection | null = null;
      try {
        crashPoint(fresh ? 'holder.bind.before' : 'holder.adopt.before');
        conn = await connectHolder(this.d.paths.holderSock(tabId, ref.inc), this.holderKey(tabId, ref.inc));
        const state = await firstState(conn);
        if (state.holderPid !== ref.pid || state.holderInc !== ref.inc || state.tabId !== tabId) {
          conn.close();
          this.d.log.warn('adopt-mismatch', { tab: tabId });
          if (this.awaited(tabId, ref.inc)) this.d.feed({ t: 'holderUnverifiable', tabId, inc: ref.inc });
          return;
        }
        if (!this.awaited(tabId, ref.inc)) {
          conn.close();
          return;
        }
        this.lostLinks.delete(ref.inc);
        this.bind(tabId, ref.inc, conn, state);
        this.book.noteBound(tabId, holder);
        this.d.feed({ t: 'holderVerified', tabId, inc: ref.inc, facts: { ...reportOf(state), pid: ref.pid, startTime: ref.startTime, controller: state.controller } });
        crashPoint(fresh ? 'holder.bind.after' : 'holder.adopt.after');
        if (!fresh) this.d.log.info('adopted', { tab: tabId, holderPid: ref.pid });
        return;
      } catch (err) {
        conn?.close();
        this.d.log.warn('holder-reconnect-failed', { tab: tabId, code: errorCode(err), attempt: attempt + 1 });
      }
    }
  }

  /** A predecessor committed the pending incarnation but died before recording its pid: that
   * holder may run. It is adopted if it proves the incarnation's credential and its reported pid
   * is a live process of this incarnation (its start time read from /proc); otherwise it is gone,
   * and the orphan sweep ends it if it lives. */
  private async verifyPending(tabId: string, inc: string): Promise<void> {
    let conn: HolderConnection;
    const deadline = Date.now() + HOLDER_START_DEADLINE_MS;
    for (;;) {
      try {
        conn = await connectHolder(this.d.paths.holderSock(tabId, inc), this.holderKey(tabId, inc));
        break;
      } catch {
        // One still starting (found by its markers) is waited for, up to a holder's start
        // deadline: adopting it beats starting the tab twice.
        if (Date.now() < deadline && this.awaited(tabId, inc) && this.startingHolder(tabId, inc)) {
          await delay(HOLDER_RECONNECT_DELAY_MS);
          continue;
        }
        if (this.awaited(tabId, inc)) {
          this.ending.endEarlier(tabId);
          this.d.feed({ t: 'holderGone', tabId, inc });
        }
        return;
      }
    }
    try {
      const state = await firstState(conn);
      const startTime = procStartTime(state.holderPid);
      if (state.tabId !== tabId || state.holderInc !== inc || !startTime || !procEnvironHas(state.holderPid, HOLDER_INC_ENV, inc) || !this.awaited(tabId, inc)) {
        conn.close();
        if (this.awaited(tabId, inc)) this.d.feed({ t: 'holderGone', tabId, inc });
        return;
      }
      this.bind(tabId, inc, conn, state);
      this.book.noteBound(tabId, { pid: state.holderPid, startTime });
      this.d.feed({ t: 'holderVerified', tabId, inc, facts: { ...reportOf(state), pid: state.holderPid, startTime, controller: state.controller } });
      this.d.log.info('adopted-pending', { tab: tabId, holderPid: state.holderPid });
    } catch {
      conn.close();
      if (this.awaited(tabId, inc)) this.d.feed({ t: 'holderGone', tabId, inc });
    }
  }

  /** Whether a holder process of this incarnation lives, by its markers. */
  private startingHolder(tabId: string, inc: string): boolean {
    try {
      return profileHolders(this.d.paths.stateDir).some((h) => h.tabId === tabId && h.inc === inc);
    } catch {
      return false;
    }
  }

  /** The link to a verified holder: its messages become core events. */
  private bind(tabId: string, inc: string, conn: HolderConnection, state: HolderState): void {
    const p = this.book.procs(tabId);
    const old = p.link;
    p.link = { inc, conn };
    p.state = state;
    old?.conn.close();
    this.book.noteChild(tabId, { pid: state.childPid, startTime: state.childStart });
    conn.send({ t: 'epoch', epoch: this.d.epoch });
    conn.onMessage((m) => {
      if (p.link?.conn !== conn) return;
      switch (m.t) {
        case 'state':
          p.state = m.state;
          this.book.noteChild(tabId, { pid: m.state.childPid, startTime: m.state.childStart });
          return this.d.feed({ t: 'holderState', tabId, inc, report: reportOf(m.state) });
        case 'controllerSet':
          return this.d.feed({ t: 'controllerAck', tabId, inc, rev: m.rev });
        case 'pong':
          return this.d.feed({ t: 'pong', tabId, inc });
        default:
          unhandled(m);
      }
    });
    conn.onClose(() => {
      if (p.link?.conn !== conn) return;
      p.link = null;
      this.lostLinks.add(inc);
      this.d.feed({ t: 'linkClosed', tabId, inc });
    });
  }

  /** Sends a holder command over the link of that incarnation, if it is linked. */
  send(fx: Extract<Effect, { t: 'sendToHolder' }>): void {
    const link = this.book.get(fx.tabId)?.link;
    if (!link || link.inc !== fx.inc) return;
    const cmd = fx.cmd;
    if (cmd.t === 'ping') link.conn.send({ t: 'ping', n: 0 });
    else if (cmd.t === 'restartChild') link.conn.send({ t: 'restartChild', epoch: this.d.epoch, fresh: cmd.fresh, ...(cmd.force ? { force: true } : {}) });
    else {
      crashPoint('holder.setController.before');
      link.conn.send({ t: 'setController', epoch: this.d.epoch, clientId: cmd.clientId, rev: cmd.rev });
      crashPoint('holder.setController.after');
    }
  }

  /** Sends whatever the tab's linked holder should hear outside the core's commands. */
  sendRaw(tabId: string, msg: ToHolder): void {
    this.book.get(tabId)?.link?.conn.send(msg);
  }

  /** Forgets a tab the core no longer has, once nothing of it is being ended. */
  forget(tabId: string): void {
    if (!this.ending.closing.has(tabId)) this.book.tabs.delete(tabId);
  }

  closeLinks(): void {
    for (const p of this.book.tabs.values()) p.link?.conn.close();
  }
}
