// Pure sizing for the page's terminal: the font that shows a tab's columns in the width there
// is, and the grid a screen fits (for "Fit to screen").

/** Smallest font the page shrinks to; below it the terminal scrolls sideways instead. */
export const MIN_FONT_PX = 6;
export const MAX_FONT_PX = 15;
/** Line height as a multiple of the font size (xterm.js's lineHeight 1 uses the font's own). */
export const LINE_HEIGHT = 1.2;

/**
 * The font size (half-pixel steps) at which `cols` cells fit `widthPx`, given a cell's width per
 * pixel of font size; `scroll` when even the smallest font is too wide.
 */
export function fontToFit(cols: number, widthPx: number, cellWidthPerPx: number): { fontPx: number; scroll: boolean } {
  if (cols <= 0 || widthPx <= 0 || cellWidthPerPx <= 0) return { fontPx: MAX_FONT_PX, scroll: false };
  const exact = widthPx / (cols * cellWidthPerPx);
  const fontPx = Math.min(MAX_FONT_PX, Math.floor(exact * 2) / 2);
  if (fontPx < MIN_FONT_PX) return { fontPx: MIN_FONT_PX, scroll: true };
  return { fontPx, scroll: false };
}

/** The columns and rows of cells that fit a box; at least 20 x 5, a size every agent draws in. */
export function gridThatFits(widthPx: number, heightPx: number, cellWidthPx: number, cellHeightPx: number): { cols: number; rows: number } {
  const cols = Math.floor(widthPx / cellWidthPx);
  const rows = Math.floor(heightPx / cellHeightPx);
  return { cols: Math.max(20, Number.isFinite(cols) ? cols : 80), rows: Math.max(5, Number.isFinite(rows) ? rows : 24) };
}

/** Reconnect delay after `attempt` failures in a row: doubling from half a second to 10 s. */
export function backoffMs(attempt: number): number {
  return Math.min(10_000, 500 * 2 ** Math.max(0, Math.min(attempt, 10)));
}
