// "Did you mean": the known name nearest a mistyped one, for config keys, theme roles and agent
// settings. Pure. A prefix or part of a known name (`scrollback` → `scrollbackLines`) wins over
// spelling distance; otherwise a name within a few edits (`tabMax` → `tabsMax`); else nothing.

/** A part this short (`ab`) matches too much to suggest anything. */
const MIN_PART = 4;

/** The candidate `word` most likely meant, or null when none is close. Case is ignored. */
export function nearestName(word: string, candidates: readonly string[]): string | null {
  const w = word.toLowerCase();
  if (w === '') return null;
  const exact = candidates.find((c) => c.toLowerCase() === w);
  if (exact !== undefined) return exact;
  if (w.length >= MIN_PART) {
    // The shortest name that holds the word: the fewest letters the user left out.
    const holding = candidates.filter((c) => c.toLowerCase().includes(w)).sort((a, b) => a.length - b.length);
    if (holding.length > 0) return holding[0];
  }
  // A third of the word's letters may be wrong, at least one, at most three.
  const allowed = Math.min(3, Math.max(1, Math.floor(w.length / 3)));
  let best: string | null = null;
  let bestDistance = allowed + 1;
  for (const c of candidates) {
    const d = editDistance(w, c.toLowerCase());
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return best;
}

/** Optimal string alignment distance: insertions, deletions, substitutions and swaps of two
 * neighbouring letters (`tabsMxa`) each count one. */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    rows.push([i]);
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) {
        rows[0].push(j);
        continue;
      }
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2][j - 2] + 1);
      rows[i].push(d);
    }
  }
  return rows[a.length][b.length];
}

/** " (did you mean "x"?)" for a message, or nothing. */
export function didYouMean(word: string, candidates: readonly string[]): string {
  const near = nearestName(word, candidates);
  return near === null ? '' : ` (did you mean "${near}"?)`;
}
