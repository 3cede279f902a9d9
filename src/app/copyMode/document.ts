// The document copy mode walks: the loaded window of history lines, read as cells.
import type { Row } from '../../surface/types.js';
import type { CopyModeState } from './types.js';

const cellCache = new WeakMap<Row, string[]>();

/** A row's cells: one string per cell, '' for the second half of a wide character. */
export function rowCells(row: Row): string[] {
  let cells = cellCache.get(row);
  if (cells) return cells;
  cells = [];
  for (const run of row.runs) {
    if (run.w === undefined) {
      for (const ch of run.s) cells.push(ch);
    } else {
      cells.push(run.s);
      for (let i = 1; i < run.w; i++) cells.push('');
    }
  }
  cellCache.set(row, cells);
  return cells;
}

export function loaded(state: CopyModeState, line: number): boolean {
  return line >= state.window.from && line < state.window.from + state.window.rows.length;
}

/** The cells of a loaded line, or null when it is not loaded. */
export function lineCells(state: CopyModeState, line: number): string[] | null {
  return loaded(state, line) ? rowCells(state.window.rows[line - state.window.from]) : null;
}

export function isWrapped(state: CopyModeState, line: number): boolean {
  return loaded(state, line) && state.window.wrapped[line - state.window.from] === true;
}

/** Cells of `cells` that hold text (what follows is blank). */
export function contentLength(cells: readonly string[]): number {
  let n = cells.length;
  while (n > 0 && (cells[n - 1] === ' ' || cells[n - 1] === '')) n--;
  return n;
}

export function clamp(n: number, lo: number, hi: number): number {
  return Math.max(lo, Math.min(hi, n));
}
