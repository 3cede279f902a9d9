// Tab targets (issue 18): how a command-line argument names a tab. Pure: the listing in strip
// order in, the tabs or one sentence out. The rule, as tmux's window targets: an exact id, else
// all digits is a 1-based position in the strip, else an exact name (unique). All or nothing: a
// command acts on no tab when any of its targets fails to resolve.

/** What a target is resolved against: a tab as `a1 tabs` lists it, in strip order. */
export interface TargetTab {
  id: string;
  name: string;
}

/** The rule in one sentence, for every command's help. */
export const TARGET_HELP = 'A tab is named by its id, its position in the strip (1 is the first; a number is always a position) or its exact name.';

export type Resolved<T extends TargetTab> = { ok: true; tabs: T[] } | { ok: false; message: string };

const POSITION = /^[0-9]+$/;

/** One target: the tab, or why it names none. */
export function resolveTarget<T extends TargetTab>(tabs: readonly T[], target: string): T | string {
  const byId = tabs.find((t) => t.id === target);
  if (byId) return byId;
  if (POSITION.test(target)) {
    const n = Number(target);
    if (n >= 1 && n <= tabs.length) return tabs[n - 1];
    return tabs.length === 0 ? `There is no tab ${target}: no tabs are open.` : `There is no tab ${target}: positions go from 1 to ${tabs.length}.`;
  }
  const named = tabs.map((t, i) => ({ t, position: i + 1 })).filter(({ t }) => t.name === target);
  if (named.length === 1) return named[0].t;
  if (named.length > 1) {
    const which = named.map(({ t, position }) => `${t.id} (position ${position})`).join(', ');
    return `The name "${target}" is ambiguous: ${which}; name one by its id or position.`;
  }
  return `No tab has the id or name "${target}".`;
}

/** Every target, each tab once in the order first named; the first failure names nothing. */
export function resolveTargets<T extends TargetTab>(tabs: readonly T[], targets: readonly string[]): Resolved<T> {
  if (targets.length === 0) return { ok: false, message: 'Name a tab: its id, position or name.' };
  const found: T[] = [];
  for (const target of targets) {
    const tab = resolveTarget(tabs, target);
    if (typeof tab === 'string') return { ok: false, message: targets.length > 1 ? `${tab} Nothing was done.` : tab };
    if (!found.includes(tab)) found.push(tab);
  }
  return { ok: true, tabs: found };
}
