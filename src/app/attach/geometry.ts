// Where things sit on the outer screen: the strip on top, the viewed tab's surface under it (and
// under the first-run hint's row while that has one: attach/hintPlacement.ts).

/** Rows the strip takes above the surface. */
export const STRIP_ROWS = 1;

/** Overlays open one row below the strip, so the chip they concern stays in sight. */
export const OVERLAY_TOP_GAP = 1;

/** Lines one wheel notch scrolls, and arrow keys it sends on the alternate screen: what
 * common terminals do. */
export const WHEEL_LINES = 3;

/** The surface's rows on a screen `rows` high, its first row at screen row `top`. */
export function surfaceRowsOf(rows: number, top = STRIP_ROWS): number {
  return Math.max(1, rows - top);
}
