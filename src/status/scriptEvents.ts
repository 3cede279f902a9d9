// The events of `a1 events --json` (issue 18), declared once: what changed between two listings
// of the tabs, as a script wants to hear it. Pure: two ordered lists of ScriptTab in, events out;
// `a1 events` feeds it every change the server tells a watcher (src/cli/commands/events.ts).
import { SCRIPT_SCHEMA_VERSION, type ScriptTab } from './scripting.js';

/** Lifecycle changes, in the state words of src/status/vocabulary.ts. */
export type LifecycleChange = 'started' | 'exited' | 'failed' | 'asleep' | 'woke' | 'restarted';

/** The status fields a `status` event names when they change. */
export const STATUS_FIELDS = ['glyph', 'attention', 'agent', 'title'] as const;
export type StatusField = (typeof STATUS_FIELDS)[number];

/** One line of `a1 events --json`; every event carries `version` and `at` (ms since the epoch). */
export type ScriptEvent = { version: typeof SCRIPT_SCHEMA_VERSION; at: number } & (
  | { event: 'snapshot'; server: { pid: number; epoch: number }; tabs: ScriptTab[] }
  | { event: 'tab-created'; tab: ScriptTab }
  | { event: 'tab-closed'; tab: ScriptTab }
  | { event: 'tab-renamed'; tab: ScriptTab; from: string }
  | { event: 'tab-moved'; tab: ScriptTab; from: number }
  | { event: 'lifecycle'; tab: ScriptTab; change: LifecycleChange; from: string }
  | { event: 'status'; tab: ScriptTab; changed: StatusField[] }
  /** The last line: the host was stopped (`host-stop`), or the server went away (`gone`). */
  | { event: 'server-stopped'; reason: 'host-stop' | 'gone' }
);

type Body = ScriptEvent extends infer E ? (E extends unknown ? Omit<E, 'version' | 'at'> : never) : never;

/** What the diff remembers besides the tabs: each starting tab's state before it started. */
export interface WatchState {
  tabs: readonly ScriptTab[];
  /** Per tab in `starting`: the state it left (asleep, exited, failed), to tell woke from restarted. */
  before: Readonly<Record<string, string>>;
}

export const EMPTY_WATCH: WatchState = { tabs: [], before: {} };

/** The events that lead from `s.tabs` to `next` (both in strip order), and the state after. */
export function diffTabs(s: WatchState, next: readonly ScriptTab[]): { state: WatchState; events: Body[] } {
  const prev = new Map(s.tabs.map((t) => [t.id, t]));
  const nextIds = new Set(next.map((t) => t.id));
  const events: Body[] = [];
  for (const t of s.tabs) if (!nextIds.has(t.id)) events.push({ event: 'tab-closed', tab: t });
  // A move is a change of place among the tabs both lists hold, not a shift by a create or close.
  const keptBefore = s.tabs.filter((t) => nextIds.has(t.id)).map((t) => t.id);
  const keptAfter = next.filter((t) => prev.has(t.id)).map((t) => t.id);
  const before: Record<string, string> = {};
  for (const t of next) {
    const old = prev.get(t.id);
    if (!old) {
      events.push({ event: 'tab-created', tab: t });
      if (t.status === 'starting') before[t.id] = '';
      continue;
    }
    if (old.name !== t.name) events.push({ event: 'tab-renamed', tab: t, from: old.name });
    if (keptBefore.indexOf(t.id) !== keptAfter.indexOf(t.id)) events.push({ event: 'tab-moved', tab: t, from: old.position });
    const change = lifecycleChange(old, t, s.before[t.id]);
    if (change) events.push({ event: 'lifecycle', tab: t, change, from: old.status });
    if (t.status === 'starting') before[t.id] = old.status === 'starting' ? (s.before[t.id] ?? '') : old.status;
    const changed = STATUS_FIELDS.filter((f) => JSON.stringify(old[f]) !== JSON.stringify(t[f]));
    if (changed.length > 0) events.push({ event: 'status', tab: t, changed });
  }
  return { state: { tabs: next, before }, events };
}

/** The lifecycle change from `old` to `t`; `startedFrom`: the state it left when it began starting. */
function lifecycleChange(old: ScriptTab, t: ScriptTab, startedFrom: string | undefined): LifecycleChange | null {
  if (old.status === t.status) {
    // A child replaced under a running tab (a crash restart that never showed `starting`).
    return t.status === 'running' && old.childPid !== null && t.childPid !== null && old.childPid !== t.childPid ? 'restarted' : null;
  }
  switch (t.status) {
    case 'exited':
      return 'exited';
    case 'failed':
      return 'failed';
    case 'asleep':
      return 'asleep';
    case 'running': {
      const from = old.status === 'starting' ? (startedFrom ?? '') : old.status;
      if (from === 'asleep') return 'woke';
      if (from === 'exited' || from === 'failed' || from === 'running') return 'restarted';
      return 'started';
    }
    default:
      return null;
  }
}

/** An event as one line of the stream. */
export function eventLine(body: Body, at: number): string {
  const { event, ...rest } = body;
  return JSON.stringify({ version: SCRIPT_SCHEMA_VERSION, event, at, ...rest }) + '\n';
}
