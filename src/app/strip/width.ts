// Display widths for strip text, measured once per distinct string. The layout runs on every
// strip render (each spinner frame, each pointer move), while segmenting a string into graphemes
// and measuring them with string-width costs tens of microseconds per name.
import stringWidth from 'string-width';
import { graphemeSegmenter } from '../../graphemes.js';

export interface Measured {
  graphemes: string[];
  /** Columns of each grapheme. */
  widths: number[];
  total: number;
}

/** Names, glyphs and editor texts are few; the bound only stops a stream of distinct strings
 *  from growing memory without limit (the flaw SPEC §8 notes in Ink's own measuring cache). */
const CACHE_MAX = 512;
const cache = new Map<string, Measured>();
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

export function measure(text: string): Measured {
  const hit = cache.get(text);
  if (hit) return hit;
  let m: Measured;
  if (PRINTABLE_ASCII.test(text)) {
    const graphemes = [...text];
    m = { graphemes, widths: graphemes.map(() => 1), total: text.length };
  } else {
    const graphemes: string[] = [];
    const widths: number[] = [];
    let total = 0;
    for (const { segment } of graphemeSegmenter().segment(text)) {
      const w = stringWidth(segment);
      graphemes.push(segment);
      widths.push(w);
      total += w;
    }
    m = { graphemes, widths, total };
  }
  if (cache.size >= CACHE_MAX) cache.clear();
  cache.set(text, m);
  return m;
}

export function textWidth(text: string): number {
  return PRINTABLE_ASCII.test(text) ? text.length : measure(text).total;
}

/** `text` when it fits `width` columns, else its longest grapheme prefix that fits with `…`
 *  appended ('' when width < 1). */
export function clipToWidth(text: string, width: number): string {
  if (width < 1) return '';
  const m = measure(text);
  if (m.total <= width) return text;
  let out = '';
  let used = 0;
  for (let i = 0; i < m.graphemes.length && used + m.widths[i] <= width - 1; i++) {
    out += m.graphemes[i];
    used += m.widths[i];
  }
  return `${out}…`;
}
