// Copy mode's search: the `/` and `?` prompt, the holder's answer, and stepping between matches.
import { editLine } from '../overlays/lineEditor.js';
import type { InputEvent } from '../../input/events.js';
import { follow, settle } from './paging.js';
import type { CopyAction, CopyEffect, CopyModeState, CopyStep, Match, SearchDirection, SearchState } from './types.js';

export function onPromptKey(state: CopyModeState, ev: InputEvent): CopyStep {
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

export function onSearchResult(state: CopyModeState, result: Extract<CopyAction, { kind: 'searchResult' }>): CopyStep {
  if (!state.search) return { state, effects: [] };
  const matches = [...result.matches].sort((a, b) => a.line - b.line || a.col - b.col);
  const withResult = { ...state, total: Math.max(0, result.total), search: { ...state.search, matches, truncated: result.truncated, waiting: false } };
  if (matches.length === 0) return settle(follow(withResult), [{ kind: 'notice', text: 'No match.' }]);
  return stepMatch(follow(withResult), state.search.direction);
}

/** Moves to the next match after (or before) the cursor, wrapping around the history. */
export function stepMatch(state: CopyModeState, direction: SearchDirection): CopyStep {
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

function lastWhere<T>(items: readonly T[], pred: (item: T) => boolean): T | undefined {
  for (let i = items.length - 1; i >= 0; i--) if (pred(items[i])) return items[i];
  return undefined;
}
