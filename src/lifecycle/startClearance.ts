// Before a tab starts a new holder, nothing an earlier holder of it started may still run (SPEC
// §9: one agent session, one live tab; issue 15). A holder killed while its agent ignores SIGHUP,
// or killed together with its server, leaves that agent behind, and a replacement that resumed the
// session would run a second writer beside it. Pure: it decides from one /proc snapshot which
// processes are the tab's earlier ones, each verified, and which may be but cannot be checked.
import path from 'node:path';
import { parseSocketName } from '../paths.js';
import { sessionMembers, takeDescendants, wholeGroups, type PlannedProcess, type ProcessInfo, type SessionClaim } from './retirement.js';

export interface StartClaims {
  tabId: string;
  /** The profile's socket directory: a child of one of this profile's holders of the tab
   * carries A1_BRIDGE naming that holder's bridge socket there. */
  socketDir: string;
  /** The children earlier holders of the tab were seen running (their start time null where it
   * was not recorded); dead or recycled ones among them count for nothing. */
  children: readonly SessionClaim[];
}

export interface StartClearance {
  /** The tab's earlier processes that still run, each verified, to end before the start. */
  end: PlannedProcess[];
  /** Process groups every snapshot member of which is in `end`, to signal whole. */
  groups: number[];
  /** Recorded children that run but cannot be checked (no recorded start time, no readable
   * environment): they may be the tab's, so the start must not happen beside them. */
  unverifiable: number[];
}

/** Whether `bridge` (an A1_BRIDGE value) is a bridge socket of this profile's tab `tabId`. */
export function isTabBridge(bridge: string | null, socketDir: string, tabId: string): boolean {
  if (bridge === null || path.dirname(bridge) !== socketDir) return false;
  const name = parseSocketName(path.basename(bridge));
  return name !== null && name.kind === 'bridge' && name.tabId === tabId;
}

/**
 * The tab's earlier processes in `processes`: every process marked as a child (or descendant) of
 * one of this profile's holders of the tab (A1_TAB_ID and A1_BRIDGE both), every member of the
 * session a recorded child led while that child is verified (its start time, or the marker), and
 * their descendants. A recorded child with no start time and an unreadable environment is
 * reported, not ended: it may be an unrelated process that got the pid.
 */
export function startClearance(processes: readonly ProcessInfo[], claims: StartClaims, protectedPids: readonly number[]): StartClearance {
  const excluded = new Set(protectedPids);
  const chosen = new Map<number, ProcessInfo>();
  const take = (p: ProcessInfo): boolean => {
    if (excluded.has(p.pid) || chosen.has(p.pid)) return false;
    chosen.set(p.pid, p);
    return true;
  };
  const marked = (p: ProcessInfo) => p.tabMarker === claims.tabId && isTabBridge(p.bridgeMarker, claims.socketDir, claims.tabId);
  for (const p of processes) if (marked(p)) take(p);

  const unverifiable: number[] = [];
  for (const child of claims.children) {
    const head = processes.find((p) => p.pid === child.pid);
    if (head === undefined || excluded.has(head.pid)) continue;
    const members = sessionMembers(processes, child, claims.tabId, new Set());
    for (const p of members) take(p);
    // A live head that verified nothing: recycled (another start time), unrelated (readable, no
    // marker) or unknowable (no start time recorded and nothing readable).
    if (members.length === 0 && child.startTime === null && !head.environReadable && !chosen.has(head.pid)) unverifiable.push(head.pid);
  }
  takeDescendants(processes, chosen, take);

  const end = [...chosen.values()].sort((a, b) => a.pid - b.pid).map(({ pid, startTime, pgid }) => ({ pid, startTime, pgid }));
  return { end, groups: wholeGroups(processes, chosen), unverifiable: [...new Set(unverifiable)].sort((a, b) => a - b) };
}
