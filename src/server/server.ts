// The profile's server (SPEC §3, §10): registry writer, holder supervisor, ticket broker.
// It owns no PTY and relays no terminal bytes.
import net from 'node:net';
import fs from 'node:fs';
import { Connection } from '../protocol/connection.js';
import { acceptHandshake } from '../protocol/handshake.js';
import { ProtocolError } from '../protocol/errors.js';
import { controlSchema, type HolderState, type TabInfo, type ReplyError } from '../protocol/messages.js';
import type { Registry, TabRow, HistoryEntry } from '../store/registry.js';
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
import type { Counters } from '../diag/counters.js';
import { planRetirement, type ProcessRef, type RetireReason, type RetirementPlan, type TabClaims } from '../lifecycle/retirement.js';
import { executeTermination } from '../lifecycle/terminate.js';
import { snapshotProcesses } from '../lifecycle/processSnapshot.js';
import { validateResume, RESUME_RECORD_MAX_AGE_MS } from '../lifecycle/records.js';
import { resumeArgv, startArgv } from '../lifecycle/agents.js';
import { pruneRecoveryFiles } from '../holder/recovery.js';
import type { AgentSpec } from '../config.js';
import { crashPoint } from '../crashPoints.js';
import { writerLockPath } from '../store/layout.js';
import { FencedError } from '../store/errors.js';
import { idleSuspendStep, isRunningLifecycle, isSuspendable, serverIdleStep } from './idle.js';
import { StartSlots } from './startSlots.js';
import { acceptsHolderReport, afterLinkLoss, createAction, kindAfterAgentReport, VIEW_WAIT_MS, isStaleRevision, reorderPlan, closeOutcome, controlHandover, heartbeatAction, HOLDER_HEARTBEAT_MS, recordedHolderAction, reportChangesRow, restartAction, sleepAction, startAction, wakes, controlOnRequest, nextControllerRev, ownedHolders, sessionHolder, spawnOutcome, spendHolderRestart, type TabPresence } from './core/index.js';
import { orphanStep, type HolderProcess, type OrphanReport, type OrphanSighting } from './orphans.js';
import { HOLDER_INC_ENV, HOLDER_PROFILE_ENV, HOLDER_TAB_ENV, profileHolders } from './holderProcesses.js';

/** A live holder whose connection broke is reconnected this many times, this far apart, before
 * it is reported unreachable; a holder that died meanwhile is replaced instead. */
const HOLDER_RECONNECT_ATTEMPTS = 10;
const HOLDER_RECONNECT_DELAY_MS = 300;
/** The exit status of a server that found itself fenced (EX_TEMPFAIL: its successor runs). */
const FENCED_EXIT_CODE = 75;
/** How often idleness is checked. */
const IDLE_CHECK_MS = 1_000;
/** How often a running agent's `live` resume record is captured again (SPEC §9). */
const LIVE_CAPTURE_MS = 60_000;
/** The picker lists at most this many past sessions. */
const PAST_SESSIONS_LISTED = 50;
/** How often the profile's holders are compared with the rows that own them (SPEC §10). One look
 * reads /proc, a few milliseconds, so every 2 s costs nothing and finds an orphan soon. */
const ORPHAN_SWEEP_MS = 2_000;
/** An orphan is retired only once it stayed unowned this long: a short grace, longer than one
 * sweep, so a holder whose row is being written is never raced. */
const ORPHAN_GRACE_MS = 3_000;
/** The kind of a tab that runs no agent. */
const SHELL_KIND = 'shell';

interface TabRuntime {
  row: TabRow;
  link: Connection | null;
  state: HolderState | null;
  starting: Promise<void> | null;
  closing: boolean;
  /** Put to sleep: its holder's end is intended, not a loss. */
  sleeping: boolean;
  holderRestarts: number[];
  /** Every holder and child this server saw bound to the tab, for the retirement plan. */
  bound: ProcessRef[];
  /** When the holder last said anything (a pong counts), for the log. */
  lastHeard: number;
  /** Heartbeat pings sent since the holder last said anything (SPEC §10). */
  unanswered: number;
  /** A controller transfer sent to the holder and not yet acknowledged. */
  transfer: { clientId: string | null; rev: number } | null;
}

function newRuntime(row: TabRow): TabRuntime {
  return { row, link: null, state: null, starting: null, closing: false, sleeping: false, holderRestarts: [], bound: [], lastHeard: 0, unanswered: 0, transfer: null };
}

interface StartOptions {
  env?: NodeJS.ProcessEnv;
  umask?: number;
  size?: { cols: number; rows: number };
  /** Start the agent fresh even when a resume record exists (`f` on a failed tab). */
  fresh?: boolean;
}

interface ClientSession {
  id: string;
  conn: Connection;
  viewing: string | null;
  /** It stopped reading: topology waits until it drains, then comes whole (clientQueueBytes). */
  behind: boolean;
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
  /** This process's diagnostics for host status: counters since it started (src/diag). */
  diag?: () => { counters: Counters };
}

export class Server {
  private readonly tabs = new Map<string, TabRuntime>();
  private readonly clients = new Map<Connection, ClientSession>();
  private listener: net.Server | null = null;
  private idleSince = Date.now();
  private idleTimer: NodeJS.Timeout | null = null;
  /** Since when each unviewed, quiet, resumable tab has been so (idle suspension, SPEC §10). */
  private quietSince = new Map<string, number>();
  private readonly startSlots: StartSlots;
  private readonly startedAt = Date.now();
  private stopping = false;
  private captureTimer: NodeJS.Timeout | null = null;
  private heartbeatTimer: NodeJS.Timeout | null = null;
  private pingSeq = 0;
  /** Holder starts in flight, a closed tab's too, so a host stop can wait for every one. */
  private readonly starts = new Set<Promise<void>>();
  /** Terminations in flight, so a host stop can wait for them. */
  private readonly terminations = new Set<Promise<void>>();
  /** Holders (tab and incarnation) this server is ending: not orphans, though no row owns them. */
  private readonly endingHolders = new Map<string, { tabId: string; inc: string }>();
  private orphanTimer: NodeJS.Timeout | null = null;
  private orphansSeen = new Map<string, OrphanSighting>();
  private orphanReport: OrphanReport = { count: 0, oldestAgeMs: null };

  constructor(private readonly d: ServerDeps) {
    this.startSlots = new StartSlots(d.config.tabsMaxConcurrentStarts);
  }

  async start(): Promise<void> {
    try {
      pruneRecoveryFiles(this.d.paths.recoveryDir, Date.now());
    } catch (err) {
      this.d.log.warn('recovery-prune-failed', { code: errorCode(err) });
    }
    if (this.d.rebooted) this.moveTabsToHistoryAfterReboot();
    for (const row of this.d.registry.listTabs()) this.tabs.set(row.id, newRuntime(row));
    await this.listen();
    await Promise.all([...this.tabs.values()].map((t) => this.adoptOrStart(t)));
    this.idleTimer = setInterval(() => this.checkIdle(), IDLE_CHECK_MS);
    this.idleTimer.unref();
    this.captureTimer = setInterval(() => this.captureLiveRecords(), LIVE_CAPTURE_MS);
    this.captureTimer.unref();
    this.heartbeatTimer = setInterval(() => this.heartbeatHolders(), HOLDER_HEARTBEAT_MS);
    this.heartbeatTimer.unref();
    // Only after adoption: every recorded holder has had its chance to be owned.
    this.sweepOrphans();
    this.orphanTimer = setInterval(() => this.sweepOrphans(), ORPHAN_SWEEP_MS);
    this.orphanTimer.unref();
  }

  // ---- orphans ----

  /** The holder incarnations that are not orphans: those the rows own (the core's rule, SPEC §10)
   * and those this server is ending. */
  private ownedHolders(): { tabId: string; inc: string }[] {
    const rows = [...this.tabs.values()].map(({ row }) => ({ id: row.id, holder: row.holderInc ? { inc: row.holderInc, pid: null, startTime: null } : null, starting: null }));
    return [...ownedHolders(rows), ...this.endingHolders.values()];
  }

  /** Compares the profile's holders with their owners; an orphan past its grace is retired. */
  private sweepOrphans(): void {
    if (this.stopping) return;
    let holders: HolderProcess[];
    try {
      holders = profileHolders(this.d.paths.stateDir);
    } catch (err) {
      this.d.log.warn('orphan-sweep-failed', { code: errorCode(err) });
      return;
    }
    const step = orphanStep(this.orphansSeen, holders, this.ownedHolders(), Date.now(), ORPHAN_GRACE_MS);
    this.orphansSeen = step.seen;
    this.orphanReport = step.report;
    for (const h of step.retire) void this.track(this.retireOrphan(h));
  }

  /** Verified by credential, pid and start time, then ended like a closed tab's holder: it is told
   * to end its session, and its process and its child's session are ended alongside. One that
   * cannot be verified is left untouched and stays counted (SPEC §4). */
  private async retireOrphan(h: HolderProcess): Promise<void> {
    if (!this.stillWriter()) return;
    let conn: Connection;
    try {
      conn = await connectHolder(this.d.paths.holderSock(h.tabId, h.inc), this.holderKey(h.tabId, h.inc));
    } catch (err) {
      this.d.log.warn('orphan-unverifiable', { tab: h.tabId, holderPid: h.pid, code: errorCode(err) });
      return;
    }
    try {
      const state = await firstState(conn);
      const same = state.holderPid === h.pid && state.tabId === h.tabId && state.holderInc === h.inc && isSameProcess(h);
      if (!same) {
        this.d.log.warn('orphan-unverifiable', { tab: h.tabId, holderPid: h.pid });
        return;
      }
      // A row may have come to own it meanwhile (an adoption): then it is no orphan.
      if (this.stopping || this.ownedHolders().some((o) => o.tabId === h.tabId && o.inc === h.inc)) return;
      const bound: ProcessRef[] = [{ pid: h.pid, startTime: h.startTime }];
      if (state.childPid && state.childStart) bound.push({ pid: state.childPid, startTime: state.childStart });
      const plan = planRetirement(
        {
          tab: { tabId: h.tabId, agent: false, bound, sessions: state.childPid ? [state.childPid] : [] },
          otherTabs: [...this.tabs.values()].map((t) => this.claimsOf(t)),
          processes: snapshotProcesses(),
          // An orphan's tab may still live with a newer holder: its records are that tab's.
          records: [],
          protectedPids: [process.pid, 1],
        },
        'cleanup',
      );
      conn.send({ t: 'epoch', epoch: this.d.epoch });
      conn.send({ t: 'terminate', epoch: this.d.epoch, graceMs: this.d.config.closeGraceMs });
      const ended = await executeTermination(plan, { graceMs: this.d.config.closeGraceMs });
      this.d.log.info('orphan-retired', { tab: h.tabId, holderPid: h.pid, count: ended.killed });
    } catch (err) {
      this.d.log.warn('orphan-unverifiable', { tab: h.tabId, holderPid: h.pid, code: errorCode(err) });
    } finally {
      conn.close();
    }
  }

  /** Pings every bound holder; one silent for HOLDER_MISSED_BEATS beats is hung: it is killed
   * (verified by pid and start time) and the usual holder-lost path restarts it within budget. */
  private heartbeatHolders(): void {
    const now = Date.now();
    for (const tab of this.tabs.values()) {
      const link = tab.link;
      if (!link || tab.closing || tab.sleeping) continue;
      if (heartbeatAction(tab.unanswered) === 'timeout') {
        // A server stopped long enough to miss every pong may have been replaced meanwhile.
        if (!this.stillWriter()) return;
        const { holderPid, holderStart } = tab.row;
        this.d.log.warn('holder-timeout', { tab: tab.row.id, silentMs: now - tab.lastHeard });
        if (holderPid && holderStart) killVerified(holderPid, holderStart);
        link.close();
        continue;
      }
      tab.unanswered++;
      link.send({ t: 'ping', n: ++this.pingSeq });
    }
  }

  /** A new boot (SPEC §9, §10): the previous tab set is not started; it moves to history, and
   * every agent session in it stays resumable (its records are kept). Whatever of it still runs
   * (only possible when the boot id was overridden for a test) is ended, records untouched. */
  private moveTabsToHistoryAfterReboot(): void {
    const rows = this.d.registry.listTabs();
    if (rows.length === 0) return;
    const runtimes = rows.map(newRuntime);
    const snapshot = snapshotProcesses();
    for (const tab of runtimes) {
      const plan = this.planFor(tab, 'cleanup', runtimes, snapshot);
      void this.track(executeTermination({ ...plan, revoke: [], history: [] }, { graceMs: this.d.config.closeGraceMs }).then(() => undefined));
    }
    this.d.registry.moveAllTabsToHistory('reboot', Date.now(), (tab) => ({ agentKind: tab.kind, sessionId: tab.sessionId }));
    if (this.d.registry.getMeta('last_viewed_tab')) this.d.registry.setMeta('last_viewed_tab', '');
    this.d.log.info('reboot-history', { tabs: rows.length });
  }

  private track(p: Promise<void>): Promise<void> {
    const tracked = p.catch((err) => this.d.log.warn('termination-failed', { code: errorCode(err) }));
    this.terminations.add(tracked);
    void tracked.finally(() => this.terminations.delete(tracked));
    return tracked;
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
    const alive = !!row.holderPid && !!row.holderStart && isSameProcess({ pid: row.holderPid, startTime: row.holderStart });
    const recorded = recordedHolderAction({ ...row, alive });
    if (recorded === 'adopt' && row.holderPid && row.holderStart && row.holderInc) {
      try {
        crashPoint('holder.adopt.before');
        const conn = await connectHolder(this.d.paths.holderSock(row.id, row.holderInc), this.holderKey(row.id, row.holderInc));
        const state = await firstState(conn);
        if (state.holderPid !== row.holderPid || state.holderInc !== row.holderInc || state.tabId !== row.id) {
          conn.close();
          this.d.log.warn('adopt-mismatch', { tab: row.id });
          this.markUnverifiable(tab);
          return;
        }
        this.noteBound(tab, { pid: row.holderPid, startTime: row.holderStart });
        this.bindLink(tab, conn, state);
        crashPoint('holder.adopt.after');
        this.d.log.info('adopted', { tab: row.id, holderPid: row.holderPid });
        return;
      } catch (err) {
        // A live process we cannot verify is left untouched and reported (SPEC §4).
        this.d.log.warn('adopt-unverifiable', { tab: row.id, code: errorCode(err) });
        this.markUnverifiable(tab);
        return;
      }
    }
    if (row.holderPid) this.d.log.info('holder-gone', { tab: row.id });
    if (recorded === 'adoptPending' && (await this.adoptPending(tab))) return;
    // A resume is decided here: an agent tab whose record has expired is not started but moves
    // to history (SPEC §9, host stop).
    const resumesSession = !!this.agentSpec(tab)?.resume && !!row.sessionId && row.lifecycle === 'suspended';
    const verdict = resumesSession && row.desired === 'running' ? this.resumeVerdict(tab) : null;
    const next = startAction({ desired: row.desired, resumesSession, recordExpired: verdict !== null && !verdict.ok && verdict.reason === 'expired' });
    if (next === 'toHistory') this.retireToHistory(tab, 'expired');
    // Started in the background so that the server reports ready without waiting for spawns.
    else if (next === 'start') void this.startHolder(tab);
  }

  /** Removes a tab whose session can no longer resume automatically, keeping its identity in
   * history so the user can reopen it on purpose. */
  private retireToHistory(tab: TabRuntime, reason: 'expired'): void {
    const id = tab.row.id;
    const records = this.d.registry.listResumeRecordsOf(id);
    this.tabs.delete(id);
    this.d.registry.retireTab(id, {
      revoke: records.map((r) => r.id),
      history: [{ tabId: id, name: tab.row.name, agentKind: tab.row.kind, sessionId: tab.row.sessionId, cwd: tab.row.cwd, reason, at: Date.now(), command: tab.row.command }],
    });
    this.d.log.info('tab-to-history', { tab: id, reason });
  }

  // ---- agents and resume records ----

  private agentSpec(tab: TabRuntime): AgentSpec | null {
    if (tab.row.kind === SHELL_KIND) return null;
    return this.d.config.agents[tab.row.kind] ?? null;
  }

  /** What the tab runs when started fresh. */
  private baseCommand(tab: TabRuntime): string[] {
    const spec = this.agentSpec(tab);
    const own = tab.row.command ?? this.d.config.tabCommand;
    return spec && !tab.row.command ? startArgv(spec, own) : own;
  }

  /** The one validator before every automatic resume (SPEC §9). */
  private resumeVerdict(tab: TabRuntime) {
    const id = tab.row.id;
    return validateResume(this.d.registry.listResumeRecordsOf(id), {
      tabId: id,
      now: Date.now(),
      maxAgeMs: RESUME_RECORD_MAX_AGE_MS,
      heldElsewhere: (sessionId) => sessionHolder(this.sessionClaims(), sessionId, tab.row.id) !== null,
    });
  }

  /** The argv that resumes the tab's agent session, when a valid record allows it. */
  private resumeCommand(tab: TabRuntime): string[] | null {
    const spec = this.agentSpec(tab);
    if (!spec?.resume) return null;
    const verdict = this.resumeVerdict(tab);
    if (!verdict.ok) return null;
    return resumeArgv(spec, tab.row.command ?? this.d.config.tabCommand, verdict.record.sessionId);
  }

  /** Records (origin `live`) the session the tab's agent runs now. A closed or closing tab
   * records nothing: no late report may recreate its resume authority (SPEC §9). */
  private captureLive(tab: TabRuntime): void {
    const { row } = tab;
    if (!this.tabs.has(row.id) || tab.closing || tab.sleeping || !row.sessionId || row.kind === SHELL_KIND) return;
    this.d.registry.putResumeRecord({ tabId: row.id, agentKind: row.kind, sessionId: row.sessionId, cwd: row.cwd, name: row.name, origin: 'live', capturedAt: Date.now(), command: row.command });
  }

  private captureLiveRecords(): void {
    for (const tab of this.tabs.values()) {
      if (tab.state?.lifecycle === 'running') {
        try {
          this.captureLive(tab);
          // The holder restarts crashed children on its own; it resumes only what the validator
          // allows now, so its resume argv is refreshed with every capture.
          if (tab.row.sessionId) tab.link?.send({ t: 'setResume', epoch: this.d.epoch, command: this.resumeCommand(tab) });
        } catch (err) {
          if (err instanceof FencedError) return this.fenced();
          this.d.log.warn('capture-failed', { tab: tab.row.id, code: errorCode(err) });
        }
      }
    }
  }

  /** The child reported its agent session over the bridge: the tab now holds that session. */
  private onAgentReport(tab: TabRuntime, state: HolderState): void {
    const agent = state.agent;
    if (!agent?.sessionId || !acceptsHolderReport(this.presence(tab))) return;
    // A session another live tab holds stays that tab's: one session, one live tab (SPEC §9).
    if (sessionHolder(this.sessionClaims(), agent.sessionId, tab.row.id)) return;
    const kind = kindAfterAgentReport(tab.row.kind, agent.kind ?? null, Object.keys(this.d.config.agents));
    if (tab.row.sessionId === agent.sessionId && tab.row.kind === kind) return;
    this.d.registry.updateTab(tab.row.id, { sessionId: agent.sessionId, kind }, { topology: false });
    tab.row = this.d.registry.getTab(tab.row.id) ?? tab.row;
    this.captureLive(tab);
    tab.link?.send({ t: 'setResume', epoch: this.d.epoch, command: this.resumeCommand(tab) });
  }

  // ---- retirement ----

  /** What the core's guards need of a tab; null once it is no longer a live tab here. */
  private presence(tab: TabRuntime | undefined): TabPresence | null {
    if (!tab || this.tabs.get(tab.row.id) !== tab) return null;
    return { closing: tab.closing, ending: tab.sleeping || this.stopping };
  }

  /** Every live tab's agent session, for the one-session-one-tab guard (SPEC §9). */
  private sessionClaims(): { id: string; sessionId: string | null; closing: boolean }[] {
    return [...this.tabs.values()].map((t) => ({ id: t.row.id, sessionId: t.row.sessionId, closing: t.closing }));
  }

  private noteBound(tab: TabRuntime, ref: { pid: number | null; startTime: string | null }): void {
    if (!ref.pid || !ref.startTime) return;
    if (!tab.bound.some((b) => b.pid === ref.pid && b.startTime === ref.startTime)) tab.bound.push({ pid: ref.pid, startTime: ref.startTime });
  }

  private claimsOf(tab: TabRuntime): TabClaims {
    const bound = [...tab.bound];
    if (tab.row.holderPid && tab.row.holderStart) bound.push({ pid: tab.row.holderPid, startTime: tab.row.holderStart });
    if (tab.state?.childPid && tab.state.childStart) bound.push({ pid: tab.state.childPid, startTime: tab.state.childStart });
    const sessions = [tab.state?.childPid, tab.row.childPid, ...tab.bound.map((b) => b.pid)].filter((p): p is number => typeof p === 'number' && p > 0);
    return { tabId: tab.row.id, agent: tab.row.kind !== SHELL_KIND || tab.state?.agent?.sessionId != null, bound, sessions: [...new Set(sessions)] };
  }

  /** One snapshot, taken before any state is pruned (SPEC §9). */
  private planFor(tab: TabRuntime, reason: RetireReason, all: TabRuntime[] = [...this.tabs.values()], processes = snapshotProcesses()): RetirementPlan {
    return planRetirement(
      {
        tab: this.claimsOf(tab),
        otherTabs: all.filter((t) => t !== tab && t.row.id !== tab.row.id && !t.closing).map((t) => this.claimsOf(t)),
        processes,
        records: this.d.registry.listResumeRecords(),
        protectedPids: [process.pid, 1],
      },
      reason,
    );
  }

  /** Ends what the plan names: the holder is told to end its session gracefully, and the plan is
   * carried out alongside (graceful signal, grace window, verified SIGKILL). Never blocks. */
  private endProcesses(tab: TabRuntime, plan: RetirementPlan): Promise<void> {
    const link = tab.link;
    const inc = tab.row.holderInc;
    const ending = `${tab.row.id}\n${inc}`;
    if (inc) this.endingHolders.set(ending, { tabId: tab.row.id, inc });
    crashPoint('holder.terminate.before');
    link?.send({ t: 'terminate', epoch: this.d.epoch, graceMs: this.d.config.closeGraceMs });
    crashPoint('holder.terminate.after');
    return this.track(
      executeTermination(plan, { graceMs: this.d.config.closeGraceMs })
        .then(() => {
          link?.close();
        })
        .finally(() => {
          this.endingHolders.delete(ending);
        }),
    );
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
      if (state.tabId !== row.id || state.holderInc !== row.holderInc || !start || !procEnvironHas(state.holderPid, HOLDER_INC_ENV, row.holderInc!)) {
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

  private startHolder(tab: TabRuntime, opts: StartOptions = {}): Promise<void> {
    if (tab.starting) return tab.starting;
    // Queued behind other starts (tabsMaxConcurrentStarts); a tab retired while it waited starts nothing.
    const start = () => (!this.tabs.has(tab.row.id) || tab.closing || tab.sleeping || this.stopping ? Promise.resolve() : this.doStartHolder(tab, opts));
    const starting = this.startSlots.run(start).finally(() => {
      tab.starting = null;
      this.starts.delete(starting);
    });
    tab.starting = starting;
    this.starts.add(starting);
    return starting;
  }

  private async doStartHolder(tab: TabRuntime, opts: StartOptions): Promise<void> {
    const { env, umask, size } = opts;
    const id = tab.row.id;
    const resumeCommand = this.resumeCommand(tab);
    const inc = newIncarnation();
    // The pending incarnation is committed before the spawn, so a crash between the two
    // leaves an orphan that reconciliation can find (SPEC §15).
    this.d.registry.updateTab(id, { holderInc: inc, holderPid: null, holderStart: null, childPid: null, lifecycle: 'starting', desired: 'running', lastExit: null }, { topology: false });
    tab.row = this.d.registry.getTab(id)!;
    tab.state = null;
    this.broadcastStatus(tab);
    const childEnv = sanitizeChildEnv(env ?? this.d.holderEnv);
    const socketPath = this.d.paths.holderSock(id, inc);
    try {
      crashPoint('holder.spawn.before');
      const spawned = await spawnHolder({
        entry: this.d.entry,
        env: { ...this.d.holderEnv, [HOLDER_TAB_ENV]: id, [HOLDER_INC_ENV]: inc, [HOLDER_PROFILE_ENV]: this.d.paths.stateDir },
        init: {
          tabId: id,
          holderInc: inc,
          epoch: this.d.epoch,
          command: opts.fresh || !resumeCommand ? this.baseCommand(tab) : resumeCommand,
          resumeCommand,
          recoveryDir: this.d.paths.recoveryDir,
          bridgeKey: deriveKey(this.d.secret, 'bridge', id, inc).toString('base64'),
          bridgeSocketPath: this.d.paths.bridgeSock(id, inc),
          agentKind: tab.row.kind === SHELL_KIND ? null : tab.row.kind,
          stallNoticeMs: this.d.config.tabsStallNoticeSeconds * 1000,
          unresponsiveRestartMs: this.d.testUnresponsiveMs ? this.d.testUnresponsiveMs * 4 : this.d.config.tabsUnresponsiveRestartSeconds * 1000,
          unresponsiveMs: this.d.testUnresponsiveMs,
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
          serverSocketPath: this.d.paths.serverSock,
          writerLockPath: writerLockPath(this.d.paths.stateDir),
          profile: this.d.paths.profile,
        },
      });
      crashPoint('holder.spawn.after');
      const start = procStartTime(spawned.pid);
      if (this.d.testBindDelayMs) await delay(this.d.testBindDelayMs);
      if (spawnOutcome(this.presence(tab), tab.row.holderInc, inc) === 'kill') {
        // A spawn that completes after its tab was retired (or the host stopped) is killed
        // before it is bound.
        if (start) killVerified(spawned.pid, start);
        if (spawned.childPid) killSession(spawned.childPid);
        return;
      }
      this.noteBound(tab, { pid: spawned.pid, startTime: start });
      this.d.registry.updateTab(id, { holderPid: spawned.pid, holderStart: start, childPid: spawned.childPid }, { topology: false });
      tab.row = this.d.registry.getTab(id)!;
      crashPoint('holder.bind.before');
      const conn = await connectHolder(socketPath, this.holderKey(id, inc));
      const state = await firstState(conn);
      this.bindLink(tab, conn, state);
      crashPoint('holder.bind.after');
    } catch (err) {
      if (err instanceof FencedError) return this.fenced();
      this.d.log.error('holder-start-failed', { tab: id, code: errorCode(err) });
      if (errorCode(err) === 'holder-timeout' && this.tabs.has(id) && !tab.closing && !tab.sleeping && !this.stopping && this.takeRestart(tab)) {
        // It missed its PTY deadline and was killed; a replacement counts against the restart
        // budget (SPEC §10). Started once this start has settled, so it is not joined to it.
        setImmediate(() => void this.startHolder(tab));
        return;
      }
      if (this.tabs.has(id) && !tab.closing && !tab.sleeping) {
        this.d.registry.updateTab(id, { lifecycle: 'failed' }, { topology: false });
        tab.row = this.d.registry.getTab(id) ?? tab.row;
        this.broadcastStatus(tab);
      }
    }
  }

  private bindLink(tab: TabRuntime, conn: Connection, state: HolderState): void {
    tab.link = conn;
    // A transfer sent over an earlier link is moot: the holder's state says who controls it.
    tab.transfer = null;
    conn.send({ t: 'epoch', epoch: this.d.epoch });
    this.applyHolderState(tab, state);
    tab.lastHeard = Date.now();
    tab.unanswered = 0;
    conn.onMessage((msg) => {
      const m = msg as { t: string; state?: HolderState };
      if (tab.link === conn) {
        tab.lastHeard = Date.now();
        tab.unanswered = 0;
      }
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
    // A late state after a close or sleep changes nothing (SPEC §9).
    if (!acceptsHolderReport(this.presence(tab))) return;
    this.noteBound(tab, { pid: state.childPid, startTime: state.childStart });
    this.onAgentReport(tab, state);
    const lifecycle = state.lifecycle;
    const patch: Partial<TabRow> = {
      lifecycle,
      childPid: state.childPid,
      childInc: state.childInc,
      lastExit: state.exit,
    };
    if (reportChangesRow(tab.row, state)) {
      this.d.registry.updateTab(tab.row.id, patch, { topology: false });
      tab.row = this.d.registry.getTab(tab.row.id) ?? tab.row;
    }
    this.broadcastStatus(tab);
  }

  private async onHolderLost(tab: TabRuntime): Promise<void> {
    // A holder drops a server whose epoch it has seen superseded: a fenced server stops here,
    // never reconnects or restarts anything (SPEC §5).
    for (let attempts = 0; ; attempts++) {
      const { holderPid, holderStart, holderInc } = tab.row;
      const action = afterLinkLoss({
        writer: this.stillWriter(),
        wanted: !this.stopping && !tab.closing && !tab.sleeping && this.tabs.has(tab.row.id),
        linked: tab.link !== null,
        holderAlive: !!holderPid && !!holderStart && !!holderInc && isLiveProcess({ pid: holderPid, startTime: holderStart }),
        attempts,
        maxAttempts: HOLDER_RECONNECT_ATTEMPTS,
      });
      if (action === 'nothing') return;
      if (action === 'replace') break;
      if (action === 'unverifiable') {
        // Alive but unreachable: left untouched and reported (SPEC §4).
        this.markUnverifiable(tab);
        return;
      }
      if (attempts > 0) await delay(HOLDER_RECONNECT_DELAY_MS);
      // The process lives: the connection broke, not the holder. Reconnect.
      try {
        const conn = await connectHolder(this.d.paths.holderSock(tab.row.id, holderInc!), this.holderKey(tab.row.id, holderInc!));
        this.bindLink(tab, conn, await firstState(conn));
        return;
      } catch (err) {
        this.d.log.warn('holder-reconnect-failed', { tab: tab.row.id, code: errorCode(err), attempt: attempts + 1 });
      }
    }
    this.d.log.warn('holder-died', { tab: tab.row.id });
    // The dead holder's PTY hung up its child's session; whatever ignored that is ended too,
    // so a restart never leaves the previous incarnation's processes behind.
    const childPid = tab.state?.childPid;
    const childStart = tab.state?.childStart;
    if (childPid && childStart && isSameProcess({ pid: childPid, startTime: childStart })) killSession(childPid);
    if (tab.closing || tab.sleeping || !this.tabs.has(tab.row.id)) return;
    if (!this.takeRestart(tab)) {
      this.d.registry.updateTab(tab.row.id, { lifecycle: 'failed', holderPid: null, holderStart: null, childPid: null }, { topology: false });
      tab.row = this.d.registry.getTab(tab.row.id) ?? tab.row;
      this.broadcastStatus(tab);
      return;
    }
    await this.startHolder(tab);
  }

  /** Spends one holder restart of the tab's budget; false when the minute's budget is spent. */
  private takeRestart(tab: TabRuntime): boolean {
    const spent = spendHolderRestart(tab.holderRestarts, Date.now());
    tab.holderRestarts = spent.times;
    return spent.ok;
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
    const session: ClientSession = { id: '', conn, viewing: null, behind: false };
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
      if (err instanceof FencedError) {
        fail({ code: 'fenced', message: 'This a1 server was replaced; nothing was changed.' });
        return this.fenced();
      }
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
    close: (_s, a) => this.staleRevision(a) ?? this.closeTab(String(a.tabId), a.wait === true),
    sleep: (_s, a) => this.sleepTab(String(a.tabId)),
    restart: (_s, a) => this.restartTab(String(a.tabId), a.fresh === true, a.force === true),
    openSession: (_s, a) => this.openSession(a),
    sessions: () => ({ sessions: this.pastSessions() }),
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
    if (!isStaleRevision(typeof a.expectedRev === 'number' ? a.expectedRev : undefined, this.d.registry.revision)) return null;
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
    const plan = reorderPlan(this.orderedTabs().map((t) => t.row.id), tabId, toIndex);
    if (plan.t === 'noTab') return { error: { code: 'no-tab', message: 'That tab no longer exists.' } };
    if (plan.t === 'badIndex') return { error: { code: 'bad-index', message: 'That position is outside the strip.' } };
    if (plan.t === 'unchanged') return { rev: this.d.registry.revision };
    const rev = this.d.registry.reorderTabs(plan.order);
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
    const current = this.controllerOf(tab);
    if (current === session.id) return { controller: true };
    if (!controlOnRequest(force ? 'claim' : 'view', current, this.views(current, tabId), session.id)) return { controller: false };
    await this.setController(tab, session.id);
    return { controller: true };
  }

  private async createTab(a: Record<string, unknown>, session?: { sessionId: string; kind: string; name: string | null }): Promise<unknown> {
    const stale = this.staleRevision(a);
    if (stale) return stale;
    let kind = SHELL_KIND;
    if (session) kind = session.kind;
    else if (typeof a.agent === 'string' && a.agent !== '') {
      if (!this.d.config.agents[a.agent]) return { error: { code: 'unknown-agent', message: `"${a.agent}" is not an agent kind in the config.` } };
      kind = a.agent;
    }
    // An opened session's hold was checked by openSession, the caller.
    if (createAction(false, this.tabs.size, this.d.config.tabsMax) === 'full') {
      return { error: { code: 'tabs-max', message: `The tab limit of ${this.d.config.tabsMax} is reached; close a tab to open another.` } };
    }
    const cwd = typeof a.cwd === 'string' ? a.cwd : process.cwd();
    const command = Array.isArray(a.command) && a.command.length > 0 ? (a.command as unknown[]).map(String) : null;
    let userName = '';
    if (typeof a.name === 'string' && a.name.length > 0) {
      const verdict = validateTabName(a.name);
      if (!verdict.ok) return { error: { code: 'invalid-name', message: verdict.reason } };
      userName = verdict.name;
    }
    const name = userName || session?.name || defaultTabName(this.orderedTabs().map((t) => t.row.name));
    const { tab: row, revision } = this.d.registry.insertTab({
      id: newId('tab'),
      kind,
      sessionId: session?.sessionId ?? null,
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
    const tab = newRuntime(row);
    this.tabs.set(row.id, tab);
    // An opened session is this tab's from the start: recorded before the tab accepts input.
    if (session) this.captureLive(tab);
    this.broadcast({ t: 'tab', rev: revision, tab: this.tabInfo(tab) });
    const env = a.env && typeof a.env === 'object' ? (a.env as NodeJS.ProcessEnv) : undefined;
    const umask = typeof a.umask === 'number' ? a.umask : undefined;
    const size = typeof a.cols === 'number' && typeof a.rows === 'number' ? { cols: a.cols, rows: a.rows } : undefined;
    void this.startHolder(tab, { env, umask, size });
    return { tabId: row.id };
  }

  /** `a1 --session`: focus the live tab that holds the session, or open it in a new tab. One
   * agent session is held by at most one live tab (SPEC §9). */
  private async openSession(a: Record<string, unknown>): Promise<unknown> {
    const sessionId = typeof a.sessionId === 'string' ? a.sessionId : '';
    if (!sessionId) return { error: { code: 'bad-session', message: 'Name a session id.' } };
    const held = sessionHolder(this.sessionClaims(), sessionId);
    if (held) return { tabId: held.id, focused: true };
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
    return this.createTab({ ...a, cwd, command, name: undefined }, { sessionId, kind, name: record?.name ?? past?.name ?? null });
  }

  /** Sessions no live tab holds (records of gone tabs, and history), newest first, one each. */
  private pastSessions(): { sessionId: string; agent: string; name: string; cwd: string; state: string }[] {
    const held = new Set([...this.tabs.values()].map((t) => t.row.sessionId).filter(Boolean));
    const out = new Map<string, { sessionId: string; agent: string; name: string; cwd: string; state: string; at: number }>();
    for (const r of this.d.registry.listResumeRecords()) {
      if (held.has(r.sessionId) || this.tabs.has(r.tabId)) continue;
      const seen = out.get(r.sessionId);
      if (!seen || seen.at < r.capturedAt) out.set(r.sessionId, { sessionId: r.sessionId, agent: r.agentKind, name: r.name, cwd: r.cwd, state: r.origin, at: r.capturedAt });
    }
    for (const h of this.d.registry.listHistory(PAST_SESSIONS_LISTED)) {
      if (!h.sessionId || held.has(h.sessionId) || out.has(h.sessionId)) continue;
      out.set(h.sessionId, { sessionId: h.sessionId, agent: h.agentKind, name: h.name, cwd: h.cwd, state: h.reason, at: h.at });
    }
    return [...out.values()].sort((a, b) => b.at - a.at).slice(0, PAST_SESSIONS_LISTED).map(({ at: _at, ...rest }) => rest);
  }

  /** Checkpoint and stop (SPEC §9): a `sleep` record, then the processes end; the tab stays. */
  private async sleepTab(tabId: string): Promise<unknown> {
    const tab = this.tabs.get(tabId);
    const action = sleepAction({
      present: !!tab && !tab.closing,
      asleep: !!tab && (tab.sleeping || tab.row.lifecycle === 'suspended'),
      resumable: !!tab && !!this.agentSpec(tab)?.resume && !!tab.row.sessionId,
    });
    if (action === 'noTab' || !tab) return { error: { code: 'no-tab', message: 'That tab no longer exists.' } };
    if (action === 'alreadyAsleep') return { asleep: true };
    if (action === 'notResumable') return { error: { code: 'not-resumable', message: 'This tab cannot sleep: it has no agent session to resume.' } };
    if (tab.starting) await tab.starting.catch(() => undefined);
    const { row } = tab;
    this.d.registry.putResumeRecord({ tabId, agentKind: row.kind, sessionId: row.sessionId!, cwd: row.cwd, name: row.name, origin: 'sleep', capturedAt: Date.now(), command: row.command });
    const plan = this.planFor(tab, 'cleanup');
    tab.sleeping = true;
    this.d.registry.updateTab(tabId, { lifecycle: 'suspended', desired: 'stopped', holderPid: null, holderStart: null, childPid: null }, { topology: false });
    tab.row = this.d.registry.getTab(tabId) ?? tab.row;
    tab.state = null;
    // Clients learn the tab sleeps before its holder goes, so none of them rebinds to it.
    this.broadcastStatus(tab);
    await this.endProcesses(tab, { ...plan, revoke: [], history: [] });
    tab.link = null;
    return { asleep: true };
  }

  /** Viewing a sleeping tab (or typing into it) resumes its agent session. */
  private wake(tab: TabRuntime): void {
    if (!wakes({ asleep: tab.sleeping || tab.row.lifecycle === 'suspended', starting: !!tab.starting, linked: !!tab.link })) return;
    tab.sleeping = false;
    tab.holderRestarts = [];
    // The checkpoint is spent: from here the running agent's `live` record is its authority,
    // so an old sleep record cannot outlive a later quit record's expiry.
    const sleepRecords = this.d.registry.listResumeRecordsOf(tab.row.id).filter((r) => r.origin === 'sleep');
    this.captureLive(tab);
    // Desired running is committed before the checkpoint is spent: a crash in between resumes the
    // tab at the next start instead of leaving it asleep with only an expiring record.
    this.d.registry.updateTab(tab.row.id, { desired: 'running' }, { topology: false });
    tab.row = this.d.registry.getTab(tab.row.id) ?? tab.row;
    if (sleepRecords.length > 0) this.d.registry.deleteResumeRecords(sleepRecords.map((r) => r.id));
    void this.startHolder(tab);
  }

  /** `r` or `f` on an exited or failed tab; `force` (/restart) also restarts a running one. */
  private restartTab(tabId: string, fresh: boolean, force = false): unknown {
    const tab = this.tabs.get(tabId);
    if (!tab || tab.closing) return { error: { code: 'no-tab', message: 'That tab no longer exists.' } };
    const action = restartAction({
      linked: !!tab.link,
      starting: !!tab.starting,
      lifecycle: tab.state?.lifecycle ?? tab.row.lifecycle,
      suspended: tab.row.lifecycle === 'suspended',
      force,
    });
    if (action === 'restartRunningChild') tab.link?.send({ t: 'restartChild', epoch: this.d.epoch, fresh, force: true });
    else if (action === 'restartChild') tab.link?.send({ t: 'restartChild', epoch: this.d.epoch, fresh });
    else if (action === 'startHolder') {
      // A restart the user asked for starts a new budget.
      tab.holderRestarts = [];
      void this.startHolder(tab, { fresh });
    }
    return { restarted: action !== 'none' };
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
    this.wake(tab);
    const deadline = Date.now() + VIEW_WAIT_MS;
    while (!tab.link && Date.now() < deadline) {
      if (tab.starting) await Promise.race([tab.starting, delay(250)]);
      else if (tab.row.lifecycle === 'failed') break;
      else await delay(50);
    }
    if (!tab.link || !tab.row.holderInc) return { error: { code: 'holder-unavailable', message: 'The tab is not running.' } };
    const current = this.controllerOf(tab);
    if (controlOnRequest(a.takeControl === true ? 'claim' : 'view', current, this.views(current, tabId), session.id)) await this.setController(tab, session.id);
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

  /** The tab's controller as it will be once the transfer in flight lands (the core's rule). */
  private controllerOf(tab: TabRuntime): string | null {
    return tab.transfer ? tab.transfer.clientId : (tab.state?.controller.clientId ?? null);
  }

  /** Whether `clientId` is attached and viewing the tab. */
  private views(clientId: string | null, tabId: string): boolean {
    return clientId !== null && [...this.clients.values()].some((c) => c.id === clientId && c.viewing === tabId);
  }

  /** Controller transfer is ordered by the holder; the revision is committed after its ack. */
  private setController(tab: TabRuntime, clientId: string | null): Promise<void> {
    const link = tab.link;
    if (!link) return Promise.resolve();
    const rev = nextControllerRev(tab.state?.controller.rev ?? 0, tab.transfer?.rev ?? null, tab.row.controllerRev);
    tab.transfer = { clientId, rev };
    return new Promise((resolve) => {
      const settle = () => {
        if (tab.transfer?.rev === rev) tab.transfer = null;
        resolve();
      };
      const timer = setTimeout(() => {
        off?.();
        settle();
      }, 2_000);
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
          settle();
        }
      });
      crashPoint('holder.setController.before');
      link.send({ t: 'setController', epoch: this.d.epoch, clientId, rev });
      crashPoint('holder.setController.after');
    });
  }

  private handOverControl(gone: ClientSession): void {
    for (const tab of this.tabs.values()) this.releaseControl(gone, tab.row.id);
  }

  /** A client that stops viewing a tab stops controlling it: control passes to another client
   * viewing it, or to nobody, so the next client that types takes it. */
  private releaseControl(session: ClientSession, tabId: string): void {
    const tab = this.tabs.get(tabId);
    if (!tab || this.controllerOf(tab) !== session.id) return;
    const viewers = [...this.clients.values()].filter((c) => c !== session && c.id && c.viewing === tabId).map((c) => c.id);
    const next = controlHandover(session.id, viewers);
    if (next !== undefined) void this.setController(tab, next);
  }

  /** Close (SPEC §9): the plan is made from one snapshot before anything is pruned; the tab,
   * its records and its history entry change in one transaction; every client loses the tab at
   * once; the processes end asynchronously. A second close finds nothing and does nothing. */
  private closeTab(tabId: string, wait: boolean): unknown {
    const tab = this.tabs.get(tabId);
    if (!tab || closeOutcome(this.presence(tab)) === 'noop') return { closed: false };
    const plan = this.planFor(tab, 'user');
    tab.closing = true;
    this.tabs.delete(tabId);
    const at = Date.now();
    const history: Omit<HistoryEntry, 'id'>[] = [];
    const seen = new Set<string>();
    for (const r of plan.history) {
      if (seen.has(r.sessionId)) continue;
      seen.add(r.sessionId);
      history.push({ tabId, name: tab.row.name, agentKind: r.agentKind, sessionId: r.sessionId, cwd: r.cwd, reason: 'closed', at, command: tab.row.command });
    }
    // Revoking is not forgetting: an agent session with no record left still goes to history.
    if (tab.row.sessionId && !seen.has(tab.row.sessionId) && tab.row.kind !== SHELL_KIND) {
      history.push({ tabId, name: tab.row.name, agentKind: tab.row.kind, sessionId: tab.row.sessionId, cwd: tab.row.cwd, reason: 'closed', at, command: tab.row.command });
    }
    const rev = this.d.registry.retireTab(tabId, { revoke: plan.revoke, history });
    if (this.d.registry.getMeta('last_viewed_tab') === tabId) this.d.registry.setMeta('last_viewed_tab', '');
    this.broadcast({ t: 'tabRemoved', rev, id: tabId });
    const ended = this.endProcesses(tab, plan);
    return wait ? ended.then(() => ({ closed: true })) : { closed: true };
  }

  private async hostStop(): Promise<unknown> {
    // A shell tab's stop commits nothing before its processes end, so the fence is checked first.
    if (!this.stillWriter()) return { error: { code: 'fenced', message: 'This a1 server was replaced; nothing was changed.' } };
    this.stopping = true;
    this.broadcast({ t: 'hostStopping' });
    const tabs = [...this.tabs.values()];
    // Spawns in flight end themselves once they see `stopping`, a closed tab's too; wait for them.
    await Promise.all([...this.starts].map((p) => p.catch(() => undefined)));
    const snapshot = snapshotProcesses();
    const running = tabs.filter((t) => !t.sleeping && t.row.lifecycle !== 'suspended');
    for (const t of running) {
      // Resumable agents get a `quit` record: the next start resumes them (SPEC §9, host stop).
      const { row } = t;
      if (row.sessionId && this.agentSpec(t)?.resume) {
        this.d.registry.putResumeRecord({ tabId: row.id, agentKind: row.kind, sessionId: row.sessionId, cwd: row.cwd, name: row.name, origin: 'quit', capturedAt: Date.now(), command: row.command });
      }
    }
    const plans = running.map((t) => ({ tab: t, plan: this.planFor(t, 'cleanup', tabs, snapshot) }));
    for (const t of running) t.sleeping = true; // their ends are intended
    await Promise.all([...plans.map(({ tab, plan }) => this.endProcesses(tab, { ...plan, revoke: [], history: [] })), ...this.terminations]);
    for (const t of running) {
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
      crashRecords: this.d.paths.crashDir,
      registry: this.d.paths.registryFile,
      orphans: this.orphanReport,
      ...this.d.diag?.(),
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
      kind: r.kind,
      sessionId: r.sessionId,
      glyph: tab.state?.glyph,
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
      c.conn.send({ t: 'tabs', rev: this.d.registry.revision, tabs: this.tabInfos() });
    });
    return true;
  }

  private broadcastStatus(tab: TabRuntime): void {
    if (this.tabs.has(tab.row.id)) this.broadcast({ t: 'tabStatus', tab: this.tabInfo(tab) });
  }

  // ---- lifetime ----

  private checkIdle(): void {
    this.suspendIdleTabs();
    const runningTabs = [...this.tabs.values()].filter((t) => t.starting || isRunningLifecycle(t.row.lifecycle)).length;
    const step = serverIdleStep(this.idleSince, { clients: this.clients.size, runningTabs }, Date.now(), this.d.config.serverIdleExitMinutes * 60_000);
    this.idleSince = step.idleSince;
    if (step.exit) {
      this.d.log.info('idle-exit');
      this.shutdown(0);
    }
  }

  /** Idle suspension (SPEC §10): an unviewed, quiet tab that can resume sleeps (the `sleep` path);
   * viewing it wakes it. */
  private suspendIdleTabs(): void {
    if (this.d.config.idleSuspendMinutes === 0) return;
    const viewed = new Set([...this.clients.values()].map((c) => c.viewing));
    const facts = [...this.tabs.values()].map((t) => {
      const running = !!t.link && !t.starting && !t.closing && !t.sleeping && t.state?.lifecycle === 'running';
      const seen = { tabId: t.row.id, running, viewed: viewed.has(t.row.id), glyph: t.state?.glyph ?? null };
      // The validator reads the registry, so it runs only for tabs that are otherwise candidates.
      return { ...seen, resumable: isSuspendable({ ...seen, resumable: true }) && this.resumeCommand(t) !== null };
    });
    const step = idleSuspendStep(this.quietSince, facts, Date.now(), this.d.config.idleSuspendMinutes * 60_000);
    this.quietSince = step.quietSince;
    for (const tabId of step.suspend) {
      this.d.log.info('idle-suspend', { tab: tabId });
      void this.sleepTab(tabId).catch((err) => this.d.log.warn('idle-suspend-failed', { tab: tabId, code: errorCode(err) }));
    }
  }

  shutdown(code: number): void {
    if (this.idleTimer) clearInterval(this.idleTimer);
    if (this.captureTimer) clearInterval(this.captureTimer);
    if (this.heartbeatTimer) clearInterval(this.heartbeatTimer);
    if (this.orphanTimer) clearInterval(this.orphanTimer);
    for (const c of this.clients.keys()) c.close();
    for (const t of this.tabs.values()) t.link?.close();
    // A fenced server's socket path is its successor's now; closing the listener would unlink
    // that path too (libuv removes a Unix socket's file on close).
    if (code !== FENCED_EXIT_CODE) {
      this.listener?.close();
      try {
        fs.unlinkSync(this.d.paths.serverSock);
      } catch {
        // Already gone.
      }
    }
    this.d.onExit(code);
  }

  /** Whether this server still holds the lease at its epoch; a fenced one ends here (SPEC §4: the
   * epoch is checked before signalling any process). */
  private stillWriter(): boolean {
    if (this.d.registry.isWriter) return true;
    this.fenced();
    return false;
  }

  /** A newer epoch took over (SPEC §5): this server ends at once, committing and commanding nothing. */
  private fenced(): void {
    if (this.stopping) return;
    this.stopping = true;
    this.d.log.error('fenced', { epoch: this.d.epoch });
    this.shutdown(FENCED_EXIT_CODE);
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
