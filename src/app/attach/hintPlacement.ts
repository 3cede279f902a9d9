// Where the first-run hint goes (issue 28): never over a cell of the tab. In the strip row's free
// part when it fits there; else on its own row under the strip, the tab one row shorter while it
// shows (the client asks the holder for that size, so no program draws under it).
import type { StripLayout } from '../strip/layout.js';
import { clipToWidth, textWidth } from '../strip/width.js';
import { STRIP_ROWS } from './geometry.js';

export interface HintPlace {
  /** `strip`: the strip's row, right of its last item; `own`: the row under the strip. */
  row: 'strip' | 'own';
  /** Screen column of the hint's first cell. */
  x: number;
  /** As drawn: the hint padded by a space each side, clipped to the screen's width. */
  text: string;
}

/** Blank columns kept between the strip's last item and the hint, so they do not read as one. */
const GAP = 1;

/** The column after the strip's last tab item (`+`, a chip, `…`); the strip's own no-tabs line
 *  does not count, since the hint is not shown beside it. */
export function stripEnd(strip: StripLayout): number {
  return strip.items.reduce((end, item) => (item.kind === 'hint' ? end : Math.max(end, item.x + item.w)), 0);
}

/** The hint's place on a screen `cols` wide whose strip's items end at column `end`, flush right. */
export function placeHint(cols: number, end: number, hint: string): HintPlace {
  const padded = ` ${hint} `;
  const w = textWidth(padded);
  if (end + GAP + w <= cols) return { row: 'strip', x: cols - w, text: padded };
  const text = w <= cols ? padded : ` ${clipToWidth(hint, Math.max(0, cols - 2))} `.slice(0, Math.max(0, cols));
  return { row: 'own', x: Math.max(0, cols - textWidth(text)), text };
}

/** The screen row where the tab's first row is drawn. */
export function surfaceTopFor(place: HintPlace | null): number {
  return STRIP_ROWS + (place?.row === 'own' ? 1 : 0);
}
