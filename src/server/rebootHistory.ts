// A new boot (SPEC §9, §10): the previous tab set is not started; it moves to history, and every
// agent session in it stays resumable (its records are kept). Whatever of it still runs (only
// possible when the boot id was overridden for a test) is ended, records untouched.
import type { Registry } from '../store/registry.js';
import type { Logger } from '../log.js';
import { planRetirement } from '../lifecycle/retirement.js';
import { executeTermination, type TerminateIO } from '../lifecycle/terminate.js';
import { snapshotProcesses } from '../lifecycle/processSnapshot.js';
import { SHELL_KIND } from '../lifecycle/agents.js';

export interface RebootDeps {
  registry: Registry;
  log: Logger;
  graceMs: number;
  terminateIO: TerminateIO;
  /** Keeps a termination in flight, so a host stop waits for it (HolderIO.track). */
  track(p: Promise<void>): void;
}

export function moveTabsToHistoryAfterReboot(d: RebootDeps): void {
  const rows = d.registry.listTabs();
  if (rows.length === 0) return;
  const processes = snapshotProcesses();
  const claims = rows.map((r) => ({
    tabId: r.id,
    agent: r.kind !== SHELL_KIND,
    bound: r.holderPid && r.holderStart ? [{ pid: r.holderPid, startTime: r.holderStart }] : [],
    // No child start time is recorded: the child counts while the holder is its verified parent
    // or it carries the tab's marker (`sessionMembers`).
    sessions: r.childPid ? [{ pid: r.childPid, startTime: null }] : [],
  }));
  for (const tab of claims) {
    const plan = planRetirement({ tab, otherTabs: claims.filter((c) => c !== tab), processes, records: [], protectedPids: [process.pid, 1] }, 'cleanup');
    d.track(executeTermination({ ...plan, revoke: [], history: [] }, { graceMs: d.graceMs, io: d.terminateIO }).then(() => undefined));
  }
  d.registry.moveAllTabsToHistory('reboot', Date.now(), (tab) => ({ agentKind: tab.kind, sessionId: tab.sessionId }));
  if (d.registry.getMeta('last_viewed_tab')) d.registry.setMeta('last_viewed_tab', '');
  d.log.info('reboot-history', { tabs: rows.length });
}
