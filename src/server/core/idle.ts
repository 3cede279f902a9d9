// Idleness in the core (SPEC §10), by the shell's own rules (src/server/idle.ts): an unviewed,
// quiet, resumable tab sleeps once it stayed so for idleSuspendMs; the server exits once it had no
// client and no running tab for serverIdleExitMs. Checked on every tick.
import { idleSuspendStep, isRunningLifecycle, serverIdleStep } from '../idle.js';
import { patchTab } from './mutations.js';
import { canResume, sleepTab } from './userActions.js';
import type { CoreState, Effect } from './types.js';

export function idle(s: CoreState, fx: Effect[]): CoreState {
  if (s.phase !== 'serving') return s;
  s = suspendIdleTabs(s, fx);
  const running = Object.values(s.tabs).filter((t) => t.starting || (t.desired === 'running' && isRunningLifecycle(t.lifecycle))).length;
  const step = serverIdleStep(s.idleSince, { clients: Object.keys(s.clients).length, runningTabs: running }, s.now, s.limits.serverIdleExitMs);
  if (!step.exit || Object.keys(s.pending).length > 0 || Object.keys(s.spawns).length > 0) return { ...s, idleSince: step.idleSince };
  fx.push({ t: 'exit', reason: 'idle' });
  return { ...s, idleSince: step.idleSince, phase: 'stopped' };
}

function suspendIdleTabs(s: CoreState, fx: Effect[]): CoreState {
  const viewed = new Set(Object.values(s.clients).map((c) => c.viewing));
  const tabs = Object.values(s.tabs);
  const facts = tabs.map((t) => ({
    tabId: t.id,
    running: t.bound && !t.starting && t.reported?.lifecycle === 'running',
    viewed: viewed.has(t.id),
    glyph: t.reported?.glyph ?? null,
    resumable: canResume(s, t),
  }));
  const previous = new Map(tabs.filter((t) => t.quietSince !== null).map((t) => [t.id, t.quietSince!]));
  const step = idleSuspendStep(previous, facts, s.now, s.limits.idleSuspendMs);
  for (const t of tabs) {
    const since = step.quietSince.get(t.id) ?? null;
    if (since !== t.quietSince) s = { ...s, tabs: patchTab(s.tabs, t.id, { quietSince: since }) };
  }
  for (const id of step.suspend) {
    const tab = s.tabs[id];
    if (tab) s = sleepTab(s, fx, tab, [], []);
  }
  return s;
}
