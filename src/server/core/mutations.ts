// How one committed mutation changes the registry's tabs. The same pure function updates the
// core's memory after a commit and the simulation's durable store, so both agree by construction
// and the simulation can check that they do.
import type { DurableTab, Mutation } from './types.js';

/** Create, rename, reorder and close bump the topology revision; nothing else does (SPEC §15). */
export function isTopology(m: Mutation): boolean {
  return m.t === 'insertTab' || m.t === 'retireTab' || m.t === 'rename' || m.t === 'reorder';
}

/** The tabs after `m`. Returns the same object when `m` changes no tab. */
export function applyMutation<T extends DurableTab>(tabs: Record<string, T>, m: Mutation, fresh: (tab: DurableTab) => T): Record<string, T> {
  switch (m.t) {
    case 'startEpoch':
      return tabs;
    case 'insertTab':
      return { ...tabs, [m.tab.id]: fresh(m.tab) };
    case 'retireTab': {
      const { [m.id]: _gone, ...rest } = tabs;
      return rest as Record<string, T>;
    }
    case 'rename':
      // A name the user gave is kept as theirs: no default name replaces it.
      return tabs[m.id] ? patchTab(tabs, m.id, { name: m.name, spec: { ...tabs[m.id].spec, nameSource: 'user' } } as Partial<T>) : tabs;
    case 'autoName':
      // Never over a name the user gave, whatever decided it.
      if (!tabs[m.id] || tabs[m.id].spec.nameSource === 'user') return tabs;
      return patchTab(tabs, m.id, { name: m.name, spec: { ...tabs[m.id].spec, nameSource: 'auto' } } as Partial<T>);
    case 'reorder': {
      const out = { ...tabs };
      m.order.forEach((id, ord) => {
        if (out[id]) out[id] = { ...out[id], ord };
      });
      return out;
    }
    case 'update':
      return patchTab(tabs, m.id, m.patch as Partial<T>);
  }
}

export function patchTab<T>(tabs: Record<string, T>, id: string, patch: Partial<T>): Record<string, T> {
  const tab = tabs[id];
  if (!tab) return tabs;
  return { ...tabs, [id]: { ...tab, ...patch } };
}

/** Tab ids in strip order. */
export function orderedIds(tabs: Record<string, DurableTab>): string[] {
  return Object.values(tabs)
    .sort((a, b) => a.ord - b.ord || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((t) => t.id);
}
