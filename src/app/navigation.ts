// Which tab a navigation key views or where a move puts it (SPEC §8): pure, over the strip order.

/** The tab to view for next (+1) or previous (-1), wrapping around; null with no tabs. */
export function stepTab(order: readonly string[], viewed: string | null, step: 1 | -1): string | null {
  if (order.length === 0) return null;
  const at = viewed === null ? -1 : order.indexOf(viewed);
  if (at < 0) return order[step === 1 ? 0 : order.length - 1];
  return order[(at + step + order.length) % order.length];
}

/** The tab at 1-based position n (Alt+1…Alt+9, Alt+0 = 10); null beyond the tab count. */
export function jumpTab(order: readonly string[], n: number): string | null {
  return n >= 1 && n <= order.length ? order[n - 1] : null;
}

/** The index the viewed tab moves to (right +1, left -1), or null at either end. */
export function moveIndex(order: readonly string[], tabId: string | null, step: 1 | -1): number | null {
  if (tabId === null) return null;
  const at = order.indexOf(tabId);
  if (at < 0) return null;
  const to = at + step;
  return to >= 0 && to < order.length ? to : null;
}

/**
 * The tab to view once the viewed tab `gone` has left the strip: its right neighbour in the
 * order before it left, else its left one, as tmux, zellij and browsers do (the right one has
 * taken the closed tab's place, so the view stays where the eye was). Neighbours that left at
 * the same time are skipped, nearest first; null when no tab is left.
 */
export function neighbourAfterClose(before: readonly string[], after: readonly string[], gone: string): string | null {
  const remaining = new Set(after);
  const at = before.indexOf(gone);
  if (at < 0) return after[0] ?? null;
  for (let i = at + 1; i < before.length; i++) if (remaining.has(before[i])) return before[i];
  for (let i = at - 1; i >= 0; i--) if (remaining.has(before[i])) return before[i];
  return after[0] ?? null;
}
