// Copy mode as a pure reducer (issue 8): a cursor over the lines of a tab's history, which the
// holder serves a page at a time. The state keeps a window of loaded lines around the view and
// says, as effects, which page it needs next, what to search, what to copy and when to leave; the
// client turns effects into messages and OSC 52. Nothing here touches the tab: copy mode is per
// client and read-only.
//
// The concerns live beside it: types.ts (the shapes), document.ts (cells of loaded lines),
// paging.ts (which page next), keys.ts and words.ts (what each key does), search.ts and
// selection.ts. This file is the reducer's entry and what clients import.
import type { InputEvent } from '../../input/events.js';
import { eventKey } from '../../keymap/keys.js';
import { EMPTY_LINE } from '../overlays/lineEditor.js';
import { clamp, loaded } from './document.js';
import { BY_KEY } from './keys.js';
import { follow, rebase, receivePage, settle } from './paging.js';
import { onPromptKey, onSearchResult, stepMatch } from './search.js';
import { COPY_MAX_LINES, selectionBounds } from './selection.js';
import type { CopyAction, CopyModeStart, CopyModeState, CopyStep } from './types.js';

export type * from './types.js';
export { COPY_MODE_KEYS, type CopyModeKey } from './keys.js';
export { lineCells, rowCells } from './document.js';
export { COPY_PAGE_LINES, KEEP_LINES, PREFETCH_LINES } from './paging.js';
export { COPY_MAX_LINES, selectedRange, selectionText } from './selection.js';

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

function startCopy(state: CopyModeState): CopyStep {
  const bounds = selectionBounds(state);
  if (!bounds) return { state, effects: [] };
  if (bounds.end.line - bounds.start.line + 1 > COPY_MAX_LINES) {
    return { state, effects: [{ kind: 'notice', text: `Selection too large to copy (more than ${COPY_MAX_LINES} lines).` }] };
  }
  return settle({ ...state, copying: true }, []);
}

