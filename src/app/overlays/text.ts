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

/**
 * `text` broken into lines of at most `width` columns: at spaces where it can, inside a word
 * (between graphemes) only when the word alone is wider than a line.
 */
export function wrapText(text: string, width: number): string[] {
  if (width <= 0) return [];
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/ +/).filter((w) => w !== '')) {
    const joined = line === '' ? word : `${line} ${word}`;
    if (stringWidth(joined) <= width) {
      line = joined;
      continue;
    }
    if (line !== '') lines.push(line);
    line = '';
    // A word wider than the line is cut between graphemes.
    for (const { segment } of graphemeSegmenter().segment(word)) {
      if (stringWidth(line + segment) > width && line !== '') {
        lines.push(line);
        line = '';
      }
      line += segment;
    }
  }
  if (line !== '') lines.push(line);
  return lines;
}
