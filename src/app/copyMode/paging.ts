// Copy mode's history paging: which page of the holder's history to ask for next, how an
// answered page joins the loaded window, and how the window stays small however far one scrolls.
import { tryCopy } from './selection.js';
import { clamp, loaded } from './document.js';
import type { CopyEffect, CopyModeState, CopyStep, HistoryPageData, LoadedWindow } from './types.js';
import type { Row } from '../../surface/types.js';

/** A page request asks for at most this many lines (the holder's cap, HISTORY_PAGE_MAX_LINES). */
export const COPY_PAGE_LINES = 200;
/** Lines loaded beyond each edge of the view: PageUp/PageDown show loaded lines at once. */
export const PREFETCH_LINES = 200;
/** Lines kept loaded beyond each edge of the view, so the window stays small however far one
 * scrolls (a selection being copied is kept whole). */
export const KEEP_LINES = 600;

/** After every change: keep the window bounded, then ask for the first missing page. */
export function settle(state: CopyModeState, effects: CopyEffect[]): CopyStep {
  let next = trimWindow(state);
  const out = [...effects];
  if (next.copying) {
    const copied = tryCopy(next);
    if (copied) return { state: { ...next, copying: false, done: true }, effects: [...out, ...copied] };
  }
  if (next.pending === null) {
    const want = missingRange(next);
    if (want) {
      next = { ...next, pending: want };
      out.push({ kind: 'fetch', from: want.from, count: want.count });
    }
  }
  return { state: next, effects: out };
}

/** The lines that must stay loaded: the view with margins, and the selection while copying. */
function wantedRange(state: CopyModeState, margin: number): { from: number; to: number } {
  let from = Math.max(0, state.top - margin);
  let to = Math.min(state.total, state.top + state.height + margin);
  if (state.copying && state.selection) {
    from = Math.min(from, Math.min(state.selection.anchor.line, state.cursor.line));
    to = Math.max(to, Math.max(state.selection.anchor.line, state.cursor.line) + 1);
  }
  return { from, to };
}

function missingRange(state: CopyModeState): { from: number; count: number } | null {
  // The margins are topped up once half is used, a whole page at a time: scrolling asks for a
  // page every 100 lines, not a few lines every notch.
  const { from, to } = wantedRange(state, PREFETCH_LINES / 2);
  const ranges: [number, number][] = [[from, to]];
  // The view first, so what is on screen arrives first; but not while copying, where the
  // selection loads from its first line on and a view-first page would replace it again.
  if (!state.copying) ranges.unshift([Math.max(0, Math.min(state.top, state.total)), Math.min(state.total, state.top + state.height)]);
  for (const [a, b] of ranges) {
    for (let line = a; line < b; line++) {
      if (loaded(state, line)) continue;
      let end = line;
      while (end < b && !loaded(state, end)) end++;
      const w = state.window;
      // A gap that ends at the window is filled from the window's side, keeping it whole.
      if (w.rows.length > 0 && end === w.from) {
        const start = Math.max(0, end - COPY_PAGE_LINES);
        return { from: start, count: end - start };
      }
      if (w.rows.length > 0 && line === w.from + w.rows.length) return { from: line, count: Math.min(COPY_PAGE_LINES, state.total - line) };
      return { from: line, count: Math.min(COPY_PAGE_LINES, end - line) };
    }
  }
  return null;
}

function trimWindow(state: CopyModeState): CopyModeState {
  const w = state.window;
  if (w.rows.length === 0) return state;
  const { from, to } = wantedRange(state, KEEP_LINES);
  const start = Math.max(w.from, from);
  const end = Math.min(w.from + w.rows.length, to);
  if (start === w.from && end === w.from + w.rows.length) return state;
  if (start >= end) return { ...state, window: { from: 0, rows: [], wrapped: [] } };
  return {
    ...state,
    window: { from: start, rows: w.rows.slice(start - w.from, end - w.from), wrapped: w.wrapped.slice(start - w.from, end - w.from) },
  };
}

export function receivePage(state: CopyModeState, page: HistoryPageData): CopyModeState {
  const total = Math.max(0, page.total);
  const wrappedSet = new Set(page.wrapped);
  const rows = page.lines.slice();
  const wrapped = rows.map((_, i) => wrappedSet.has(page.from + i));
  const w = state.window;
  const pageEnd = page.from + rows.length;
  const wEnd = w.from + w.rows.length;
  let window: LoadedWindow;
  if (w.rows.length > 0 && page.from <= wEnd && pageEnd >= w.from) {
    // Overlapping or adjacent: the page's lines are newer than the window's.
    const from = Math.min(w.from, page.from);
    const end = Math.max(wEnd, pageEnd);
    const merged: Row[] = [];
    const mergedWrapped: boolean[] = [];
    for (let line = from; line < end; line++) {
      const inPage = line >= page.from && line < pageEnd;
      merged.push(inPage ? rows[line - page.from] : w.rows[line - w.from]);
      mergedWrapped.push(inPage ? wrapped[line - page.from] : w.wrapped[line - w.from]);
    }
    window = { from, rows: merged, wrapped: mergedWrapped };
  } else {
    window = { from: page.from, rows, wrapped };
  }
  // Lines past a shrunken buffer's end are gone.
  if (window.from + window.rows.length > total) {
    const keep = Math.max(0, total - window.from);
    window = { from: window.from, rows: window.rows.slice(0, keep), wrapped: window.wrapped.slice(0, keep) };
  }
  return follow({ ...state, total, window, pending: null });
}

/**
 * The holder dropped lines off the top of a full scrollback since the state's line numbers were
 * given: every line number moves up by as many, so the view and the cursor stay on their text.
 */
export function rebase(state: CopyModeState, dropped: number): CopyModeState {
  const delta = dropped - state.dropped;
  if (delta === 0) return state;
  const line = (n: number) => Math.max(0, n - delta);
  const w = state.window;
  const cut = Math.min(w.rows.length, Math.max(0, delta - w.from));
  return {
    ...state,
    dropped,
    top: line(state.top),
    cursor: { line: line(state.cursor.line), col: state.cursor.col },
    selection: state.selection ? { ...state.selection, anchor: { ...state.selection.anchor, line: line(state.selection.anchor.line) } } : null,
    window: { from: Math.max(0, w.from - delta), rows: w.rows.slice(cut), wrapped: w.wrapped.slice(cut) },
    // The pending reply still comes; its own count places it.
    search: state.search
      ? { ...state.search, matches: state.search.matches.filter((m) => m.line >= delta).map((m) => ({ ...m, line: m.line - delta })) }
      : null,
  };
}

/** Keeps the cursor inside the document and the view on the cursor. */
export function follow(state: CopyModeState): CopyModeState {
  const lastLine = Math.max(0, state.total - 1);
  const cursor = { line: clamp(state.cursor.line, 0, lastLine), col: clamp(state.cursor.col, 0, state.cols - 1) };
  let top = state.top;
  if (cursor.line < top) top = cursor.line;
  if (cursor.line >= top + state.height) top = cursor.line - state.height + 1;
  top = clamp(top, 0, Math.max(0, state.total - state.height));
  const selection = state.selection
    ? { ...state.selection, anchor: { line: clamp(state.selection.anchor.line, 0, lastLine), col: clamp(state.selection.anchor.col, 0, state.cols - 1) } }
    : null;
  return { ...state, cursor, top, selection };
}
