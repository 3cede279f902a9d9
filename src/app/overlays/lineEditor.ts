// A single-line editor as a pure reducer over `{ text, cursor }`: the command prompt, the inline
// rename and the picker's filter all edit through it. The cursor counts graphemes, so it never
// lands inside an emoji, a ZWJ sequence or a letter with combining marks.
import stringWidth from 'string-width';
import type { InputEvent } from '../../input/events.js';
import { eventKey } from '../../keymap/keys.js';
import { graphemeSegmenter } from '../../graphemes.js';

export interface LineState {
  readonly text: string;
  /** Graphemes before the cursor: 0 ..= the text's grapheme count. */
  readonly cursor: number;
}

export type LineAction = 'none' | 'submit' | 'cancel';

export interface LineResult {
  state: LineState;
  action: LineAction;
}

/**
 * A line holds a command or a tab name (at most 64 characters); the bound only keeps a stray
 * huge paste from making every later keystroke re-segment megabytes.
 */
export const LINE_MAX_GRAPHEMES = 1024;

export const EMPTY_LINE: LineState = { text: '', cursor: 0 };

// C0 controls, DEL and C1 controls: never part of a line.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;
const LINE_BREAKS_AT_END = /(?:\r\n|\r|\n)+$/;
const LINE_BREAK_OR_TAB = /\r\n|\r|\n|\t/g;
const SPACE = /^\s$/u;

function graphemes(text: string): string[] {
  return Array.from(graphemeSegmenter().segment(text), (s) => s.segment);
}

/** The state for `text` with the cursor at a code-unit offset, moved to the end of the grapheme it falls in. */
function at(text: string, offset: number): LineState {
  let cursor = 0;
  for (const { index } of graphemeSegmenter().segment(text)) {
    if (index >= offset) break;
    cursor++;
  }
  return { text, cursor };
}

/** Code units before the cursor. */
export function cursorOffset(state: LineState): number {
  let graphemeIndex = 0;
  for (const { index } of graphemeSegmenter().segment(state.text)) {
    if (graphemeIndex === state.cursor) return index;
    graphemeIndex++;
  }
  return state.text.length;
}

/** Keeps at most `room` graphemes of `text`. */
function bounded(text: string, room: number): string {
  return room <= 0 ? '' : graphemes(text).slice(0, room).join('');
}

/** A line holding `text` (controls stripped, bounded) with the cursor at its end. */
export function lineOf(text: string): LineState {
  const clean = bounded(text.replace(CONTROL, ''), LINE_MAX_GRAPHEMES);
  return at(clean, clean.length);
}

function insert(state: LineState, inserted: string): LineState {
  const g = graphemes(state.text);
  const piece = bounded(inserted, LINE_MAX_GRAPHEMES - g.length);
  if (piece === '') return state;
  const offset = cursorOffset(state);
  const text = state.text.slice(0, offset) + piece + state.text.slice(offset);
  return at(text, offset + piece.length);
}

/** Pasted lines join with spaces (a trailing line break is dropped): a line has no breaks. */
function pastedText(s: string): string {
  return s.replace(LINE_BREAKS_AT_END, '').replace(LINE_BREAK_OR_TAB, ' ').replace(CONTROL, '');
}

/** Removes graphemes [from, to) and leaves the cursor at `from`. */
function remove(state: LineState, from: number, to: number): LineState {
  from = Math.max(0, from);
  if (from >= to) return state;
  const g = graphemes(state.text);
  const before = g.slice(0, from).join('');
  return at(before + g.slice(to).join(''), before.length);
}

function move(state: LineState, cursor: number): LineState {
  const count = graphemes(state.text).length;
  return { text: state.text, cursor: Math.max(0, Math.min(count, cursor)) };
}

/** Words are runs of non-space graphemes (as shells' Ctrl+W sees them). */
function wordStartBefore(state: LineState): number {
  const g = graphemes(state.text);
  let i = state.cursor;
  while (i > 0 && SPACE.test(g[i - 1])) i--;
  while (i > 0 && !SPACE.test(g[i - 1])) i--;
  return i;
}

function wordEndAfter(state: LineState): number {
  const g = graphemes(state.text);
  let i = state.cursor;
  while (i < g.length && SPACE.test(g[i])) i++;
  while (i < g.length && !SPACE.test(g[i])) i++;
  return i;
}

type Edit = (state: LineState) => LineState;

const toStart: Edit = (s) => move(s, 0);
const toEnd: Edit = (s) => move(s, Number.MAX_SAFE_INTEGER);
const left: Edit = (s) => move(s, s.cursor - 1);
const right: Edit = (s) => move(s, s.cursor + 1);
const wordLeft: Edit = (s) => move(s, wordStartBefore(s));
const wordRight: Edit = (s) => move(s, wordEndAfter(s));
const deleteBack: Edit = (s) => remove(s, s.cursor - 1, s.cursor);
const deleteForward: Edit = (s) => remove(s, s.cursor, s.cursor + 1);
const deleteWordBack: Edit = (s) => remove(s, wordStartBefore(s), s.cursor);
const killToStart: Edit = (s) => remove(s, 0, s.cursor);
const killToEnd: Edit = (s) => remove(s, s.cursor, Number.MAX_SAFE_INTEGER);

/** Keys (canonical, as keymap/keys.ts writes them) and the readline edits they make. */
const EDITS: Readonly<Record<string, Edit>> = {
  left, right, 'ctrl+b': left, 'ctrl+f': right,
  home: toStart, end: toEnd, 'ctrl+a': toStart, 'ctrl+e': toEnd,
  'ctrl+left': wordLeft, 'ctrl+right': wordRight, 'alt+b': wordLeft, 'alt+f': wordRight,
  backspace: deleteBack, delete: deleteForward,
  'ctrl+w': deleteWordBack, 'alt+backspace': deleteWordBack, 'ctrl+backspace': deleteWordBack,
  'ctrl+u': killToStart, 'ctrl+k': killToEnd,
};

/** Typed text: any modifier other than shift makes it a command key, not text. */
function typedText(ev: InputEvent): string | null {
  if (ev.k === 'text' && !ev.mods?.ctrl && !ev.mods?.alt && !ev.mods?.meta) return ev.s.replace(CONTROL, '');
  if (ev.k === 'key' && ev.key === 'space' && !ev.mods?.ctrl && !ev.mods?.alt && !ev.mods?.meta) return ' ';
  return null;
}

export function editLine(state: LineState, ev: InputEvent): LineResult {
  if (ev.k === 'paste') return { state: insert(state, pastedText(ev.s)), action: 'none' };
  const typed = typedText(ev);
  if (typed !== null) return { state: insert(state, typed), action: 'none' };
  const key = eventKey(ev);
  if (key === 'enter') return { state, action: 'submit' };
  if (key === 'escape') return { state, action: 'cancel' };
  const edit = key === null ? undefined : Object.hasOwn(EDITS, key) ? EDITS[key] : undefined;
  return { state: edit ? edit(state) : state, action: 'none' };
}

export interface LineView {
  /** The visible text before the cursor. */
  readonly before: string;
  /** The grapheme under the cursor; '' when the cursor is past the end (draw a blank cell). */
  readonly under: string;
  readonly after: string;
}

/**
 * What a field `width` columns wide shows: the whole line when it fits with a cell for the
 * cursor, otherwise the stretch that ends just after the cursor, so the cursor stays visible.
 * Together the parts (with a blank cell for an empty `under`) are at most `width` columns.
 */
export function lineView(state: LineState, width: number): LineView {
  const g = graphemes(state.text);
  const widths = g.map((s) => stringWidth(s));
  // The cursor sits on the grapheme after it, or on one blank cell at the end.
  const cursorCell = state.cursor < g.length ? widths[state.cursor] : 1;
  if (width <= 0 || cursorCell > width) return { before: '', under: '', after: '' };
  let start = 0;
  let used = widths.slice(0, state.cursor).reduce((a, b) => a + b, 0);
  while (used + cursorCell > width) used -= widths[start++];
  const before = g.slice(start, state.cursor).join('');
  used += cursorCell;
  const under = g[state.cursor] ?? '';
  let after = '';
  for (let i = state.cursor + 1; i < g.length && used + widths[i] <= width; i++) {
    after += g[i];
    used += widths[i];
  }
  return { before, under, after };
}
