// Idleness decisions (SPEC §10), pure so they can be tested with a fake clock: which tabs the
// server puts to sleep, and when the server itself exits. The server feeds them facts once per
// idle check and carries out what they return.
import type { Glyph } from '../status/glyphs.js';

/** What the server knows about one tab at one idle check. */
export interface TabIdleFacts {
  tabId: string;
  /** A bound holder reports its child running, and no start or stop is in flight. */
  running: boolean;
  /** Some client views the tab. */
  viewed: boolean;
  /** The status glyph the holder last reported, as on the wire (null before it reported one). */
  glyph: string | null;
  /** The resume validator allows resuming the tab's agent session (SPEC §9): sleeping loses nothing. */
  resumable: boolean;
}

/** Idle (no glyph) and done are the only glyphs of an agent that waits for nobody: working,
 * needs-input, stalled, unresponsive and error all have something pending. */
const QUIET_GLYPHS: ReadonlySet<string> = new Set<Glyph>(['none', 'done']);

/** Whether the tab may count toward idle suspension at this check. */
export function isSuspendable(tab: TabIdleFacts): boolean {
  return tab.running && !tab.viewed && tab.glyph !== null && QUIET_GLYPHS.has(tab.glyph) && tab.resumable;
}

export interface IdleSuspendStep {
  /** Since when each suspendable tab has been continuously so; tabs not suspendable are absent. */
  quietSince: Map<string, number>;
  /** Tabs to put to sleep now. */
  suspend: string[];
}

/**
 * One idle check: a tab that has stayed suspendable (unviewed, quiet, resumable, running) for
 * `afterMs` is put to sleep. Any check that finds it otherwise starts its clock again, so viewing a
 * tab or giving it work postpones its sleep by the whole interval. `afterMs` 0 turns this off.
 */
export function idleSuspendStep(previous: ReadonlyMap<string, number>, tabs: readonly TabIdleFacts[], now: number, afterMs: number): IdleSuspendStep {
  const quietSince = new Map<string, number>();
  const suspend: string[] = [];
  if (afterMs <= 0) return { quietSince, suspend };
  for (const tab of tabs) {
    if (!isSuspendable(tab)) continue;
    const since = previous.get(tab.tabId) ?? now;
    if (now - since >= afterMs) suspend.push(tab.tabId);
    else quietSince.set(tab.tabId, since);
  }
  return { quietSince, suspend };
}

/** Lifecycles of a tab whose processes run or are being started; asleep, exited and
 * failed tabs keep no server busy. */
export function isRunningLifecycle(lifecycle: string): boolean {
  return lifecycle === 'running' || lifecycle === 'starting';
}

export interface ServerIdleStep {
  /** Since when the server has had no client and no running tab; `now` while it has either. */
  idleSince: number;
  exit: boolean;
}

/** One idle check of the server: it exits after `afterMs` with no client and no running tab. */
export function serverIdleStep(idleSince: number, facts: { clients: number; runningTabs: number }, now: number, afterMs: number): ServerIdleStep {
  if (facts.clients > 0 || facts.runningTabs > 0) return { idleSince: now, exit: false };
  return { idleSince, exit: now - idleSince >= afterMs };
}
