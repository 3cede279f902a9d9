// Turns a frame of styled text (what Ink writes in debug mode: complete frames, lines separated
// by '\n', colours and styles as SGR) into cells, so the compositor can lay it over the surface.
// Widths are measured per grapheme with string-width. Escape sequences other than SGR and OSC 8
// hyperlinks are dropped: a layer positions nothing itself.
import stringWidth from 'string-width';
import { Attr, DEFAULT_COLOR, RGB_FLAG, type Color } from '../surface/types.js';
import { CellGrid } from './cells.js';
import { graphemeSegmenter } from '../graphemes.js';

const ESC = '\x1b';
const TAB_STOP = 8;

interface Pen {
  fg: Color;
  bg: Color;
  fl: number;
  link: string | undefined;
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
const CONTROL = /\p{Cc}/u;

export function ansiToCells(frame: string, cols: number, rows: number): CellGrid {
  const grid = new CellGrid(cols, rows);
  const pen: Pen = { fg: DEFAULT_COLOR, bg: DEFAULT_COLOR, fl: 0, link: undefined };
  const lines = frame.split('\n');
  for (let y = 0; y < lines.length; y++) {
    // Styles carry across lines, as they would on a terminal, so every line is parsed even
    // when it falls below the grid.
    paintLine(grid, y < rows ? y : -1, lines[y], pen);
  }
  return grid;
}

/** Parses one line into row `y` of the grid (y = -1: only track the pen). */
function paintLine(grid: CellGrid, y: number, line: string, pen: Pen): void {
  let x = 0;
  let i = 0;
  while (i < line.length) {
    const c = line.charCodeAt(i);
    if (c === 0x1b) {
      i = escape(line, i, pen);
    } else if (c === 0x09) {
      const next = (Math.floor(x / TAB_STOP) + 1) * TAB_STOP;
      for (; x < next; x++) if (y >= 0) grid.put(x, y, ' ', pen.fg, pen.bg, pen.fl, 1, pen.link);
      i++;
    } else if (c < 0x20 || c === 0x7f) {
      i++;
    } else {
      let end = line.indexOf(ESC, i);
      if (end < 0) end = line.length;
      const tab = line.indexOf('\t', i);
      if (tab >= 0 && tab < end) end = tab;
      if (y >= 0) x = paintText(grid, x, y, line.slice(i, end), pen);
      i = end;
    }
  }
}

function paintText(grid: CellGrid, x: number, y: number, text: string, pen: Pen): number {
  if (PRINTABLE_ASCII.test(text)) {
    for (let k = 0; k < text.length && x < grid.cols; k++, x++) grid.put(x, y, text[k], pen.fg, pen.bg, pen.fl, 1, pen.link);
    return x;
  }
  for (const { segment } of graphemeSegmenter().segment(text)) {
    if (x >= grid.cols) break;
    if (CONTROL.test(segment)) continue;
    const w = stringWidth(segment);
    // A zero-width grapheme (a stray joiner or selector) has no cell of its own.
    if (w === 0) continue;
    const width = w >= 2 ? 2 : 1;
    grid.put(x, y, segment, pen.fg, pen.bg, pen.fl, width, pen.link);
    x += width;
  }
  return x;
}

/** Consumes the escape sequence at `i` and returns the index after it. */
function escape(line: string, i: number, pen: Pen): number {
  const kind = line[i + 1];
  if (kind === '[') {
    let j = i + 2;
    while (j < line.length && !isCsiFinal(line.charCodeAt(j))) j++;
    if (j >= line.length) return line.length;
    if (line[j] === 'm') applySgr(line.slice(i + 2, j), pen);
    return j + 1;
  }
  if (kind === ']') {
    const bel = line.indexOf('\x07', i + 2);
    const st = line.indexOf('\x1b\\', i + 2);
    const useBel = bel >= 0 && (st < 0 || bel < st);
    const end = useBel ? bel : st;
    if (end < 0) return line.length;
    applyOsc(line.slice(i + 2, end), pen);
    return end + (useBel ? 1 : 2);
  }
  // Any other escape: ESC plus one character.
  return Math.min(line.length, i + 2);
}

function isCsiFinal(c: number): boolean {
  return c >= 0x40 && c <= 0x7e;
}

function applyOsc(body: string, pen: Pen): void {
  // OSC 8 ; params ; uri — an empty uri ends the link.
  if (!body.startsWith('8;')) return;
  const sep = body.indexOf(';', 2);
  if (sep < 0) return;
  const uri = body.slice(sep + 1);
  pen.link = uri === '' ? undefined : uri;
}

const FLAG_ON: Readonly<Record<number, number>> = {
  1: Attr.bold,
  2: Attr.dim,
  3: Attr.italic,
  4: Attr.underline,
  5: Attr.blink,
  6: Attr.blink,
  7: Attr.inverse,
  8: Attr.invisible,
  9: Attr.strikethrough,
  21: Attr.underline,
  53: Attr.overline,
};

const FLAG_OFF: Readonly<Record<number, number>> = {
  22: Attr.bold | Attr.dim,
  23: Attr.italic,
  24: Attr.underline,
  25: Attr.blink,
  27: Attr.inverse,
  28: Attr.invisible,
  29: Attr.strikethrough,
  55: Attr.overline,
};

function applySgr(paramText: string, pen: Pen): void {
  // Sub-parameters (`4:3`, `38:2::r:g:b`) are read as their leading value or, for colours,
  // with the colon form's colour-space slot skipped.
  const groups = paramText === '' ? [''] : paramText.split(';');
  for (let k = 0; k < groups.length; k++) {
    const sub = groups[k].split(':');
    const p = sub[0] === '' ? 0 : Number(sub[0]);
    if (p === 0) {
      pen.fg = DEFAULT_COLOR;
      pen.bg = DEFAULT_COLOR;
      pen.fl = 0;
    } else if (p === 4 && sub.length > 1 && sub[1] === '0') {
      pen.fl &= ~Attr.underline;
    } else if (FLAG_ON[p] !== undefined) {
      pen.fl |= FLAG_ON[p];
    } else if (FLAG_OFF[p] !== undefined) {
      pen.fl &= ~FLAG_OFF[p];
    } else if (p >= 30 && p <= 37) {
      pen.fg = p - 30;
    } else if (p >= 90 && p <= 97) {
      pen.fg = p - 90 + 8;
    } else if (p === 39) {
      pen.fg = DEFAULT_COLOR;
    } else if (p >= 40 && p <= 47) {
      pen.bg = p - 40;
    } else if (p >= 100 && p <= 107) {
      pen.bg = p - 100 + 8;
    } else if (p === 49) {
      pen.bg = DEFAULT_COLOR;
    } else if (p === 38 || p === 48) {
      let color: Color | null;
      if (sub.length > 1) {
        color = extendedColor(sub.slice(1), true);
      } else {
        const mode = Number(groups[k + 1]);
        const count = mode === 5 ? 1 : mode === 2 ? 3 : 0;
        color = extendedColor(groups.slice(k + 1, k + 2 + count), false);
        k += 1 + count;
      }
      if (color !== null) {
        if (p === 38) pen.fg = color;
        else pen.bg = color;
      }
    }
  }
}

/** `5;n` or `2;r;g;b` (the colon form may carry a colour-space id before r). */
function extendedColor(parts: string[], colonForm: boolean): Color | null {
  const mode = Number(parts[0]);
  if (mode === 5) {
    const n = Number(parts[1]);
    return Number.isInteger(n) && n >= 0 && n <= 255 ? n : null;
  }
  if (mode === 2) {
    const rgb = colonForm && parts.length >= 5 ? parts.slice(2, 5) : parts.slice(1, 4);
    const [r, g, b] = rgb.map((v) => (v === '' || v === undefined ? 0 : Number(v)));
    if (![r, g, b].every((v) => Number.isInteger(v) && v >= 0 && v <= 255)) return null;
    return RGB_FLAG | (r << 16) | (g << 8) | b;
  }
  return null;
}
