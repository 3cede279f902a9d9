// The server's hands on holder processes (SPEC §4, §9, §10): it carries out the core's spawn
// (clear the way, then launch), verify, send and kill effects and feeds back what happened
// (cleared, spawned, verified, gone, states, acknowledgements, closed links). It decides nothing
// about tabs: what happens after each await is asked of the core (an event it is fed) or of a pure
// decision beside it (core/supervision.ts). It keeps only process facts the core does not reason
// over: every holder and child seen per tab (for retirement plans), the holder's last state
// (titles, glyphs, busy), and the links. Everything it holds (links, connections being verified,
// retry pauses) is released by one dispose.
import { setTimeout as delay } from 'node:timers/promises';
import { unhandled } from '../protocol/schema.js';
import type { HolderState, ToHolder } from '../protocol/messages.js';
import { errorCode } from '../log.js';
import { deriveKey } from '../security.js';
import { isSameProcess, procStartTime, procEnvironHas } from '../proc.js';
import { spawnHolder, connectHolder, firstState, type HolderConnection, HOLDER_RECONNECT_DELAY_MS, HOLDER_START_DEADLINE_MS } from './holderLink.js';
import type { ProcessRef, RetireReason, RetirementPlan } from '../lifecycle/retirement.js';
import { crashPoint } from '../crashPoints.js';
import type { OrphanReport } from './orphans.js';
import { HOLDER_INC_ENV, HOLDER_PROFILE_ENV, HOLDER_TAB_ENV, profileHolders } from './holderProcesses.js';
import { reportOf } from './rows.js';
import { afterHolderConnected, afterLinkLoss, afterPendingConnectFailed, awaitsVerification, type CoreEvent, type Effect, type HolderRef } from './core/index.js';
import { TabProcessBook, killSession } from './tabProcesses.js';
import { HolderEnding } from './holderEnding.js';
import { OrphanSweep } from './orphanSweep.js';
import { DisposableStore, toDisposable, type Disposable } from '../disposable.js';
import { holderInitOf, type HolderIODeps, type SpawnPlan } from './holderIODeps.js';

export type { HolderCore, HolderIODeps, SpawnPlan } from './holderIODeps.js';

/** A live holder whose connection broke is reconnected this many times (HOLDER_RECONNECT_DELAY_MS
 * apart) before it is reported unverifiable; a holder that died meanwhile is reported gone instead. */
const HOLDER_RECONNECT_ATTEMPTS = 10;

export class HolderIO implements Disposable {
  private readonly book = new TabProcessBook();
  private readonly ending: HolderEnding;
  private readonly orphans: OrphanSweep;
  /** Incarnations this server launched: their first verification is a bind, not an adoption. */
  private readonly spawnedHere = new Set<string>();
  /** Incarnations whose link closed while they were bound, until verified again or found gone. */
  private readonly lostLinks = new Set<string>();
  /** What each start whose way is being cleared will run, until it is launched or dropped. */
  private readonly plans = new Map<string, SpawnPlan>();
  /** Connections opened for a verification and not yet bound or closed. */
  private readonly verifying = new Set<HolderConnection>();
  private readonly store = new DisposableStore();
  /** Aborted by dispose: retry pauses end and connects in flight close. */
  private readonly stop = new AbortController();

  constructor(private readonly d: HolderIODeps) {
    const core = { state: () => d.core.state(), stillWriter: () => d.core.stillWriter() };
    this.ending = new HolderEnding({ paths: d.paths, config: d.config, registry: d.registry, epoch: d.epoch, log: d.log, terminateIO: d.terminateIO, testEarlierSignalsLost: d.testEarlierSignalsLost, book: this.book, ...core });
    this.orphans = new OrphanSweep({ paths: d.paths, config: d.config, epoch: d.epoch, log: d.log, terminateIO: d.terminateIO, ending: this.ending, holderKey: (tabId, inc) => this.holderKey(tabId, inc), signal: this.stop.signal, ...core });
    this.store.add(toDisposable(() => this.stop.abort()));
    this.store.add(toDisposable(() => this.closeAll()));
  }

  /** Closes every link and pending verification; nothing is fed to the core from here on, and a
   * late completion (a spawn, a connect, a holder's message) is dropped. Holders keep running. */
  dispose(): void {
    this.store.dispose();
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

  private get disposed(): boolean {
    return this.store.isDisposed;
  }

  private feed(e: CoreEvent): void {
    if (!this.disposed) this.d.core.feed(e);
  }

  /** A retry's pause; false when a dispose ended it. */
  private async pause(ms: number): Promise<boolean> {
    try {
      await delay(ms, undefined, { signal: this.stop.signal });
      return true;
    } catch {
      return false;
    }
  }

  // ---- spawn: clear the way, then launch if the core still wants it ----

  /** Ends a stray or earlier holder's processes the start would run beside, then tells the core,
   * which launches the start only if its tab still makes it (`startCleared` → `launchHolder`). */
  async clear(fx: Extract<Effect, { t: 'spawnHolder' }>, plan: SpawnPlan): Promise<void> {
    const { tabId, inc } = fx;
    // A holder of this tab that no row owns (a spawn that outlived its server, one a host stop
    // missed) would run the tab, and its agent session, beside the new one: it is ended first, or,
    // when it does not prove itself (it may still be starting), this start fails and is retried.
    if (!(await this.orphans.clearStrays(tabId, inc))) {
      this.d.log.error('holder-start-failed', { tab: tabId, code: 'stray-unverifiable' });
      return this.feed({ t: 'spawnFailed', tabId, inc });
    }
    const clearance = await this.ending.clearEarlier(tabId);
    if (!clearance.ok) {
      const { ok: _ok, ...why } = clearance;
      this.d.log.warn('start-refused', { tab: tabId, ...why });
      return this.feed({ t: 'startRefused', tabId, inc });
    }
    this.plans.set(inc, plan);
    // The core's launchHolder takes the plan synchronously within this feed; one still here was
    // not launched (the tab closed, slept or stopped meanwhile) and goes with its start.
    this.feed({ t: 'startCleared', tabId, inc });
    this.plans.delete(inc);
  }

  async launch(fx: Extract<Effect, { t: 'launchHolder' }>): Promise<void> {
    const { tabId, inc } = fx;
    const plan = this.plans.get(inc);
    this.plans.delete(inc);
    if (!plan) return this.feed({ t: 'spawnFailed', tabId, inc });
    this.spawnedHere.add(inc);
    let spawned;
    try {
      crashPoint('holder.spawn.before');
      spawned = await spawnHolder({ entry: this.d.entry, env: { ...this.d.holderEnv, [HOLDER_TAB_ENV]: tabId, [HOLDER_INC_ENV]: inc, [HOLDER_PROFILE_ENV]: this.d.paths.stateDir }, init: holderInitOf(this.d, this.holderKey(tabId, inc), tabId, inc, plan) });
      crashPoint('holder.spawn.after');
    } catch (err) {
      // A holder that missed its PTY deadline was killed by spawnHolder; the core spends the
      // tab's restart budget on the next start (SPEC §10).
      this.d.log.error('holder-start-failed', { tab: tabId, code: errorCode(err) });
      return this.feed({ t: 'spawnFailed', tabId, inc });
    }
    // Stopped meanwhile: the holder runs on, and the next server adopts or sweeps it (crash-only).
    if (this.disposed) return;
    const startTime = procStartTime(spawned.pid);
    const childStart = spawned.childPid ? procStartTime(spawned.childPid) : null;
    this.book.noteBound(tabId, { pid: spawned.pid, startTime });
    if (spawned.childPid) this.book.noteChild(tabId, { pid: spawned.childPid, startTime: childStart });
    if (!startTime) {
      this.d.log.error('holder-start-failed', { tab: tabId, code: 'holder-gone' });
      if (spawned.childPid) killSession({ pid: spawned.childPid, startTime: childStart }, tabId);
      return this.feed({ t: 'spawnFailed', tabId, inc });
    }
    // Test-only: a window between the spawn and its binding (SPEC §15, forcing races).
    if (this.d.testBindDelayMs && !(await this.pause(this.d.testBindDelayMs))) return;
    this.feed({ t: 'spawned', tabId, inc, pid: spawned.pid, startTime });
  }

  // ---- verification and links ----

  /** Whether the core still waits for this verification. */
  private awaited(tabId: string, inc: string): boolean {
    return !this.disposed && awaitsVerification(this.d.core.state().tabs[tabId], inc);
  }

  /** Connects and authenticates; a dispose closes the connection until it is bound or closed. */
  private async connect(tabId: string, inc: string): Promise<HolderConnection> {
    const conn = await connectHolder(this.d.paths.holderSock(tabId, inc), this.holderKey(tabId, inc), this.stop.signal);
    if (this.disposed) {
      conn.close();
      throw Object.assign(new Error('The server stopped.'), { code: 'stopped' });
    }
    this.verifying.add(conn);
    conn.onClose(() => this.verifying.delete(conn));
    return conn;
  }

  /** Connects and reads the holder's first state; the connection is closed when that fails. */
  private async connectForState(tabId: string, inc: string): Promise<{ conn: HolderConnection; state: HolderState }> {
    const conn = await this.connect(tabId, inc);
    try {
      return { conn, state: await firstState(conn) };
    } catch (err) {
      conn.close();
      throw err;
    }
  }

  /** Connects, authenticates and checks pid, start time and incarnation (SPEC §4). A live holder
   * that does not answer is tried again, then reported unverifiable; a dead one, gone. */
  async verify(tabId: string, ref: HolderRef): Promise<void> {
    // The child the registry last recorded: a holder found gone may have left it running.
    const recorded = this.d.core.state().tabs[tabId]?.child;
    if (recorded) this.book.noteChild(tabId, recorded);
    if (ref.pid === null || ref.startTime === null) return this.verifyPending(tabId, ref.inc);
    const holder = { pid: ref.pid, startTime: ref.startTime };
    const fresh = this.spawnedHere.has(ref.inc);
    for (let attempt = 0; !this.disposed; attempt++) {
      const action = afterLinkLoss({
        writer: this.d.core.stillWriter(),
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
        return this.feed({ t: 'holderGone', tabId, inc: ref.inc });
      }
      if (action === 'unverifiable') {
        // Alive but unreachable: left untouched and reported (SPEC §4).
        this.d.log.warn('adopt-unverifiable', { tab: tabId, holderPid: ref.pid });
        return this.feed({ t: 'holderUnverifiable', tabId, inc: ref.inc });
      }
      if (attempt > 0 && !(await this.pause(HOLDER_RECONNECT_DELAY_MS))) return;
      let link;
      try {
        crashPoint(fresh ? 'holder.bind.before' : 'holder.adopt.before');
        link = await this.connectForState(tabId, ref.inc);
      } catch (err) {
        if (!this.disposed) this.d.log.warn('holder-reconnect-failed', { tab: tabId, code: errorCode(err), attempt: attempt + 1 });
        continue;
      }
      const { conn, state } = link;
      const sameHolder = state.holderPid === ref.pid && state.holderInc === ref.inc && state.tabId === tabId;
      const verdict = afterHolderConnected({ awaited: this.awaited(tabId, ref.inc), sameHolder, pending: false });
      if (verdict !== 'bind') {
        conn.close();
        if (!sameHolder) this.d.log.warn('adopt-mismatch', { tab: tabId });
        if (verdict === 'unverifiable') this.feed({ t: 'holderUnverifiable', tabId, inc: ref.inc });
        return;
      }
      this.lostLinks.delete(ref.inc);
      this.bind(tabId, ref.inc, conn, state);
      this.book.noteBound(tabId, holder);
      this.feed({ t: 'holderVerified', tabId, inc: ref.inc, facts: { ...reportOf(state), pid: ref.pid, startTime: ref.startTime, controller: state.controller } });
      crashPoint(fresh ? 'holder.bind.after' : 'holder.adopt.after');
      if (!fresh) this.d.log.info('adopted', { tab: tabId, holderPid: ref.pid });
      return;
    }
  }

  /** A predecessor committed the pending incarnation but died before recording its pid: that
   * holder may run. It is adopted if it proves the incarnation's credential and its reported pid
   * is a live process of this incarnation (its start time read from /proc); otherwise it is gone,
   * and the orphan sweep ends it if it lives. */
  private async verifyPending(tabId: string, inc: string): Promise<void> {
    const deadline = Date.now() + HOLDER_START_DEADLINE_MS;
    let conn: HolderConnection | null = null;
    while (!conn) {
      try {
        conn = await this.connect(tabId, inc);
      } catch {
        if (this.disposed) return;
        const next = afterPendingConnectFailed({ awaited: this.awaited(tabId, inc), holderStarting: this.startingHolder(tabId, inc), beforeDeadline: Date.now() < deadline });
        if (next === 'nothing') return;
        if (next === 'gone') {
          this.ending.endEarlier(tabId);
          return this.feed({ t: 'holderGone', tabId, inc });
        }
        if (!(await this.pause(HOLDER_RECONNECT_DELAY_MS))) return;
      }
    }
    let state: HolderState;
    try {
      state = await firstState(conn);
    } catch {
      conn.close();
      if (this.awaited(tabId, inc)) this.feed({ t: 'holderGone', tabId, inc });
      return;
    }
    const startTime = procStartTime(state.holderPid);
    const sameHolder = state.tabId === tabId && state.holderInc === inc && !!startTime && procEnvironHas(state.holderPid, HOLDER_INC_ENV, inc);
    const verdict = afterHolderConnected({ awaited: this.awaited(tabId, inc), sameHolder, pending: true });
    if (verdict !== 'bind' || !startTime) {
      conn.close();
      if (verdict === 'gone') this.feed({ t: 'holderGone', tabId, inc });
      return;
    }
    this.bind(tabId, inc, conn, state);
    this.book.noteBound(tabId, { pid: state.holderPid, startTime });
    this.feed({ t: 'holderVerified', tabId, inc, facts: { ...reportOf(state), pid: state.holderPid, startTime, controller: state.controller } });
    this.d.log.info('adopted-pending', { tab: tabId, holderPid: state.holderPid });
  }
  /** Whether a holder process of this incarnation lives, by its markers. */
  private startingHolder(tabId: string, inc: string): boolean {
    try {
      return profileHolders(this.d.paths.stateDir).some((h) => h.tabId === tabId && h.inc === inc);
    } catch {
      return false;
    }
  }

  /** The link to a verified holder: its messages become core events. Messages and the close of a
   * link that was replaced since are the old link's and change nothing. */
  private bind(tabId: string, inc: string, conn: HolderConnection, state: HolderState): void {
    this.verifying.delete(conn);
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
        case 'state': {
          const state = m.state;
          p.state = state;
          this.book.noteChild(tabId, { pid: state.childPid, startTime: state.childStart });
          return this.feed({ t: 'holderState', tabId, inc, report: reportOf(state) });
        }
        case 'controllerSet':
          return this.feed({ t: 'controllerAck', tabId, inc, rev: m.rev });
        case 'pong':
          return this.feed({ t: 'pong', tabId, inc });
        default:
          unhandled(m);
      }
    });
    conn.onClose(() => {
      if (p.link?.conn !== conn) return;
      p.link = null;
      this.lostLinks.add(inc);
      this.feed({ t: 'linkClosed', tabId, inc });
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

  private closeAll(): void {
    for (const conn of this.verifying) conn.close();
    for (const p of this.book.tabs.values()) p.link?.conn.close();
  }
}
