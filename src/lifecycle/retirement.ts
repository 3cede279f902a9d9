// Plans which processes a tab close ends and which resume records it revokes (SPEC §9, §15 "Which
// processes a close ends"). Pure: everything comes from one snapshot taken before any state is
// pruned, so the plan cannot depend on the order in which the tab's state is torn down.
import type { ResumeRecord } from './records.js';

/** `natural-exit` reconciles a child that is already dead: it ends and revokes nothing. */
export type RetireReason = 'user' | 'cleanup' | 'natural-exit';

export interface ProcessRef {
  pid: number;
  startTime: string;
}

export interface ProcessInfo {
  pid: number;
  ppid: number;
  pgid: number;
  sid: number;
  startTime: string;
  /** The A1_TAB_ID in its environment, or null (none, or unreadable). */
  tabMarker: string | null;
  /** The A1_BRIDGE in its environment (the bridge socket of the holder incarnation that started
   * it, in its profile's socket directory), or null (none, or unreadable). */
  bridgeMarker: string | null;
  /** Whether its environment could be read: without it, a missing marker proves nothing. */
  environReadable: boolean;
}

export interface TabClaims {
  tabId: string;
  /** Agent tabs also end processes that left the session. */
  agent: boolean;
  /** Every pid the tab was ever bound to: holder, child, pending spawns, earlier incarnations
   * (may contain duplicates and dead or recycled pids). */
  bound: ProcessRef[];
  /** The session leaders the tab's children were (a child leads its own session), as recorded:
   * possibly dead, or recycled since. */
  sessions: SessionClaim[];
}

/** A recorded session leader; `startTime` null where it was not recorded. */
export interface SessionClaim {
  pid: number;
  startTime: string | null;
}

export interface RetirementSnapshot {
  tab: TabClaims;
  /** Live tabs other than this one. */
  otherTabs: TabClaims[];
  /** One /proc snapshot taken when the close starts. */
  processes: ProcessInfo[];
  /** Every resume record in the registry. */
  records: ResumeRecord[];
  /** Never planned (the server itself, pid 1). */
  protectedPids: number[];
  /** Processes that serve agents of any tab (src/lifecycle/sharedServers.ts), with their clients'
   * pids, or null where those could not be read. */
  sharedServers?: SharedServer[];
}

export interface SharedServer {
  pid: number;
  clients: number[] | null;
}

/** A process to end, with the group it was in when snapshotted, so the terminator can check that
 * a group still has a planned member before signalling it whole. */
export interface PlannedProcess extends ProcessRef {
  pgid: number;
}

export interface RetirementPlan {
  tabId: string;
  reason: RetireReason;
  /** Process groups to signal whole: every snapshot member of each is in `processes`. Sorted. */
  groups: number[];
  /** Every process to end, deduplicated by pid, sorted by pid. */
  processes: PlannedProcess[];
  /** Record ids to delete. */
  revoke: string[];
  /** Session identities that move to history (reason 'user' only). */
  history: ResumeRecord[];
}

/** Group ids at or below this are never signalled whole: 0 is "my own group" and 1 is init's. */
const LOWEST_SIGNALLABLE_GROUP = 2;

export function planRetirement(s: RetirementSnapshot, reason: RetireReason): RetirementPlan {
  const { tab } = s;
  if (reason === 'natural-exit') {
    return { tabId: tab.tabId, reason, groups: [], processes: [], revoke: [], history: [] };
  }
  const byPid = new Map(s.processes.map((p) => [p.pid, p]));
  const excluded = excludedPids(s);
  const chosen = new Map<number, ProcessInfo>();
  const take = (p: ProcessInfo): boolean => {
    if (excluded.has(p.pid) || chosen.has(p.pid)) return false;
    chosen.set(p.pid, p);
    return true;
  };

  const verified = new Set<number>();
  for (const ref of tab.bound) {
    const p = byPid.get(ref.pid);
    // A different start time means the pid was recycled by an unrelated process.
    if (p !== undefined && p.startTime === ref.startTime) {
      take(p);
      verified.add(p.pid);
    }
  }
  for (const leader of tab.sessions) for (const p of sessionMembers(s.processes, leader, tab.tabId, verified)) take(p);
  if (tab.agent) {
    for (const p of s.processes) if (p.tabMarker === tab.tabId) take(p);
    takeDescendants(s.processes, chosen, take);
  }

  const processes = [...chosen.values()]
    .sort((a, b) => a.pid - b.pid)
    .map(({ pid, startTime, pgid }) => ({ pid, startTime, pgid }));
  const own = s.records.filter((r) => r.tabId === tab.tabId);
  return {
    tabId: tab.tabId,
    reason,
    groups: wholeGroups(s.processes, chosen),
    processes,
    revoke: own.map((r) => r.id),
    history: reason === 'user' ? own : [],
  };
}

/**
 * The members of the session a tab's child led, each verified (SPEC §15): every member while the
 * leader is still the recorded process (its recorded start time, a child of a verified process of
 * the tab, or carrying the tab's marker); once the leader is gone, only members carrying the
 * marker. Linux does not hand out a pid still used as a session id, so a live leader with another
 * start time leads an unrelated session, and verifies nothing.
 */
export function sessionMembers(
  processes: readonly ProcessInfo[],
  leader: SessionClaim,
  tabId: string,
  verified: ReadonlySet<number>,
): ProcessInfo[] {
  const members = processes.filter((p) => p.sid === leader.pid);
  const head = processes.find((p) => p.pid === leader.pid);
  if (head === undefined) return members.filter((p) => p.tabMarker === tabId);
  const isOurs = (leader.startTime !== null && head.startTime === leader.startTime) || verified.has(head.ppid) || head.tabMarker === tabId;
  return isOurs ? members : [];
}

/** Pids another live tab claims, and protected pids. A tab claims what its own close would end
 * (SPEC §9: "minus any another live tab claims"): its bound refs, its sessions' members and its
 * marker, and for an agent tab also their descendants that left the session. The walk over
 * descendants, here and in the plan, does not pass through a protected pid. */
function excludedPids(s: RetirementSnapshot): Set<number> {
  const isProtected = new Set(s.protectedPids);
  const excluded = new Set(isProtected);
  const children = childrenOf(s.processes);
  for (const other of s.otherTabs) {
    if (other.tabId === s.tab.tabId) continue;
    const bound = new Set(other.bound.map(identityKey));
    const sessions = new Set(other.sessions.map((leader) => leader.pid));
    const claimed = s.processes.filter(
      (p) => !isProtected.has(p.pid) && (bound.has(identityKey(p)) || sessions.has(p.sid) || p.tabMarker === other.tabId),
    );
    const roots = claimed.map((p) => p.pid);
    const owned = new Set(roots);
    if (other.agent) addDescendants(owned, children, isProtected);
    for (const pid of owned) excluded.add(pid);
    // A shared server whose client runs in that tab lives on with its own descendants, whichever
    // tab started it (issue 28: closing one tab must not end another tab's Codex).
    for (const server of s.sharedServers ?? []) {
      if (isProtected.has(server.pid) || !(server.clients === null || server.clients.some((pid) => owned.has(pid)))) continue;
      const kept = new Set([server.pid]);
      addDescendants(kept, children, isProtected);
      for (const pid of kept) excluded.add(pid);
    }
  }
  return excluded;
}

/** Adds every descendant (by ppid, transitively) of `set`'s members, not through protected pids. */
function addDescendants(set: Set<number>, children: Map<number, ProcessInfo[]>, isProtected: ReadonlySet<number>): void {
  const queue = [...set];
  while (queue.length > 0) {
    for (const child of children.get(queue.pop() as number) ?? []) {
      if (set.has(child.pid) || isProtected.has(child.pid)) continue;
      set.add(child.pid);
      queue.push(child.pid);
    }
  }
}

function identityKey(ref: ProcessRef): string {
  return `${ref.pid}:${ref.startTime}`;
}

/** Each process's children, by ppid. */
function childrenOf(processes: readonly ProcessInfo[]): Map<number, ProcessInfo[]> {
  const children = new Map<number, ProcessInfo[]>();
  for (const p of processes) {
    if (p.ppid === p.pid) continue;
    const list = children.get(p.ppid);
    if (list === undefined) children.set(p.ppid, [p]);
    else list.push(p);
  }
  return children;
}

/** Adds every descendant (by ppid, transitively) of the chosen processes. */
export function takeDescendants(
  processes: readonly ProcessInfo[],
  chosen: ReadonlyMap<number, ProcessInfo>,
  take: (p: ProcessInfo) => boolean,
): void {
  const children = childrenOf(processes);
  const queue = [...chosen.keys()];
  while (queue.length > 0) {
    const pid = queue.pop() as number;
    for (const child of children.get(pid) ?? []) if (take(child)) queue.push(child.pid);
  }
}

/** Groups of chosen processes in which every snapshot member is chosen, so signalling the group
 * whole reaches nothing the plan does not already end. */
export function wholeGroups(processes: readonly ProcessInfo[], chosen: ReadonlyMap<number, ProcessInfo>): number[] {
  const candidate = new Set<number>();
  for (const p of chosen.values()) if (p.pgid >= LOWEST_SIGNALLABLE_GROUP) candidate.add(p.pgid);
  for (const p of processes) if (candidate.has(p.pgid) && !chosen.has(p.pid)) candidate.delete(p.pgid);
  return [...candidate].sort((a, b) => a - b);
}
