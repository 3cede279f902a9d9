// A grid of terminal cells in typed arrays: what the compositor composes and compares. A wide
// cell occupies two columns, the second a continuation (width 0) that carries no text. Writes
// keep that invariant the way a terminal does: overwriting either half of a wide cell blanks
// the other half.
import { DEFAULT_COLOR, type Color } from '../surface/types.js';

/** Largest grid side accepted. Bounds memory (about 31 bytes a cell) against a nonsensical
 * size; the widest real terminals stay well below it. */
export const MAX_GRID_SIDE = 2048;

export interface Cell {
  /** The cell's text: one grapheme; '' for a continuation. */
  ch: string;
  fg: Color;
  bg: Color;
  /** Attr flags, with the underline style in their style bits (see UNDERLINE_STYLE_BITS). */
  fl: number;
  /** 1, 2 for the first column of a wide cell, 0 for its continuation. */
  w: 0 | 1 | 2;
  link?: string;
  /** Underline colour, when the underline has one of its own. */
  uc?: Color;
}

export const BLANK: Readonly<Cell> = Object.freeze({ ch: ' ', fg: DEFAULT_COLOR, bg: DEFAULT_COLOR, fl: 0, w: 1 });

export class CellGrid {
  cols = 0;
  rows = 0;
  ch: string[] = [];
  fg = new Int32Array(0);
  bg = new Int32Array(0);
  fl = new Uint16Array(0);
  width = new Uint8Array(0);
  link: (string | undefined)[] = [];
  /** Underline colour; DEFAULT_COLOR: the text's. */
  uc = new Int32Array(0);

  constructor(cols: number, rows: number) {
    this.resize(cols, rows);
  }

  /** Changes the size, keeping the cells both sizes share. */
  resize(cols: number, rows: number): void {
    checkSide(cols, 'cols');
    checkSide(rows, 'rows');
    const old = { cols: this.cols, rows: this.rows, ch: this.ch, fg: this.fg, bg: this.bg, fl: this.fl, width: this.width, link: this.link, uc: this.uc };
    const n = cols * rows;
    this.cols = cols;
    this.rows = rows;
    this.ch = new Array<string>(n).fill(' ');
    this.fg = new Int32Array(n).fill(DEFAULT_COLOR);
    this.bg = new Int32Array(n).fill(DEFAULT_COLOR);
    this.fl = new Uint16Array(n);
    this.width = new Uint8Array(n).fill(1);
    this.link = new Array<string | undefined>(n).fill(undefined);
    this.uc = new Int32Array(n).fill(DEFAULT_COLOR);
    const w = Math.min(cols, old.cols);
    const h = Math.min(rows, old.rows);
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const i = y * cols + x;
        const j = y * old.cols + x;
        this.ch[i] = old.ch[j];
        this.fg[i] = old.fg[j];
        this.bg[i] = old.bg[j];
        this.fl[i] = old.fl[j];
        this.width[i] = old.width[j];
        this.link[i] = old.link[j];
        this.uc[i] = old.uc[j];
      }
      // A wide cell whose continuation fell off the new right edge cannot stay wide.
      if (w > 0 && this.width[y * cols + w - 1] === 2) this.blankAt(y * cols + w - 1);
    }
  }

  index(x: number, y: number): number {
    return y * this.cols + x;
  }

  get(x: number, y: number): Cell {
    const i = this.index(x, y);
    const cell: Cell = { ch: this.ch[i], fg: this.fg[i], bg: this.bg[i], fl: this.fl[i], w: this.width[i] as 0 | 1 | 2 };
    const link = this.link[i];
    if (link !== undefined) cell.link = link;
    if (this.uc[i] !== DEFAULT_COLOR) cell.uc = this.uc[i];
    return cell;
  }

  set(x: number, y: number, cell: Readonly<Cell>): void {
    if (cell.w === 0) return; // continuations follow from their wide cell
    this.put(x, y, cell.ch, cell.fg, cell.bg, cell.fl, cell.w, cell.link, cell.uc);
  }

  /** Writes one cell (width 1 or 2); outside the grid nothing happens. A wide cell that does
   * not fit before the right edge becomes a blank, as a terminal would leave it. */
  put(x: number, y: number, ch: string, fg: Color, bg: Color, fl: number, w: 1 | 2, link?: string, uc: Color = DEFAULT_COLOR): void {
    if (x < 0 || y < 0 || x >= this.cols || y >= this.rows) return;
    const i = y * this.cols + x;
    if (w === 2 && x === this.cols - 1) {
      ch = ' ';
      w = 1;
    }
    this.release(i, x);
    if (w === 2) this.release(i + 1, x + 1);
    this.ch[i] = ch;
    this.fg[i] = fg;
    this.bg[i] = bg;
    this.fl[i] = fl;
    this.width[i] = w;
    this.link[i] = link;
    this.uc[i] = uc;
    if (w === 2) {
      this.ch[i + 1] = '';
      this.fg[i + 1] = fg;
      this.bg[i + 1] = bg;
      this.fl[i + 1] = fl;
      this.width[i + 1] = 0;
      this.link[i + 1] = link;
      this.uc[i + 1] = uc;
    }
  }

  /** Blanks every cell (default attributes). */
  clear(): void {
    this.ch.fill(' ');
    this.fg.fill(DEFAULT_COLOR);
    this.bg.fill(DEFAULT_COLOR);
    this.fl.fill(0);
    this.width.fill(1);
    this.link.fill(undefined);
    this.uc.fill(DEFAULT_COLOR);
  }

  /** Blanks `w` cells of row `y` from column `x` (clipped to the grid). */
  clearSpan(x: number, y: number, w: number): void {
    if (y < 0 || y >= this.rows) return;
    const from = Math.max(0, x);
    const to = Math.min(this.cols, x + w);
    if (from >= to) return;
    const base = y * this.cols;
    // Wide cells straddling either end lose their outside half too.
    if (this.width[base + from] === 0 && from > 0) this.blankAt(base + from - 1);
    if (to < this.cols && this.width[base + to] === 0) this.blankAt(base + to);
    this.ch.fill(' ', base + from, base + to);
    this.fg.fill(DEFAULT_COLOR, base + from, base + to);
    this.bg.fill(DEFAULT_COLOR, base + from, base + to);
    this.fl.fill(0, base + from, base + to);
    this.width.fill(1, base + from, base + to);
    this.link.fill(undefined, base + from, base + to);
    this.uc.fill(DEFAULT_COLOR, base + from, base + to);
  }

  /** Copies the `w`×`h` region of `src` at (sx, sy) to (dx, dy), clipped to both grids. A wide
   * cell cut by the region's edge arrives as a blank. */
  blit(src: CellGrid, sx: number, sy: number, w: number, h: number, dx: number, dy: number): void {
    for (let ry = 0; ry < h; ry++) {
      const y = sy + ry;
      if (y < 0 || y >= src.rows) continue;
      for (let rx = 0; rx < w; rx++) {
        const x = sx + rx;
        if (x < 0 || x >= src.cols) continue;
        const j = y * src.cols + x;
        const width = src.width[j];
        const cut = (width === 0 && rx === 0) || (width === 2 && (rx === w - 1 || x === src.cols - 1));
        if (cut) this.put(dx + rx, dy + ry, ' ', src.fg[j], src.bg[j], src.fl[j], 1, src.link[j], src.uc[j]);
        else if (width !== 0) this.put(dx + rx, dy + ry, src.ch[j], src.fg[j], src.bg[j], src.fl[j], width as 1 | 2, src.link[j], src.uc[j]);
      }
    }
  }

  /** Makes row `y` equal to row `y` of `src`, a grid of the same width. */
  copyRow(src: CellGrid, y: number): void {
    const from = y * src.cols;
    const to = from + src.cols;
    const base = y * this.cols;
    this.fg.set(src.fg.subarray(from, to), base);
    this.bg.set(src.bg.subarray(from, to), base);
    this.fl.set(src.fl.subarray(from, to), base);
    this.width.set(src.width.subarray(from, to), base);
    this.uc.set(src.uc.subarray(from, to), base);
    for (let i = from; i < to; i++) {
      this.ch[base + i - from] = src.ch[i];
      this.link[base + i - from] = src.link[i];
    }
  }

  /** Whether cell `i` of this grid and cell `j` of `other` look the same. */
  sameCell(i: number, other: CellGrid, j: number): boolean {
    return (
      this.ch[i] === other.ch[j] &&
      this.fg[i] === other.fg[j] &&
      this.bg[i] === other.bg[j] &&
      this.fl[i] === other.fl[j] &&
      this.width[i] === other.width[j] &&
      this.link[i] === other.link[j] &&
      this.uc[i] === other.uc[j]
    );
  }

  /** Before cell `i` (column `x`) is overwritten: blanks the other half of a wide cell it belongs to. */
  private release(i: number, x: number): void {
    const width = this.width[i];
    if (width === 0 && x > 0) this.blankAt(i - 1);
    else if (width === 2 && x + 1 < this.cols) this.blankAt(i + 1);
  }

  /** Turns cell `i` into a width-1 space keeping its attributes. */
  private blankAt(i: number): void {
    this.ch[i] = ' ';
    this.width[i] = 1;
  }
}

function checkSide(n: number, name: string): void {
  if (!Number.isInteger(n) || n < 0 || n > MAX_GRID_SIDE) {
    throw new RangeError(`grid ${name} must be an integer from 0 to ${MAX_GRID_SIDE}, got ${n}`);
  }
}
