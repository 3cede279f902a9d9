// Orphaned holders (SPEC §10): a holder of this profile whose tab and incarnation no registry row
// owns, e.g. one whose tab was closed by a server that died before ending it. The sweep that finds
// them is level-triggered like reconciliation: each look is compared with the last, and an orphan
// still unowned after a short grace is retired. This file is the pure part; the shell reads /proc
// and carries out the retirement.

/** One holder process of the profile, by its A1_HOLDER_TAB / A1_HOLDER_INC markers. */
export interface HolderProcess {
  pid: number;
  startTime: string;
  tabId: string;
  inc: string;
}

export interface OrphanSighting {
  /** When the sweep first saw it unowned. */
  since: number;
  /** Its retirement was started: it is not started twice. */
  retired: boolean;
}

/** What `a1 tabs host status` shows. */
export interface OrphanReport {
  count: number;
  oldestAgeMs: number | null;
}

export interface OrphanStep {
  /** The orphans seen now, keyed by pid and start time; gone ones are dropped. */
  seen: Map<string, OrphanSighting>;
  retire: HolderProcess[];
  report: OrphanReport;
}

const identity = (h: HolderProcess) => `${h.pid}:${h.startTime}`;
const ownership = (tabId: string, inc: string) => `${tabId}\n${inc}`;

/** Compares this look at the profile's holders with the last one. A holder is given `graceMs`
 * before it is retired, so one that a row is about to own (or that this server is ending right
 * now) is not raced. */
export function orphanStep(
  seen: ReadonlyMap<string, OrphanSighting>,
  holders: readonly HolderProcess[],
  owned: readonly { tabId: string; inc: string }[],
  now: number,
  graceMs: number,
): OrphanStep {
  const owners = new Set(owned.map((o) => ownership(o.tabId, o.inc)));
  const next = new Map<string, OrphanSighting>();
  const retire: HolderProcess[] = [];
  let oldest: number | null = null;
  for (const h of holders) {
    if (owners.has(ownership(h.tabId, h.inc))) continue;
    const key = identity(h);
    const before = seen.get(key);
    const sighting = { since: before?.since ?? now, retired: before?.retired ?? false };
    if (!sighting.retired && now - sighting.since >= graceMs) {
      sighting.retired = true;
      retire.push(h);
    }
    next.set(key, sighting);
    oldest = oldest === null ? sighting.since : Math.min(oldest, sighting.since);
  }
  return { seen: next, retire, report: { count: next.size, oldestAgeMs: oldest === null ? null : now - oldest } };
}
