// What the server knows of each tab's processes beyond the core (SPEC §4, §9): every holder and
// child seen (for retirement plans and for what a new start must not run beside), the linked
// holder's last state, and its link.
import type { HolderConnection } from './holderLink.js';
import type { HolderState } from '../protocol/messages.js';
import { isSameProcess, procStartTime } from '../proc.js';
import { sessionMembers, type ProcessRef, type SessionClaim } from '../lifecycle/retirement.js';
import { snapshotProcesses } from '../lifecycle/processSnapshot.js';

/** Whether a tab may start: nothing of its earlier holders runs, or what may still run. */
export type Clearance = { ok: true } | { ok: false; reason: 'unverifiable' | 'alive' | 'unreadable'; childPid?: number; count?: number; code?: string };

export interface TabProcesses {
  /** Every holder and child seen for the tab, for the retirement plan. */
  bound: ProcessRef[];
  /** Every child seen for the tab (from its holders, or the registry with the start time it
   * recorded), until found gone: what a new start must not run beside. */
  children: SessionClaim[];
  /** The clearing of earlier processes in progress: the next one waits for it and looks again. */
  clearing: Promise<Clearance> | null;
  /** The linked holder's last state. */
  state: HolderState | null;
  link: { inc: string; conn: HolderConnection } | null;
}

export class TabProcessBook {
  readonly tabs = new Map<string, TabProcesses>();

  get(tabId: string): TabProcesses | undefined {
    return this.tabs.get(tabId);
  }

  /** The linked holder's last state, for what clients see (title, glyph, child). */
  stateOf(tabId: string): HolderState | null {
    return this.tabs.get(tabId)?.state ?? null;
  }

  procs(tabId: string): TabProcesses {
    let p = this.tabs.get(tabId);
    if (!p) {
      p = { bound: [], children: [], clearing: null, state: null, link: null };
      this.tabs.set(tabId, p);
    }
    return p;
  }

  noteBound(tabId: string, ref: { pid: number | null; startTime: string | null }): void {
    if (!ref.pid || !ref.startTime) return;
    const p = this.procs(tabId);
    if (!p.bound.some((b) => b.pid === ref.pid && b.startTime === ref.startTime)) p.bound.push({ pid: ref.pid, startTime: ref.startTime });
  }

  /** A child of the tab, bound (with its start time) and remembered for the next start. */
  noteChild(tabId: string, ref: { pid: number | null; startTime: string | null }): void {
    if (!ref.pid) return;
    this.noteBound(tabId, ref);
    const p = this.procs(tabId);
    if (p.children.some((c) => c.pid === ref.pid && (c.startTime !== null || ref.startTime === null))) return;
    // A new child: those already gone are forgotten, so a tab that restarts often keeps few.
    p.children = uniqueLeaders([...liveClaims(p.children), { pid: ref.pid, startTime: ref.startTime }]);
  }
}

/** SIGKILLs every verified member of the session a tab's child led (see `sessionMembers`). */
export function killSession(leader: SessionClaim, tabId: string): void {
  for (const p of sessionMembers(snapshotProcesses(), leader, tabId, new Set())) killVerified(p.pid, p.startTime);
}

/** The claims whose process may still run: the same one (by start time, where recorded). */
export function liveClaims(claims: readonly SessionClaim[]): SessionClaim[] {
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
