// Which slice of a list a box shows: the one that keeps the selected row in view.

/**
 * The first visible row of a `count`-row list shown `visible` rows at a time, with the row at
 * `index` as near the middle as the ends allow. Stateless, so a re-render shows the same slice.
 */
export function windowStart(count: number, index: number, visible: number): number {
  if (visible <= 0 || count <= visible) return 0;
  const centred = index - Math.floor((visible - 1) / 2);
  return Math.max(0, Math.min(count - visible, centred));
}

/** A scroll offset kept within the list: never past the point where the last row is at the bottom. */
export function clampTop(top: number, count: number, visible: number): number {
  return Math.max(0, Math.min(top, count - Math.max(visible, 0)));
}
