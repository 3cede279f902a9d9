// Default tab names (SPEC §8): `agent`, or `agent N` with the smallest free N.

export function defaultTabName(taken: readonly string[]): string {
  const used = new Set(taken);
  if (!used.has('agent')) return 'agent';
  for (let n = 2; ; n++) {
    if (!used.has(`agent ${n}`)) return `agent ${n}`;
  }
}
