// Fitting text into a number of columns by display width, clipping at grapheme boundaries so
// CJK, emoji and combining marks are never cut in half.
import stringWidth from 'string-width';
import { clipToWidth } from '../strip/width.js';
import { graphemeSegmenter } from '../../graphemes.js';


/** `text` clipped with a trailing `…` to at most `width` columns. */
export function fitEnd(text: string, width: number): string {
  if (width <= 0) return '';
  return clipToWidth(text, width);
}

/** `text` clipped with a leading `…` to at most `width` columns: for paths, whose end says most. */
export function fitStart(text: string, width: number): string {
  if (width <= 0) return '';
  if (stringWidth(text) <= width) return text;
  const parts = Array.from(graphemeSegmenter().segment(text), (s) => s.segment);
  let out = '';
  let used = 0;
  for (let i = parts.length - 1; i >= 0; i--) {
    const w = stringWidth(parts[i]);
    if (used + w > width - 1) break;
    out = parts[i] + out;
    used += w;
  }
  return '…' + out;
}

/** `text` fitted to exactly `width` columns: clipped with `…`, or padded with spaces. */
export function padEnd(text: string, width: number): string {
  const fitted = fitEnd(text, width);
  return fitted + ' '.repeat(Math.max(0, width - stringWidth(fitted)));
}
