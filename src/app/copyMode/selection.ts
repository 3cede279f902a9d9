// Copy mode's selection: its bounds, the cells drawn inverted and the text `y` copies.
import { OSC52_MAX_TEXT_BYTES } from './osc52.js';
import { contentLength, isWrapped, lineCells } from './document.js';
import type { CopyEffect, CopyModeState, Pos } from './types.js';

/** A selection of more lines cannot fit OSC 52 (each line is at least its line break), so it
 * is refused before any of it is fetched. */
export const COPY_MAX_LINES = OSC52_MAX_TEXT_BYTES;

export function selectionBounds(state: CopyModeState): { start: Pos; end: Pos; lineWise: boolean } | null {
  const sel = state.selection;
  if (!sel) return null;
  const a = sel.anchor;
  const b = state.cursor;
  const aFirst = a.line < b.line || (a.line === b.line && a.col <= b.col);
  return { start: aFirst ? a : b, end: aFirst ? b : a, lineWise: sel.lineWise };
}

/** The cells of `line` the selection covers, `from` included and `to` not (for drawing it). */
export function selectedRange(state: CopyModeState, line: number): { from: number; to: number } | null {
  const bounds = selectionBounds(state);
  if (!bounds || line < bounds.start.line || line > bounds.end.line) return null;
  if (bounds.lineWise) return { from: 0, to: state.cols };
  return { from: line === bounds.start.line ? bounds.start.col : 0, to: line === bounds.end.line ? bounds.end.col + 1 : state.cols };
}

/** The copy and exit effects, once every selected line is loaded; null while some are missing. */
export function tryCopy(state: CopyModeState): CopyEffect[] | null {
  const text = selectionText(state);
  return text === null ? null : [{ kind: 'copy', text }, { kind: 'exit' }];
}

/**
 * The selected text: cells from the start to the end position (both included; whole lines when
 * line-wise), without the blank cells after a line's text, lines joined by line breaks except
 * where a line continues (soft wrap). Null while a selected line is not loaded.
 */
export function selectionText(state: CopyModeState): string | null {
  const bounds = selectionBounds(state);
  if (!bounds) return null;
  const { start, end, lineWise } = bounds;
  let text = '';
  for (let line = start.line; line <= end.line; line++) {
    const cells = lineCells(state, line);
    if (!cells) return null;
    const n = contentLength(cells);
    const from = lineWise || line !== start.line ? 0 : start.col;
    const to = lineWise || line !== end.line ? n : Math.min(n, end.col + 1);
    if (line > start.line && !isWrapped(state, line)) text += '\n';
    for (let col = from; col < to; col++) text += cells[col];
  }
  return text;
}
