// Copy mode as a pure reducer (issue 8): a cursor over the lines of a tab's history, which the
// holder serves a page at a time. The state keeps a window of loaded lines around the view and
// says, as effects, which page it needs next, what to search, what to copy and when to leave; the
// client turns effects into messages and OSC 52. Nothing here touches the tab: copy mode is per
// client and read-only.
import type { InputEvent } from '../../input/events.js';
import { eventKey } from '../../keymap/keys.js';
import type { Row } from '../../surface/types.js';
import { EMPTY_LINE, editLine, type LineState } from '../overlays/lineEditor.js';
import { OSC52_MAX_TEXT_BYTES } from './osc52.js';

/** A page request asks for at most this many lines (the holder's cap, HISTORY_PAGE_MAX_LINES). */
export const COPY_PAGE_LINES = 200;
/** Lines loaded beyond each edge of the view: PageUp/PageDown show loaded lines at once. */
export const PREFETCH_LINES = 200;
/** Lines kept loaded beyond each edge of the view, so the window stays small however far one
 * scrolls (a selection being copied is kept whole). */
export const KEEP_LINES = 600;
/** A selection of more lines cannot fit OSC 52 (each line is at least its line break), so it
 * is refused before any of it is fetched. */
export const COPY_MAX_LINES = OSC52_MAX_TEXT_BYTES;

export type SearchDirection = 'forward' | 'backward';

export interface Pos {
  line: number;
  col: number;
}

export interface Match {
  line: number;
  col: number;
  len: number;
}

export interface Selection {
  anchor: Pos;
  lineWise: boolean;
}

/** Contiguous loaded lines `from .. from + rows.length - 1`. */
export interface LoadedWindow {
  from: number;
  rows: readonly Row[];
  /** wrapped[i]: line `from + i` continues the line before it (a soft wrap). */
  wrapped: readonly boolean[];
}

export interface SearchState {
  text: string;
  direction: SearchDirection;
  /** Every match in reading order (the client highlights them); empty until the result arrives. */
  matches: readonly Match[];
  truncated: boolean;
  waiting: boolean;
}

export interface CopyModeState {
  /** Lines in the document (the holder's buffer length). */
  total: number;
  /** The document's width in cells. */
  cols: number;
  /** Rows of the view. */
  height: number;
  /** The first line in view. */
  top: number;
  cursor: Pos;
  selection: Selection | null;
  window: LoadedWindow;
  /** The page asked for and not yet answered (one at a time). */
  pending: { from: number; count: number } | null;
  /** The holder's dropped-lines count that line numbers refer to. */
  dropped: number;
  /** The search text being typed after `/` or `?`. */
  prompt: { direction: SearchDirection; line: LineState } | null;
  search: SearchState | null;
  /** `y` was pressed: the selection is copied once all of its lines are loaded. */
  copying: boolean;
  /** Keys typed while the cursor's line was still on its way: they run, in order, once it
   * arrives, so `kk0w` typed on entry lands where it would on loaded lines. */
  queued: readonly InputEvent[];
  done: boolean;
}

export type CopyEffect =
  | { kind: 'fetch'; from: number; count: number }
  /** Search the whole history forward, so every match can be highlighted. */
  | { kind: 'search'; text: string }
  | { kind: 'copy'; text: string }
  | { kind: 'notice'; text: string }
  | { kind: 'exit' };

export interface HistoryPageData {
  total: number;
  from: number;
  lines: readonly Row[];
  /** Line numbers that continue the line before them. */
  wrapped: readonly number[];
  dropped: number;
}

export type CopyAction =
  | { kind: 'key'; event: InputEvent }
  | { kind: 'page'; page: HistoryPageData }
  | { kind: 'searchResult'; total: number; matches: readonly Match[]; truncated: boolean; dropped: number }
  | { kind: 'resize'; cols: number; height: number }
  /** The mouse wheel: the view moves by `lines` (negative: back), the cursor stays on it. */
  | { kind: 'scroll'; lines: number }
  /** The left button over the view at row `row` (0 = the top of the view), column `col`: a
   * press places the cursor, a drag selects from the press, a release copies what was dragged. */
  | { kind: 'pointer'; phase: 'press' | 'drag' | 'release'; row: number; col: number };

export interface CopyStep {
  state: CopyModeState;
  effects: CopyEffect[];
}

export interface CopyModeStart {
  total: number;
  cols: number;
  height: number;
  dropped: number;
  /** Where the cursor starts (the child's cursor); default: the start of the last line. */
  cursor?: Pos;
}

/** Copy mode entered with the view on the last `height` lines (what the live surface showed). */
export function startCopyMode(start: CopyModeStart): CopyStep {
  const total = Math.max(0, start.total);
  const state: CopyModeState = {
    total,
    cols: Math.max(1, start.cols),
    height: Math.max(1, start.height),
    top: Math.max(0, total - start.height),
    cursor: start.cursor ?? { line: Math.max(0, total - 1), col: 0 },
    selection: null,
    window: { from: 0, rows: [], wrapped: [] },
    pending: null,
    dropped: start.dropped,
    prompt: null,
    search: null,
    copying: false,
    queued: [],
    done: false,
  };
  return settle(follow(state), []);
}

export function copyModeStep(state: CopyModeState, action: CopyAction): CopyStep {
  if (state.done) return { state, effects: [] };
  switch (action.kind) {
    case 'key':
      return onKey(state, action.event);
    case 'page':
      return runQueued(settle(receivePage(rebase(state, action.page.dropped), action.page), []));
    case 'searchResult':
      return onSearchResult(rebase(state, action.dropped), action);
    case 'resize': {
      const cols = Math.max(1, action.cols);
      // A new width reflows the holder's lines: what was loaded no longer matches them.
      const window = cols === state.cols ? state.window : { from: 0, rows: [], wrapped: [] };
      return settle(follow({ ...state, cols, height: Math.max(1, action.height), window }), []);
    }
    case 'pointer':
      return onPointer(state, action);
    case 'scroll': {
      const top = clamp(state.top + action.lines, 0, Math.max(0, state.total - state.height));
      const line = clamp(state.cursor.line, top, top + state.height - 1);
      return settle(follow({ ...state, top, cursor: { line, col: state.cursor.col } }), []);
    }
  }
}

/** The view shows the last lines of the document (where live output is). */
export function atBottom(state: CopyModeState): boolean {
  return state.top >= Math.max(0, state.total - state.height);
}

// ---- document ----

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

function loaded(state: CopyModeState, line: number): boolean {
  return line >= state.window.from && line < state.window.from + state.window.rows.length;
}

/** The cells of a loaded line, or null when it is not loaded. */
export function lineCells(state: CopyModeState, line: number): string[] | null {
  return loaded(state, line) ? rowCells(state.window.rows[line - state.window.from]) : null;
}

function isWrapped(state: CopyModeState, line: number): boolean {
  return loaded(state, line) && state.window.wrapped[line - state.window.from] === true;
}

/** Cells of `cells` that hold text (what follows is blank). */
function contentLength(cells: readonly string[]): number {
  let n = cells.length;
  while (n > 0 && (cells[n - 1] === ' ' || cells[n - 1] === '')) n--;
  return n;
}

// ---- effects: which page next ----

/** After every change: keep the window bounded, then ask for the first missing page. */
function settle(state: CopyModeState, effects: CopyEffect[]): CopyStep {
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

function receivePage(state: CopyModeState, page: HistoryPageData): CopyModeState {
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
function rebase(state: CopyModeState, dropped: number): CopyModeState {
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
function follow(state: CopyModeState): CopyModeState {
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

// ---- keys ----

type Motion = (state: CopyModeState) => Pos | { pos: Pos; top: number };

const left: Motion = (s) => ({ line: s.cursor.line, col: s.cursor.col - 1 });
const right: Motion = (s) => ({ line: s.cursor.line, col: s.cursor.col + 1 });
const up: Motion = (s) => ({ line: s.cursor.line - 1, col: s.cursor.col });
const down: Motion = (s) => ({ line: s.cursor.line + 1, col: s.cursor.col });
const pageUp: Motion = (s) => ({ pos: { line: s.cursor.line - s.height, col: s.cursor.col }, top: s.top - s.height });
const pageDown: Motion = (s) => ({ pos: { line: s.cursor.line + s.height, col: s.cursor.col }, top: s.top + s.height });
const lineStart: Motion = (s) => ({ line: s.cursor.line, col: 0 });
const lineEnd: Motion = (s) => {
  const cells = lineCells(s, s.cursor.line);
  return { line: s.cursor.line, col: cells ? Math.max(0, contentLength(cells) - 1) : s.cursor.col };
};
const first: Motion = () => ({ line: 0, col: 0 });
const last: Motion = (s) => ({ line: s.total - 1, col: 0 });

type Command = 'leave' | 'select' | 'selectLines' | 'copy' | 'search' | 'nextMatch' | 'previousMatch';

export interface CopyModeKey {
  /** Canonical keys (keymap/keys.ts). */
  readonly keys: readonly string[];
  readonly description: string;
  readonly run: Motion | Command;
}

/** Every key of copy mode, declared once: the reducer and /hotkeys both read this list. */
export const COPY_MODE_KEYS: readonly CopyModeKey[] = [
  { keys: ['h', 'left', 'ctrl+b'], description: 'Left', run: left },
  { keys: ['l', 'right', 'ctrl+f'], description: 'Right', run: right },
  { keys: ['k', 'up', 'ctrl+p'], description: 'Up', run: up },
  { keys: ['j', 'down', 'ctrl+n'], description: 'Down', run: down },
  { keys: ['pageup'], description: 'Page up', run: pageUp },
  { keys: ['pagedown'], description: 'Page down', run: pageDown },
  { keys: ['0', 'home', 'ctrl+a'], description: 'Start of the line', run: lineStart },
  { keys: ['$', 'end', 'ctrl+e'], description: 'End of the line', run: lineEnd },
  { keys: ['g'], description: 'First line of the history', run: first },
  { keys: ['shift+g'], description: 'Last line', run: last },
  { keys: ['w'], description: 'Next word', run: (s) => wordNext(s) },
  { keys: ['b'], description: 'Previous word', run: (s) => wordBack(s, false) },
  { keys: ['e'], description: 'End of the word', run: (s) => wordEnd(s) },
  { keys: ['alt+f'], description: 'Forward a word (emacs)', run: (s) => emacsWordForward(s) },
  { keys: ['alt+b'], description: 'Back a word (emacs)', run: (s) => wordBack(s, true) },
  { keys: ['v', 'space'], description: 'Select characters', run: 'select' },
  { keys: ['shift+v'], description: 'Select lines', run: 'selectLines' },
  { keys: ['y', 'enter'], description: 'Copy the selection (OSC 52)', run: 'copy' },
  { keys: ['/', '?'], description: 'Search forward / back', run: 'search' },
  { keys: ['n'], description: 'Next match', run: 'nextMatch' },
  { keys: ['shift+n'], description: 'Previous match', run: 'previousMatch' },
  { keys: ['q', 'escape'], description: 'Back to live', run: 'leave' },
];

const BY_KEY: ReadonlyMap<string, Motion | Command> = new Map(COPY_MODE_KEYS.flatMap((k) => k.keys.map((key) => [key, k.run] as const)));

/** The cursor's line is asked for and not here yet: a key now would act on nothing. */
function waitsForLines(state: CopyModeState): boolean {
  return state.pending !== null && !loaded(state, state.cursor.line);
}

/** Leaving never waits for lines, unless a queued `/` or `?` makes the key search text. */
function leavesNow(state: CopyModeState, ev: InputEvent): boolean {
  const key = eventKey(ev);
  if (key === null || BY_KEY.get(key) !== 'leave') return false;
  return !state.prompt && !state.queued.some((q) => {
    const k = eventKey(q);
    return k !== null && BY_KEY.get(k) === 'search';
  });
}

/** Runs the queued keys while their lines are loaded; the rest wait for the next page. */
function runQueued(step: CopyStep): CopyStep {
  let state = step.state;
  const effects = [...step.effects];
  while (state.queued.length > 0 && !state.done && !waitsForLines(state)) {
    const [ev, ...rest] = state.queued;
    const next = onKey({ ...state, queued: [] }, ev);
    state = { ...next.state, queued: [...next.state.queued, ...rest] };
    effects.push(...next.effects);
  }
  if (state.done) state = { ...state, queued: [] };
  return { state, effects };
}

function onKey(state: CopyModeState, ev: InputEvent): CopyStep {
  if ((state.queued.length > 0 || (!state.prompt && waitsForLines(state))) && !leavesNow(state, ev)) {
    return { state: { ...state, queued: [...state.queued, ev] }, effects: [] };
  }
  if (state.prompt) return onPromptKey(state, ev);
  const key = eventKey(ev);
  if (key === null) return { state, effects: [] };
  // While the selection loads for copying it must not change; only leaving is possible.
  if (state.copying && BY_KEY.get(key) !== 'leave') return { state, effects: [] };
  const run = BY_KEY.get(key);
  if (typeof run === 'function') {
    const moved = run(state);
    const next = 'pos' in moved ? { ...state, cursor: moved.pos, top: moved.top } : { ...state, cursor: moved };
    return settle(follow(next), []);
  }
  switch (run) {
    case 'leave':
      return { state: { ...state, done: true, copying: false, queued: [] }, effects: [{ kind: 'exit' }] };
    case 'select':
      return settle({ ...state, selection: state.selection && !state.selection.lineWise ? null : { anchor: state.selection?.anchor ?? state.cursor, lineWise: false } }, []);
    case 'selectLines':
      return settle({ ...state, selection: state.selection?.lineWise ? null : { anchor: state.selection?.anchor ?? state.cursor, lineWise: true } }, []);
    case 'copy':
      return startCopy(state);
    case 'search':
      return { state: { ...state, prompt: { direction: key === '/' ? 'forward' : 'backward', line: EMPTY_LINE } }, effects: [] };
    case 'nextMatch':
      return stepMatch(state, state.search?.direction ?? 'forward');
    case 'previousMatch':
      return stepMatch(state, state.search?.direction === 'backward' ? 'forward' : 'backward');
    default:
      return { state, effects: [] };
  }
}

function onPromptKey(state: CopyModeState, ev: InputEvent): CopyStep {
  const prompt = state.prompt!;
  const { state: line, action } = editLine(prompt.line, ev);
  if (action === 'cancel') return { state: { ...state, prompt: null }, effects: [] };
  if (action !== 'submit') return { state: { ...state, prompt: { ...prompt, line } }, effects: [] };
  // An empty search repeats the last one, as in vi.
  const text = line.text !== '' ? line.text : (state.search?.text ?? '');
  if (text === '') return { state: { ...state, prompt: null }, effects: [] };
  const search: SearchState = { text, direction: prompt.direction, matches: [], truncated: false, waiting: true };
  return { state: { ...state, prompt: null, search }, effects: [{ kind: 'search', text }] };
}

function onSearchResult(state: CopyModeState, result: Extract<CopyAction, { kind: 'searchResult' }>): CopyStep {
  if (!state.search) return { state, effects: [] };
  const matches = [...result.matches].sort((a, b) => a.line - b.line || a.col - b.col);
  const withResult = { ...state, total: Math.max(0, result.total), search: { ...state.search, matches, truncated: result.truncated, waiting: false } };
  if (matches.length === 0) return settle(follow(withResult), [{ kind: 'notice', text: 'No match.' }]);
  return stepMatch(follow(withResult), state.search.direction);
}

/** Moves to the next match after (or before) the cursor, wrapping around the history. */
function stepMatch(state: CopyModeState, direction: SearchDirection): CopyStep {
  const matches = state.search?.matches ?? [];
  if (matches.length === 0) return { state, effects: [] };
  const c = state.cursor;
  const after = (m: Match) => m.line > c.line || (m.line === c.line && m.col > c.col);
  const before = (m: Match) => m.line < c.line || (m.line === c.line && m.col < c.col);
  const target =
    direction === 'forward'
      ? (matches.find(after) ?? matches[0])
      : (lastWhere(matches, before) ?? matches[matches.length - 1]);
  const wrapped = direction === 'forward' ? !after(target) : !before(target);
  const effects: CopyEffect[] = wrapped && matches.length > 1 ? [{ kind: 'notice', text: direction === 'forward' ? 'Search wrapped to the top.' : 'Search wrapped to the bottom.' }] : [];
  return settle(follow({ ...state, cursor: { line: target.line, col: target.col } }), effects);
}

// ---- words ----

type CharClass = 0 | 1 | 2;
const WORD_CHAR = /^[\p{L}\p{N}_]/u;

function classOf(s: string): CharClass {
  if (s === ' ' || s === '') return 0;
  return WORD_CHAR.test(s) ? 1 : 2;
}

/**
 * Word motions walk positions over loaded lines: each cell that holds text, then one line
 * break per line (at the column after its text, blank). They stop where nothing is loaded.
 */
interface Walker {
  cls(p: Pos): CharClass;
  next(p: Pos): Pos | null;
  prev(p: Pos): Pos | null;
}

function walker(state: CopyModeState): Walker {
  const len = (line: number) => {
    const cells = lineCells(state, line);
    return cells ? contentLength(cells) : -1;
  };
  return {
    cls(p) {
      const cells = lineCells(state, p.line);
      if (!cells || p.col >= contentLength(cells)) return 0;
      return classOf(cells[p.col]);
    },
    next(p) {
      const n = len(p.line);
      if (n < 0) return null;
      if (p.col < n) {
        const cells = lineCells(state, p.line)!;
        let col = p.col + 1;
        while (col < n && cells[col] === '') col++;
        return { line: p.line, col };
      }
      return p.line + 1 < state.total && len(p.line + 1) >= 0 ? { line: p.line + 1, col: 0 } : null;
    },
    prev(p) {
      const n = len(p.line);
      if (n < 0) return null;
      if (p.col > 0) {
        const cells = lineCells(state, p.line)!;
        let col = Math.min(p.col, n) - 1;
        while (col > 0 && cells[col] === '') col--;
        return { line: p.line, col: Math.max(0, col) };
      }
      if (p.line === 0) return null;
      const before = len(p.line - 1);
      return before >= 0 ? { line: p.line - 1, col: before } : null;
    },
  };
}

function startPos(state: CopyModeState): Pos | null {
  const cells = lineCells(state, state.cursor.line);
  return cells ? { line: state.cursor.line, col: Math.min(state.cursor.col, contentLength(cells)) } : null;
}

/** Walks from `p` while `more` holds; stops on the first position where it does not, or at the
 * last loaded position. */
function walkWhile(p: Pos, step: (p: Pos) => Pos | null, more: (p: Pos) => boolean): Pos {
  while (more(p)) {
    const n = step(p);
    if (!n) return p;
    p = n;
  }
  return p;
}

/** vi `w`: the start of the next word (a run of word characters, or of other non-blanks). */
function wordNext(state: CopyModeState): Pos {
  const w = walker(state);
  const p = startPos(state);
  if (!p) return state.cursor;
  const start = w.cls(p);
  const past = walkWhile(p, w.next, (q) => start !== 0 && w.cls(q) === start);
  return walkWhile(past, w.next, (q) => w.cls(q) === 0);
}

/** vi `e`: the end of this word, or of the next one when already at an end. */
function wordEnd(state: CopyModeState): Pos {
  const w = walker(state);
  const p = startPos(state);
  if (!p) return state.cursor;
  let q = w.next(p);
  if (!q) return p;
  while (w.cls(q) === 0) {
    const n = w.next(q);
    if (!n) return q;
    q = n;
  }
  const cls = w.cls(q);
  for (let n = w.next(q); n && w.cls(n) === cls; n = w.next(q)) q = n;
  return q;
}

/** vi `b` (and emacs `M-b`, which sees only word characters): the start of this or the previous word. */
function wordBack(state: CopyModeState, wordCharsOnly: boolean): Pos {
  const w = walker(state);
  const p = startPos(state);
  if (!p) return state.cursor;
  const blank = (q: Pos) => (wordCharsOnly ? w.cls(q) !== 1 : w.cls(q) === 0);
  let q = w.prev(p);
  if (!q) return p;
  while (blank(q)) {
    const n = w.prev(q);
    if (!n) return q;
    q = n;
  }
  const cls = w.cls(q);
  for (let n = w.prev(q); n && w.cls(n) === cls; n = w.prev(q)) q = n;
  return q;
}

/** emacs `M-f`: just past the end of this or the next run of word characters. */
function emacsWordForward(state: CopyModeState): Pos {
  const w = walker(state);
  const p = startPos(state);
  if (!p) return state.cursor;
  const word = walkWhile(p, w.next, (q) => w.cls(q) !== 1);
  return walkWhile(word, w.next, (q) => w.cls(q) === 1);
}

function onPointer(state: CopyModeState, action: Extract<CopyAction, { kind: 'pointer' }>): CopyStep {
  if (state.copying || state.prompt) return { state, effects: [] };
  const at = { line: state.top + action.row, col: action.col };
  switch (action.phase) {
    case 'press':
      return settle(follow({ ...state, cursor: at, selection: null }), []);
    case 'drag':
      return settle(follow({ ...state, selection: state.selection ?? { anchor: state.cursor, lineWise: false }, cursor: at }), []);
    case 'release':
      return state.selection ? startCopy(state) : { state, effects: [] };
  }
}

// ---- copy ----

function selectionBounds(state: CopyModeState): { start: Pos; end: Pos; lineWise: boolean } | null {
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

function startCopy(state: CopyModeState): CopyStep {
  const bounds = selectionBounds(state);
  if (!bounds) return { state, effects: [] };
  if (bounds.end.line - bounds.start.line + 1 > COPY_MAX_LINES) {
    return { state, effects: [{ kind: 'notice', text: `Selection too large to copy (more than ${COPY_MAX_LINES} lines).` }] };
  }
  return settle({ ...state, copying: true }, []);
}

/** The copy and exit effects, once every selected line is loaded; null while some are missing. */
function tryCopy(state: CopyModeState): CopyEffect[] | null {
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

function lastWhere<T>(items: readonly T[], pred: (item: T) => boolean): T | undefined {
  for (let i = items.length - 1; i >= 0; i--) if (pred(items[i])) return items[i];
  return undefined;
}

function clamp(n: number, lo: number, hi: number): number {
  return Math.max(lo, Math.min(hi, n));
}
