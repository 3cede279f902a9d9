// The server's hands on holder processes (SPEC §4, §9, §10): it carries out the core's spawn,
// verify, send and kill effects and feeds back what happened (spawned, verified, gone, states,
// acknowledgements, closed links). It decides nothing about tabs; it keeps only process facts the
// core does not reason over: every holder and child seen per tab (for retirement plans), the
// holder's last state (titles, glyphs, busy), and the links.
import type { Connection } from '../protocol/connection.js';
import type { HolderState } from '../protocol/messages.js';
import type { Paths } from '../paths.js';
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import { errorCode } from '../log.js';
import type { Registry } from '../store/registry.js';
import { deriveKey } from '../security.js';
import { isLiveProcess, isSameProcess, procStartTime, procEnvironHas } from '../proc.js';
import { spawnHolder, connectHolder, firstState, HOLDER_START_DEADLINE_MS } from './holderLink.js';
import { planRetirement, sessionMembers, type ProcessRef, type RetireReason, type RetirementPlan, type SessionClaim, type TabClaims } from '../lifecycle/retirement.js';
import { executeTermination, TERMINATE_POLL_MS, type TerminateIO } from '../lifecycle/terminate.js';
import { startClearance } from '../lifecycle/startClearance.js';
import { snapshotProcesses } from '../lifecycle/processSnapshot.js';
import { crashPoint } from '../crashPoints.js';
import type { ResumeAuthority } from '../lifecycle/records.js';
import { writerLockPath } from '../store/layout.js';
import { orphanStep, type HolderProcess, type OrphanReport, type OrphanSighting } from './orphans.js';
import { HOLDER_INC_ENV, HOLDER_PROFILE_ENV, HOLDER_TAB_ENV, profileHolders } from './holderProcesses.js';
import { reportOf } from './rows.js';
import { afterLinkLoss, type CoreEvent, type CoreState, type Effect, type HolderRef } from './core/index.js';

/** A live holder whose connection broke is reconnected this many times, this far apart, before
 * it is reported unverifiable; a holder that died meanwhile is reported gone instead. */
const HOLDER_RECONNECT_ATTEMPTS = 10;
const HOLDER_RECONNECT_DELAY_MS = 300;
/** How often the profile's holders are compared with the rows that own them (SPEC §10). One look
 * reads /proc, a few milliseconds, so every 2 s costs nothing and finds an orphan soon. */
const ORPHAN_SWEEP_MS = 2_000;
/** An orphan is retired only once it stayed unowned this long: a short grace, longer than one
 * sweep, so a holder whose row is being written is never raced. */
const ORPHAN_GRACE_MS = 3_000;
/** An earlier process of a tab still alive this long after its SIGKILL is stuck in the kernel
 * (or was never ours to end): the tab's start is refused rather than run beside it. */
const EARLIER_EXIT_DEADLINE_MS = 5_000;

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

/** Whether a tab may start: nothing of its earlier holders runs, or what may still run. */
type Clearance = { ok: true } | { ok: false; reason: 'unverifiable' | 'alive' | 'unreadable'; childPid?: number; count?: number; code?: string };

interface TabProcesses {
  /** Every holder and child seen for the tab, for the retirement plan. */
  bound: ProcessRef[];
  /** Every child seen for the tab (from its holders, or the registry with the start time it
   * recorded), until found gone: what a new start must not run beside. */
  children: SessionClaim[];
  /** The clearing of earlier processes in progress: the next one waits for it and looks again. */
  clearing: Promise<Clearance> | null;
  /** The linked holder's last state. */
  state: HolderState | null;
  link: { inc: string; conn: Connection } | null;
}

export class HolderIO {
  private readonly tabs = new Map<string, TabProcesses>();
  /** Incarnations this server spawned: their first verification is a bind, not an adoption. */
  private readonly spawnedHere = new Set<string>();
  /** Terminations in flight, so a host stop can wait for them. */
  readonly terminations = new Set<Promise<void>>();
  /** Holders this server is ending: not orphans, though no row owns them. */
  private readonly endingHolders = new Map<string, { tabId: string; inc: string }>();
  /** Closes in progress: their plan covers these processes, so a kill of one is not planned twice. */
  private readonly closing = new Map<string, Set<number>>();
  /** Incarnations whose link closed while they were bound, until verified again or found gone. */
  private readonly lostLinks = new Set<string>();
  private orphansSeen = new Map<string, OrphanSighting>();
  private lastSweep = 0;
  orphanReport: OrphanReport = { count: 0, oldestAgeMs: null };

  constructor(private readonly d: HolderIODeps) {}

  /** The linked holder's last state, for what clients see (title, glyph, child). */
  stateOf(tabId: string): HolderState | null {
    return this.tabs.get(tabId)?.state ?? null;
  }

  private procs(tabId: string): TabProcesses {
    let p = this.tabs.get(tabId);
    if (!p) {
      p = { bound: [], children: [], clearing: null, state: null, link: null };
      this.tabs.set(tabId, p);
    }
    return p;
  }

  private noteBound(tabId: string, ref: { pid: number | null; startTime: string | null }): void {
    if (!ref.pid || !ref.startTime) return;
    const p = this.procs(tabId);
    if (!p.bound.some((b) => b.pid === ref.pid && b.startTime === ref.startTime)) p.bound.push({ pid: ref.pid, startTime: ref.startTime });
  }

  /** A child of the tab, bound (with its start time) and remembered for the next start. */
  private noteChild(tabId: string, ref: { pid: number | null; startTime: string | null }): void {
    if (!ref.pid) return;
    this.noteBound(tabId, ref);
    const p = this.procs(tabId);
    if (p.children.some((c) => c.pid === ref.pid && (c.startTime !== null || ref.startTime === null))) return;
    // A new child: those already gone are forgotten, so a tab that restarts often keeps few.
    p.children = uniqueLeaders([...liveClaims(p.children), { pid: ref.pid, startTime: ref.startTime }]);
  }

  private holderKey(tabId: string, inc: string): Buffer {
    return deriveKey(this.d.secret, 'holder', tabId, inc);
  }

  track(p: Promise<void>): Promise<void> {
    const tracked = p.catch((err) => this.d.log.warn('termination-failed', { code: errorCode(err) }));
    this.terminations.add(tracked);
    void tracked.finally(() => this.terminations.delete(tracked));
    return tracked;
  }

  // ---- spawn ----

  async spawn(fx: Extract<Effect, { t: 'spawnHolder' }>, plan: SpawnPlan): Promise<void> {
    const { tabId, inc } = fx;
    this.spawnedHere.add(inc);
    // A holder of this tab that no row owns (a spawn that outlived its server, one a host stop
    // missed) would run the tab, and its agent session, beside the new one: it is ended first, or,
    // when it does not prove itself (it may still be starting), this start fails and is retried.
    if (!(await this.clearStrays(tabId, inc))) {
      this.d.log.error('holder-start-failed', { tab: tabId, code: 'stray-unverifiable' });
      this.d.feed({ t: 'spawnFailed', tabId, inc });
      return;
    }
    const clearance = await this.clearEarlier(tabId);
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
    this.noteBound(tabId, { pid: spawned.pid, startTime });
    if (spawned.childPid) this.noteChild(tabId, { pid: spawned.childPid, startTime: childStart });
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
    if (recorded) this.noteChild(tabId, recorded);
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
        this.endEarlier(tabId);
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
      let conn: Connection | null = null;
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
        this.noteBound(tabId, holder);
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
    let conn: Connection;
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
          this.endEarlier(tabId);
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
      this.noteBound(tabId, { pid: state.holderPid, startTime });
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
  private bind(tabId: string, inc: string, conn: Connection, state: HolderState): void {
    const p = this.procs(tabId);
    const old = p.link;
    p.link = { inc, conn };
    p.state = state;
    old?.conn.close();
    this.noteChild(tabId, { pid: state.childPid, startTime: state.childStart });
    conn.send({ t: 'epoch', epoch: this.d.epoch });
    conn.onMessage((msg) => {
      if (p.link?.conn !== conn) return;
      const m = msg as { t: string; state?: HolderState; rev?: number };
      if (m.t === 'state' && m.state) {
        p.state = m.state;
        this.noteChild(tabId, { pid: m.state.childPid, startTime: m.state.childStart });
        this.d.feed({ t: 'holderState', tabId, inc, report: reportOf(m.state) });
      } else if (m.t === 'controllerSet' && typeof m.rev === 'number') {
        this.d.feed({ t: 'controllerAck', tabId, inc, rev: m.rev });
      } else {
        this.d.feed({ t: 'pong', tabId, inc });
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
    const link = this.tabs.get(fx.tabId)?.link;
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
  sendRaw(tabId: string, msg: { t: string; [k: string]: unknown }): void {
    this.tabs.get(tabId)?.link?.conn.send(msg);
  }

  /** A dead holder's PTY hung up its child's session; whatever ignored that is ended now, whether
   * or not the tab starts again (its start checks once more and waits for the end). */
  private endEarlier(tabId: string): void {
    void this.track(this.clearEarlier(tabId).then(() => undefined));
  }

  /**
   * Ends whatever the tab's earlier holders started that still runs (`startClearance`: marked, or
   * a recorded child verified by its start time), gracefully and then by verified SIGKILL, and
   * waits until it is gone. False when something may be the tab's agent and cannot be verified or
   * ended: a start now could run a second writer of its session (SPEC §4, §9).
   */
  private clearEarlier(tabId: string): Promise<Clearance> {
    const p = this.procs(tabId);
    const previous = p.clearing ?? Promise.resolve<Clearance>({ ok: true });
    // What cannot be looked at cannot be verified: no start beside it.
    const next = previous
      .then(() => this.clearEarlierNow(tabId, p))
      .catch((err): Clearance => ({ ok: false, reason: 'unreadable', code: errorCode(err) }));
    p.clearing = next;
    void next.finally(() => {
      if (p.clearing === next) p.clearing = null;
    });
    return next;
  }

  private async clearEarlierNow(tabId: string, p: TabProcesses): Promise<Clearance> {
    const plan = startClearance(snapshotProcesses(), { tabId, socketDir: this.d.paths.socketDir, children: p.children }, [process.pid, 1]);
    if (plan.unverifiable.length > 0) return { ok: false, reason: 'unverifiable', childPid: plan.unverifiable[0], count: plan.unverifiable.length };
    if (plan.end.length > 0) {
      if (!this.d.testEarlierSignalsLost) {
        await executeTermination({ tabId, reason: 'cleanup', groups: plan.groups, processes: plan.end, revoke: [], history: [] }, { graceMs: this.d.config.closeGraceMs, io: this.d.terminateIO });
      }
      const deadline = Date.now() + EARLIER_EXIT_DEADLINE_MS;
      let left = plan.end.filter((q) => isLiveProcess(q));
      while (left.length > 0 && Date.now() < deadline) {
        await delay(TERMINATE_POLL_MS);
        left = left.filter((q) => isLiveProcess(q));
      }
      if (left.length > 0) return { ok: false, reason: 'alive', childPid: left[0].pid, count: left.length };
      this.d.log.info('earlier-ended', { tab: tabId, count: plan.end.length });
    }
    // What is gone now cannot be run beside; what lives (another start's child) stays known.
    p.children = liveClaims(p.children);
    return { ok: true };
  }

  // ---- retirement ----

  private claimsOf(tabId: string, extra: ProcessRef[] = []): TabClaims {
    const tab = this.d.state().tabs[tabId];
    const p = this.tabs.get(tabId);
    const bound = [...(p?.bound ?? []), ...extra];
    if (tab?.holder?.pid && tab.holder.startTime) bound.push({ pid: tab.holder.pid, startTime: tab.holder.startTime });
    if (p?.state?.childPid && p.state.childStart) bound.push({ pid: p.state.childPid, startTime: p.state.childStart });
    const sessions: SessionClaim[] = [...bound];
    if (tab?.child?.pid) sessions.push({ pid: tab.child.pid, startTime: null });
    // An agent tab by config, or by having reported over the bridge (SPEC §15), session id or not.
    const agent = (tab !== undefined && tab.spec.kind !== 'shell') || p?.state?.agent != null;
    return { tabId, agent, bound, sessions: uniqueLeaders(sessions) };
  }

  /** One snapshot, taken before any state is pruned (SPEC §9). */
  planFor(tabId: string, reason: RetireReason, extra: ProcessRef[] = []): RetirementPlan {
    const others = Object.keys(this.d.state().tabs).filter((id) => id !== tabId && !this.closing.has(id));
    return planRetirement(
      {
        tab: this.claimsOf(tabId, extra),
        otherTabs: others.map((id) => this.claimsOf(id)),
        processes: snapshotProcesses(),
        records: this.d.registry.listResumeRecords(),
        protectedPids: [process.pid, 1],
      },
      reason,
    );
  }

  /** A close: its plan, made before the commit, is carried out once the commit is made. Resolves
   * with the processes it could not end. */
  endClosedTab(tabId: string, plan: RetirementPlan): Promise<ProcessRef[]> {
    this.closing.set(tabId, new Set(plan.processes.map((p) => p.pid)));
    return this.endProcesses(tabId, plan).finally(() => {
      this.closing.delete(tabId);
      if (!this.d.state().tabs[tabId]) this.tabs.delete(tabId);
    });
  }

  /** The core's kill: the holder (verified by pid and start time) and what its tab's plan names. */
  kill(fx: Extract<Effect, { t: 'kill' }>): void {
    if (!this.d.stillWriter()) return;
    if (this.closing.get(fx.tabId)?.has(fx.pid)) return;
    // Still the tab's holder: the core gave up on its heartbeat (a sleep, stop or close commits
    // first, and a spawn it does not want was never the tab's).
    const tab = this.d.state().tabs[fx.tabId];
    if (tab?.holder?.pid === fx.pid) {
      this.d.log.warn('holder-timeout', { tab: fx.tabId });
      this.d.log.warn('holder-died', { tab: fx.tabId });
    }
    const plan = this.planFor(fx.tabId, 'cleanup', [{ pid: fx.pid, startTime: fx.startTime }]);
    void this.endProcesses(fx.tabId, { ...plan, revoke: [], history: [] }, fx.pid);
  }

  /** Ends what the plan names: the holder is told to end its session gracefully, and the plan is
   * carried out alongside (graceful signal, grace window, verified SIGKILL). Never blocks; resolves
   * with the processes that outlived their SIGKILL, each logged. */
  private endProcesses(tabId: string, plan: RetirementPlan, holderPid?: number): Promise<ProcessRef[]> {
    const p = this.tabs.get(tabId);
    const link = p?.link && (holderPid === undefined || p.state?.holderPid === holderPid) ? p.link : null;
    const inc = link?.inc ?? this.d.state().tabs[tabId]?.holder?.inc ?? null;
    const ending = `${tabId}\n${inc}`;
    if (inc) this.endingHolders.set(ending, { tabId, inc });
    crashPoint('holder.terminate.before');
    link?.conn.send({ t: 'terminate', epoch: this.d.epoch, graceMs: this.d.config.closeGraceMs });
    crashPoint('holder.terminate.after');
    let unended: ProcessRef[] = [];
    return this.track(
      executeTermination(plan, { graceMs: this.d.config.closeGraceMs, io: this.d.terminateIO })
        .then((ended) => {
          if (link && p?.link === link) p.link = null;
          link?.conn.close();
          unended = ended.unended;
          // Left running, never retried by signalling blindly: reported, and visible to the orphan
          // sweep if it is a holder (SPEC §4 "an unverifiable process is left untouched and reported").
          if (unended.length > 0) this.d.log.error('termination-incomplete', { tab: tabId, count: unended.length, reason: plan.reason });
        })
        .finally(() => {
          this.endingHolders.delete(ending);
        }),
    ).then(() => unended);
  }

  // ---- orphans ----

  /** Compares the profile's holders with their owners; an orphan past its grace is retired. The
   * last sweep of a host stop has no grace: nothing is owned any more. */
  sweep(owned: { tabId: string; inc: string }[], final: boolean): void {
    const now = Date.now();
    if (!final && now - this.lastSweep < ORPHAN_SWEEP_MS) return;
    this.lastSweep = now;
    let holders: HolderProcess[];
    try {
      holders = profileHolders(this.d.paths.stateDir);
    } catch (err) {
      this.d.log.warn('orphan-sweep-failed', { code: errorCode(err) });
      return;
    }
    const step = orphanStep(this.orphansSeen, holders, [...owned, ...this.endingHolders.values()], now, final ? 0 : ORPHAN_GRACE_MS);
    this.orphansSeen = step.seen;
    this.orphanReport = step.report;
    for (const h of step.retire) void this.track(this.retireOrphan(h).then(() => undefined));
  }

  /** Every holder of the tab but `inc` ended, each verified first; false when one lives that does
   * not prove itself within a holder's start deadline (it may still be starting). */
  private async clearStrays(tabId: string, inc: string): Promise<boolean> {
    let strays: HolderProcess[];
    try {
      strays = profileHolders(this.d.paths.stateDir).filter((h) => h.tabId === tabId && h.inc !== inc);
    } catch (err) {
      this.d.log.warn('orphan-sweep-failed', { code: errorCode(err) });
      return false;
    }
    for (const h of strays) {
      this.d.log.warn('stray-holder', { tab: tabId, holderPid: h.pid });
      if (!(await this.retireOrphan(h, HOLDER_START_DEADLINE_MS)) && isSameProcess(h)) return false;
    }
    return true;
  }

  /** Verified by credential, pid and start time, then ended like a closed tab's holder. One that
   * cannot be verified is left untouched and stays counted (SPEC §4). A holder still starting is
   * given `patienceMs` to answer. True when it was ended. */
  private async retireOrphan(h: HolderProcess, patienceMs = 0): Promise<boolean> {
    if (!this.d.stillWriter()) return false;
    let conn: Connection | null = null;
    const deadline = Date.now() + patienceMs;
    for (;;) {
      try {
        conn = await connectHolder(this.d.paths.holderSock(h.tabId, h.inc), this.holderKey(h.tabId, h.inc));
        break;
      } catch (err) {
        if (Date.now() >= deadline || !isSameProcess(h)) {
          this.d.log.warn('orphan-unverifiable', { tab: h.tabId, holderPid: h.pid, code: errorCode(err) });
          return false;
        }
        await delay(HOLDER_RECONNECT_DELAY_MS);
      }
    }
    try {
      const state = await firstState(conn);
      const same = state.holderPid === h.pid && state.tabId === h.tabId && state.holderInc === h.inc && isSameProcess(h);
      if (!same) {
        this.d.log.warn('orphan-unverifiable', { tab: h.tabId, holderPid: h.pid });
        return false;
      }
      // A row may have come to own it meanwhile (an adoption): then it is no orphan.
      const tab = this.d.state().tabs[h.tabId];
      if (tab && (tab.holder?.inc === h.inc || tab.starting === h.inc)) return false;
      const bound: ProcessRef[] = [{ pid: h.pid, startTime: h.startTime }];
      if (state.childPid && state.childStart) bound.push({ pid: state.childPid, startTime: state.childStart });
      const plan = planRetirement(
        {
          tab: { tabId: h.tabId, agent: false, bound, sessions: bound },
          otherTabs: Object.keys(this.d.state().tabs).map((id) => this.claimsOf(id)),
          processes: snapshotProcesses(),
          // An orphan's tab may still live with a newer holder: its records are that tab's.
          records: [],
          protectedPids: [process.pid, 1],
        },
        'cleanup',
      );
      conn.send({ t: 'epoch', epoch: this.d.epoch });
      conn.send({ t: 'terminate', epoch: this.d.epoch, graceMs: this.d.config.closeGraceMs });
      const ended = await executeTermination(plan, { graceMs: this.d.config.closeGraceMs, io: this.d.terminateIO });
      this.d.log.info('orphan-retired', { tab: h.tabId, holderPid: h.pid, count: ended.killed });
      return true;
    } catch (err) {
      this.d.log.warn('orphan-unverifiable', { tab: h.tabId, holderPid: h.pid, code: errorCode(err) });
      return false;
    } finally {
      conn.close();
    }
  }

  /** Forgets a tab the core no longer has, once nothing of it is being ended. */
  forget(tabId: string): void {
    if (!this.closing.has(tabId)) this.tabs.delete(tabId);
  }

  closeLinks(): void {
    for (const p of this.tabs.values()) p.link?.conn.close();
  }
}

/** SIGKILLs every verified member of the session a tab's child led (see `sessionMembers`). */
export function killSession(leader: SessionClaim, tabId: string): void {
  for (const p of sessionMembers(snapshotProcesses(), leader, tabId, new Set())) killVerified(p.pid, p.startTime);
}

/** The claims whose process may still run: the same one (by start time, where recorded). */
function liveClaims(claims: readonly SessionClaim[]): SessionClaim[] {
  return claims.filter((c) => (c.startTime === null ? procStartTime(c.pid) !== null : isSameProcess({ pid: c.pid, startTime: c.startTime })));
}

/** One claim per leader pid, keeping a recorded start time over an unrecorded one. */
export function uniqueLeaders(claims: readonly SessionClaim[]): SessionClaim[] {
  const byPid = new Map<number, SessionClaim>();
  for (const c of claims) {
    if (!Number.isSafeInteger(c.pid) || c.pid <= 0) continue;
    const seen = byPid.get(c.pid);
    if (seen === undefined || (seen.startTime === null && c.startTime !== null)) byPid.set(c.pid, c);
  }
  return [...byPid.values()];
}

export function killVerified(pid: number, startTime: string): void {
  if (!isSameProcess({ pid, startTime })) return;
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

export function delay(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
