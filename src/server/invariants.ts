// What the server's memory and the registry must agree on (SPEC §3, §5): every tab the registry
// holds is in memory and nowhere else, at the same place in the strip and with the same name, and
// the topology revision is the same. Checked after every commit and on every tick; a disagreement
// means one of them is wrong, so the server ends with a crash record and its replacement starts
// from the registry, the durable truth (a detected invariant violation is never swallowed).

/** A tab as far as the check goes. */
export interface TopologyTab {
  id: string;
  name: string;
  /** Its place in the strip. */
  ord: number;
}

export interface TopologyView {
  rev: number;
  tabs: readonly TopologyTab[];
}

/** Which part disagrees; the registry's revision behind memory's is the registry going backwards. */
export type Contradiction = 'revision-behind' | 'revision-ahead' | 'tab-missing' | 'tab-extra' | 'order' | 'name';

/** How `memory` contradicts `registry`, or null when they agree. */
export function contradiction(memory: TopologyView, registry: TopologyView): Contradiction | null {
  const durable = new Map(registry.tabs.map((t) => [t.id, t]));
  const held = new Set(memory.tabs.map((t) => t.id));
  if (registry.tabs.some((t) => !held.has(t.id))) return 'tab-missing';
  for (const tab of memory.tabs) {
    const row = durable.get(tab.id);
    if (!row) return 'tab-extra';
    if (row.ord !== tab.ord) return 'order';
    if (row.name !== tab.name) return 'name';
  }
  if (registry.rev < memory.rev) return 'revision-behind';
  if (registry.rev > memory.rev) return 'revision-ahead';
  return null;
}
