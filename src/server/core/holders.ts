// Holders (SPEC §10, §15 "Holders and adoption"): a pending incarnation is committed before its
// spawn; a completed spawn is bound only if its tab still wants it; a recorded holder is adopted
// only once verified; a lost holder is replaced within the restart budget, after which the tab
// is failed. Reports from anything but the bound incarnation of a live tab change nothing.
import { commit } from './commits.js';
import { acceptsHolderReport, sessionHolder, spawnOutcome } from './guards.js';
import { heartbeatAction, kindAfterAgentReport, reportChangesRow } from './supervision.js';
import { patchTab } from './mutations.js';
import { isShellCommand } from '../../lifecycle/agents.js';
import type { CoreState, CoreTab, Effect, HolderFacts, HolderReport, TabPatch } from './types.js';

/** A holder lost more often than this within the window is not restarted: the tab fails. */
export const HOLDER_LOSSES_ALLOWED = 3;
export const HOLDER_LOSS_WINDOW_MS = 60_000;

/** Spends one holder restart at `now` from the budget (SPEC §10): `ok` false when the window's
 * budget is spent. `times` are the restarts still inside the window, to keep for the next call. */
export function spendHolderRestart(times: readonly number[], now: number): { ok: boolean; times: number[] } {
  const recent = times.filter((t) => now - t < HOLDER_LOSS_WINDOW_MS);
  if (recent.length >= HOLDER_LOSSES_ALLOWED) return { ok: false, times: recent };
  return { ok: true, times: [...recent, now] };
}

const present = (tab: CoreTab | undefined) => (tab ? { closing: false, ending: tab.desired === 'stopped' } : null);

export function onSpawned(s: CoreState, fx: Effect[], tabId: string, inc: string, pid: number, startTime: string): CoreState {
  const tab = s.tabs[tabId];
  if (spawnOutcome(present(tab), tab?.starting ?? null, inc) === 'kill') {
    fx.push({ t: 'kill', epoch: s.epoch, tabId, pid, startTime });
    return s;
  }
  // Recorded first, then connected and verified like any adopted holder (its first state).
  const holder = { inc, pid, startTime };
  return commit(s, fx, { t: 'update', id: tabId, patch: { holder } }, {
    onOk: [{ t: 'verifyHolder', epoch: s.epoch, tabId, ref: holder }],
    // Unrecorded, it would be nobody's: it ends now and the tab starts again.
    onFail: [{ t: 'kill', epoch: s.epoch, tabId, pid, startTime }],
    runtime: { tabId, ok: { starting: null, verifying: true }, fail: { starting: null } },
  });
}

/** The way is clear: the holder is launched only if the tab still starts this incarnation; a
 * close, sleep or stop that came meanwhile ended the start (SPEC §9: nothing starts for a tab that
 * no longer wants it). */
export function startLaunches(tab: CoreTab | undefined, inc: string): boolean {
  return tab !== undefined && tab.starting === inc;
}

/** Whether the core still waits for this incarnation's verification: a verdict (verified, gone,
 * unverifiable) for any other holder, or for a tab that stopped waiting, changes nothing. */
export function awaitsVerification(tab: Pick<CoreTab, 'verifying' | 'holder'> | undefined, inc: string): boolean {
  return !!tab?.verifying && tab.holder?.inc === inc;
}

export function onSpawnFailed(s: CoreState, fx: Effect[], tabId: string, inc: string): CoreState {
  const tab = s.tabs[tabId];
  if (!tab || tab.starting !== inc) return s;
  return loseHolder(s, fx, tab);
}

/** The start would run beside an earlier process of the tab that may be its agent: the tab is
 * failed at once, not retried, and says so; the user's retry checks again (SPEC §4, §9). */
export function onStartRefused(s: CoreState, fx: Effect[], tabId: string, inc: string): CoreState {
  const tab = s.tabs[tabId];
  if (!tab || tab.starting !== inc) return s;
  return commit(s, fx, { t: 'update', id: tabId, patch: { holder: null, child: null, lifecycle: 'failed' } }, {
    onOk: [],
    onFail: [],
    runtime: { tabId, ok: { starting: null }, fail: { starting: null } },
  });
}

export function onVerified(s: CoreState, fx: Effect[], tabId: string, inc: string, f: HolderFacts): CoreState {
  const tab = s.tabs[tabId];
  if (!awaitsVerification(tab, inc) || !tab.holder) return s;
  const { pid: _pid, startTime: _start, controller: _controller, ...reported } = f;
  const bound: Partial<CoreTab> = { verifying: false, bound: true, unanswered: 0, controller: f.controller, transfer: null, reported, size: f.size ?? tab.size };
  // An adopted holder the row already names is bound at once: there is nothing to write.
  if (tab.holder.pid === f.pid && tab.holder.startTime === f.startTime) return { ...s, tabs: patchTab(s.tabs, tabId, bound) };
  return commit(s, fx, { t: 'update', id: tabId, patch: { holder: { inc, pid: f.pid, startTime: f.startTime } } }, {
    onOk: [],
    onFail: [],
    runtime: { tabId, ok: bound, fail: { verifying: false } },
  });
}

/** Alive but unproven: the process is left alone, owned by its row so no sweep retires it, and
 * the tab is failed for the user to restart or close. */
export function onUnverifiable(s: CoreState, fx: Effect[], tabId: string, inc: string): CoreState {
  const tab = s.tabs[tabId];
  if (!awaitsVerification(tab, inc)) return s;
  return commit(s, fx, { t: 'update', id: tabId, patch: { lifecycle: 'failed' } }, {
    onOk: [],
    onFail: [],
    // Unrecorded, the verdict is not kept: reconciliation verifies it again.
    runtime: { tabId, ok: { verifying: false, unverified: inc }, fail: { verifying: false } },
  });
}

/** Anything the bound holder says answers the heartbeat. */
export function heard(s: CoreState, tabId: string, inc: string): CoreState {
  const tab = s.tabs[tabId];
  if (!tab?.bound || tab.holder?.inc !== inc || tab.unanswered === 0) return s;
  return { ...s, tabs: patchTab(s.tabs, tabId, { unanswered: 0 }) };
}

/** A bound holder that left HOLDER_MISSED_BEATS pings unanswered is hung: it is killed (by pid
 * and start time) and replaced within the restart budget; the others are pinged. */
export function heartbeat(s: CoreState, fx: Effect[]): CoreState {
  for (const tab of Object.values(s.tabs)) {
    const h = tab.holder;
    if (!tab.bound || !h) continue;
    if (heartbeatAction(tab.unanswered) === 'ping') {
      fx.push({ t: 'sendToHolder', epoch: s.epoch, tabId: tab.id, inc: h.inc, cmd: { t: 'ping' } });
      s = { ...s, tabs: patchTab(s.tabs, tab.id, { unanswered: tab.unanswered + 1 }) };
    } else if (h.pid && h.startTime && Object.keys(s.pending).length === 0) {
      fx.push({ t: 'kill', epoch: s.epoch, tabId: tab.id, pid: h.pid, startTime: h.startTime });
      s = loseHolder(s, fx, tab);
    }
  }
  return s;
}

export function onGone(s: CoreState, fx: Effect[], tabId: string, inc: string): CoreState {
  const tab = s.tabs[tabId];
  if (!awaitsVerification(tab, inc)) return s;
  return loseHolder(s, fx, tab);
}

/** A broken link is not a dead holder: it is verified again, and reconnected if it lives. */
export function onLinkClosed(s: CoreState, fx: Effect[], tabId: string, inc: string): CoreState {
  const tab = s.tabs[tabId];
  if (!tab?.bound || !tab.holder || tab.holder.inc !== inc) return s;
  fx.push({ t: 'verifyHolder', epoch: s.epoch, tabId, ref: tab.holder });
  return { ...s, tabs: patchTab(s.tabs, tabId, { bound: false, verifying: true, unanswered: 0 }) };
}

export function onHolderState(s: CoreState, fx: Effect[], tabId: string, inc: string, reported: HolderReport): CoreState {
  const tab = s.tabs[tabId];
  if (!acceptsHolderReport(present(tab)) || !tab.bound || tab.holder?.inc !== inc) return s;
  return { ...s, tabs: patchTab(s.tabs, tabId, { reported, unanswered: 0, size: reported.size ?? tab.size }) };
}

/** The tab's program is an interactive shell: its own command, or the profile's tab command. */
export function runsShell(s: CoreState, tab: CoreTab): boolean {
  return tab.spec.command ? isShellCommand(tab.spec.command) : (s.limits.tabCommandIsShell ?? true);
}

/** Commits what the bound holder reported and the registry does not say yet. A session another
 * live tab holds is not taken (SPEC §9). */
export function syncReported(s: CoreState, fx: Effect[], tab: CoreTab): CoreState {
  const r = tab.reported;
  if (!tab.bound || !r) return s;
  const patch: TabPatch = {};
  const row = { lifecycle: tab.lifecycle, childPid: tab.child?.pid ?? null, childInc: tab.child?.inc ?? null };
  if (reportChangesRow(row, { lifecycle: r.lifecycle, childPid: r.child?.pid ?? null, childInc: r.child?.inc ?? null })) {
    if (r.lifecycle !== tab.lifecycle) patch.lifecycle = r.lifecycle;
    if (r.child?.pid !== tab.child?.pid || r.child?.inc !== tab.child?.inc) patch.child = r.child;
    if (r.exit?.code !== tab.lastExit?.code || r.exit?.signal !== tab.lastExit?.signal) patch.lastExit = r.exit;
  }
  if (r.sessionId) {
    const kind = kindAfterAgentReport(tab.spec.kind, r.agentKind, s.limits.agentKinds, runsShell(s, tab));
    // Asked per tab on every event: the other tabs are searched only when the row would change.
    const changes = r.sessionId !== tab.sessionId || kind !== tab.spec.kind;
    if (changes && !sessionHolder(Object.values(s.tabs), r.sessionId, tab.id)) {
      if (r.sessionId !== tab.sessionId) patch.sessionId = r.sessionId;
      if (kind !== tab.spec.kind) patch.spec = { ...tab.spec, kind };
    }
  }
  if (Object.keys(patch).length === 0) return s;
  // A session the tab now holds is recorded as its resume authority once it is the tab's.
  const live: Effect[] = patch.sessionId ? [{ t: 'putResumeRecord', epoch: s.epoch, tabId: tab.id, sessionId: patch.sessionId, origin: 'live' }] : [];
  return commit(s, fx, { t: 'update', id: tab.id, patch }, { onOk: live, onFail: [] });
}

/** Within the budget the tab starts again (reconciliation does it); past it, the tab fails. */
function loseHolder(s: CoreState, fx: Effect[], tab: CoreTab): CoreState {
  const spent = spendHolderRestart(tab.losses, s.now);
  return commit(s, fx, { t: 'update', id: tab.id, patch: { holder: null, child: null, lifecycle: spent.ok ? 'starting' : 'failed' } }, {
    onOk: [],
    onFail: [],
    runtime: {
      tabId: tab.id,
      ok: { starting: null, verifying: false, bound: false, unanswered: 0, losses: spent.times, controller: { clientId: null, rev: tab.controllerRev }, transfer: null, reported: null },
      fail: { starting: null, verifying: false, bound: false },
    },
  });
}
