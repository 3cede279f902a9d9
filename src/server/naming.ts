// New tabs' names (SPEC §8, issue 18): with tabsAutoName, a short name from the command the tab
// runs (`bash`, `bash-2`; its program's title renames it later, see src/tabAutoName.ts);
// without, `agent`, or `agent N` with the smallest free N.
import { commandName, uniqueAutoName, type NameSource } from '../tabAutoName.js';

export function defaultTabName(taken: readonly string[]): string {
  const used = new Set(taken);
  if (!used.has('agent')) return 'agent';
  for (let n = 2; ; n++) {
    if (!used.has(`agent ${n}`)) return `agent ${n}`;
  }
}

/** The name of a tab nobody named that runs `argv`, unique among `taken`. */
export function newTabName(argv: readonly string[], taken: readonly string[], autoName: boolean): { name: string; source: NameSource } {
  const base = autoName ? commandName(argv) : null;
  return base === null ? { name: defaultTabName(taken), source: 'default' } : { name: uniqueAutoName(base, taken), source: 'auto' };
}
