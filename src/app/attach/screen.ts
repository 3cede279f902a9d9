// The outer screen as the client lays it out: its size, the strip as last laid out, and the
// surface's place under the strip (and under the first-run hint while that has a row of its own).
import type { StripLayout } from '../strip/layout.js';
import { surfaceRowsOf } from './geometry.js';
import type { HintLine } from './hintLine.js';

/** Used while the terminal does not say its size. */
const DEFAULT_COLS = 80;
const DEFAULT_ROWS = 24;

export class AttachScreen {
  cols: number;
  rows: number;
  /** The strip as last laid out, where the mouse finds its chips. */
  strip: StripLayout | null = null;

  constructor(
    private readonly terminal: { readonly columns?: number; readonly rows?: number },
    private readonly hint: HintLine,
  ) {
    this.cols = terminal.columns || DEFAULT_COLS;
    this.rows = terminal.rows || DEFAULT_ROWS;
  }

  /** The terminal resized: its new size, or the last one while it says none. */
  measure(): void {
    this.cols = this.terminal.columns || this.cols;
    this.rows = this.terminal.rows || this.rows;
  }

  /** The screen row of the surface's first row. */
  surfaceTop(): number {
    return this.hint.surfaceTop();
  }

  /** The surface's size on the outer screen. */
  surfaceSize(): { cols: number; rows: number } {
    return { cols: this.cols, rows: surfaceRowsOf(this.rows, this.surfaceTop()) };
  }
}
