// The orphan sweep (SPEC §10): the profile's holders compared with the rows that own them; one
// no row owns is retired after a short grace, once it proves itself (credential, pid and start
// time). A start ends its tab's stray holders the same way first.
import { setTimeout as delay } from 'node:timers/promises';
import type { HolderConnection } from './holderLink.js';
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import { errorCode } from '../log.js';
import type { Paths } from '../paths.js';
import { isSameProcess } from '../proc.js';
import { planRetirement, type ProcessRef } from '../lifecycle/retirement.js';
import { executeTermination, type TerminateIO } from '../lifecycle/terminate.js';
import { snapshotProcesses } from '../lifecycle/processSnapshot.js';
import { connectHolder, firstState, HOLDER_RECONNECT_DELAY_MS, HOLDER_START_DEADLINE_MS } from './holderLink.js';
import { orphanStep, type HolderProcess, type OrphanReport, type OrphanSighting } from './orphans.js';
import { HolderScanner, profileHolders } from './holderProcesses.js';
import type { HolderEnding } from './holderEnding.js';
import type { CoreState } from './core/index.js';

/** How often the profile's holders are compared with the rows that own them (SPEC §10). Most
 * looks read only /proc's listing and the holders' stat (./holderProcesses.ts), so every 2 s costs
 * little and finds an orphan soon. */
const ORPHAN_SWEEP_MS = 2_000;
/** An orphan is retired only once it stayed unowned this long: a short grace, longer than one
 * sweep, so a holder whose row is being written is never raced. */
const ORPHAN_GRACE_MS = 3_000;

export interface OrphanSweepDeps {
  paths: Paths;
  config: Config;
  epoch: number;
  log: Logger;
  terminateIO: TerminateIO;
  ending: HolderEnding;
  state: () => CoreState;
  stillWriter: () => boolean;
  holderKey(tabId: string, inc: string): Buffer;
  /** Aborted when the server's holder IO is disposed: a verification in flight closes its
   * connection, and a retry pause ends. */
  signal: AbortSignal;
}

export class OrphanSweep {
  private seen = new Map<string, OrphanSighting>();
  private lastSweep = 0;
  private readonly scanner: HolderScanner;
  report: OrphanReport = { count: 0, oldestAgeMs: null };

  constructor(private readonly d: OrphanSweepDeps) {
    this.scanner = new HolderScanner(d.paths.stateDir);
  }

  /** Compares the profile's holders with their owners; an orphan past its grace is retired. The
   * last sweep of a host stop has no grace: nothing is owned any more. */
  sweep(owned: { tabId: string; inc: string }[], final: boolean): void {
    const now = Date.now();
    if (!final && now - this.lastSweep < ORPHAN_SWEEP_MS) return;
    this.lastSweep = now;
    let holders: HolderProcess[];
    try {
      // The last sweep of a host stop looks at every process afresh.
      holders = this.scanner.look(final);
    } catch (err) {
      this.d.log.warn('orphan-sweep-failed', { code: errorCode(err) });
      return;
    }
    const step = orphanStep(this.seen, holders, [...owned, ...this.d.ending.endingHolders.values()], now, final ? 0 : ORPHAN_GRACE_MS);
    this.seen = step.seen;
    this.report = step.report;
    for (const h of step.retire) void this.d.ending.track(this.retireOrphan(h).then(() => undefined));
  }

  /** Every holder of the tab but `inc` ended, each verified first; false when one lives that does
   * not prove itself within a holder's start deadline (it may still be starting). */
  async clearStrays(tabId: string, inc: string): Promise<boolean> {
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
    let conn: HolderConnection | null = null;
    const deadline = Date.now() + patienceMs;
    for (;;) {
      try {
        conn = await connectHolder(this.d.paths.holderSock(h.tabId, h.inc), this.d.holderKey(h.tabId, h.inc), this.d.signal);
        break;
      } catch (err) {
        if (this.d.signal.aborted) return false;
        if (Date.now() >= deadline || !isSameProcess(h)) {
          this.d.log.warn('orphan-unverifiable', { tab: h.tabId, holderPid: h.pid, code: errorCode(err) });
          return false;
        }
        if (!(await delay(HOLDER_RECONNECT_DELAY_MS, true, { signal: this.d.signal }).catch(() => false))) return false;
      }
    }
    // A dispose while the state is awaited closes the connection, which ends the wait.
    const abort = (): void => conn.close();
    this.d.signal.addEventListener('abort', abort, { once: true });
    try {
      if (this.d.signal.aborted) return false;
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
          otherTabs: Object.keys(this.d.state().tabs).map((id) => this.d.ending.claimsOf(id)),
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
      this.d.signal.removeEventListener('abort', abort);
      conn.close();
    }
  }
}
