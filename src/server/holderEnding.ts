// Ending a tab's processes (SPEC §4, §9): what a close, a kill or a failed holder leaves is
// planned from one process snapshot and ended (graceful signal, grace window, verified SIGKILL),
// and a new start waits until nothing of the tab's earlier holders runs.
import { setTimeout as delay } from 'node:timers/promises';
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import { errorCode } from '../log.js';
import type { Registry } from '../store/registry.js';
import { isLiveProcess } from '../proc.js';
import { planRetirement, type ProcessRef, type RetireReason, type RetirementPlan, type SessionClaim, type TabClaims } from '../lifecycle/retirement.js';
import { executeTermination, TERMINATE_POLL_MS, type TerminateIO } from '../lifecycle/terminate.js';
import { startClearance } from '../lifecycle/startClearance.js';
import { snapshotProcesses, snapshotSharedServers } from '../lifecycle/processSnapshot.js';
import { crashPoint } from '../crashPoints.js';
import type { Paths } from '../paths.js';
import { liveClaims, uniqueLeaders, type Clearance, type TabProcessBook, type TabProcesses } from './tabProcesses.js';
import type { CoreState, Effect } from './core/index.js';

/** An earlier process of a tab still alive this long after its SIGKILL is stuck in the kernel
 * (or was never ours to end): the tab's start is refused rather than run beside it. */
const EARLIER_EXIT_DEADLINE_MS = 5_000;

export interface HolderEndingDeps {
  paths: Paths;
  config: Config;
  registry: Registry;
  epoch: number;
  log: Logger;
  terminateIO: TerminateIO;
  testEarlierSignalsLost?: boolean;
  book: TabProcessBook;
  state: () => CoreState;
  stillWriter: () => boolean;
}

export class HolderEnding {
  /** Terminations in flight, so a host stop can wait for them. */
  readonly terminations = new Set<Promise<void>>();
  /** Holders this server is ending: not orphans, though no row owns them. */
  readonly endingHolders = new Map<string, { tabId: string; inc: string }>();
  /** Closes in progress: their plan covers these processes, so a kill of one is not planned twice. */
  readonly closing = new Map<string, Set<number>>();

  constructor(private readonly d: HolderEndingDeps) {}

  track(p: Promise<void>): Promise<void> {
    const tracked = p.catch((err) => this.d.log.warn('termination-failed', { code: errorCode(err) }));
    this.terminations.add(tracked);
    void tracked.finally(() => this.terminations.delete(tracked));
    return tracked;
  }

  /** A dead holder's PTY hung up its child's session; whatever ignored that is ended now, whether
   * or not the tab starts again (its start checks once more and waits for the end). */
  endEarlier(tabId: string): void {
    void this.track(this.clearEarlier(tabId).then(() => undefined));
  }

  /**
   * Ends whatever the tab's earlier holders started that still runs (`startClearance`: marked, or
   * a recorded child verified by its start time), gracefully and then by verified SIGKILL, and
   * waits until it is gone. False when something may be the tab's agent and cannot be verified or
   * ended: a start now could run a second writer of its session (SPEC §4, §9).
   */
  clearEarlier(tabId: string): Promise<Clearance> {
    const p = this.d.book.procs(tabId);
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

  claimsOf(tabId: string, extra: ProcessRef[] = []): TabClaims {
    const tab = this.d.state().tabs[tabId];
    const p = this.d.book.get(tabId);
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
    const processes = snapshotProcesses();
    return planRetirement(
      {
        tab: this.claimsOf(tabId, extra),
        otherTabs: others.map((id) => this.claimsOf(id)),
        processes,
        records: this.d.registry.listResumeRecords(),
        protectedPids: [process.pid, 1],
        sharedServers: snapshotSharedServers(processes),
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
      if (!this.d.state().tabs[tabId]) this.d.book.tabs.delete(tabId);
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
    const p = this.d.book.get(tabId);
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
}
