// The inline rename editor as the strip shows it: the text being edited in a chip that grows
// with it up to a cap, scrolled so the cursor is always on screen (SPEC §8 Rename).
import { measure, textWidth } from './width.js';

/** Long enough that most names up to the 64-character limit are seen whole while typing, yet
 *  short enough to leave room for the viewed chip and `+` on an 80-column terminal. */
export const EDITOR_MAX_COLUMNS = 40;

/** An empty or short name still reads as a field to type into. */
export const EDITOR_MIN_COLUMNS = 10;

export interface EditorView {
  /** Exactly the requested width in columns: a space, the visible text, spaces. */
  text: string;
  /** The cursor's column, relative to the start of the editor chip. */
  cursorX: number;
}

/** The width the editor asks for: the text plus a space either side (the right one holds the
 *  cursor when it is at the end), between the minimum and the cap. */
export function editorWidth(text: string): number {
  return Math.min(EDITOR_MAX_COLUMNS, Math.max(EDITOR_MIN_COLUMNS, textWidth(text) + 2));
}

/**
 * The editor drawn `width` columns wide. `cursor` is a UTF-16 offset into `text`; an offset
 * inside a grapheme counts as before that grapheme. When the text is wider than the editor it
 * scrolls as little as possible from the left so that the cursor, and the grapheme under it,
 * are visible.
 */
export function editorView(text: string, cursor: number, width: number): EditorView {
  if (width <= 0) return { text: '', cursorX: 0 };
  if (width === 1) return { text: ' ', cursorX: 0 };
  const room = width - 2;
  const { graphemes: parts, widths } = measure(text);
  const at = Math.max(0, Math.min(text.length, cursor));
  // widthBefore[i]: columns taken by graphemes [0, i); cursorIndex: graphemes wholly before `at`.
  const widthBefore: number[] = [0];
  let cursorIndex = 0;
  let offset = 0;
  for (let i = 0; i < parts.length; i++) {
    offset += parts[i].length;
    if (offset <= at) cursorIndex = i + 1;
    widthBefore.push(widthBefore[i] + widths[i]);
  }
  // The columns from `start` up to and including the grapheme under the cursor (at the end of
  // the text the cursor sits on the trailing space, outside `room`).
  const upToCursor = (start: number): number =>
    cursorIndex < parts.length ? widthBefore[cursorIndex + 1] - widthBefore[start] : widthBefore[cursorIndex] - widthBefore[start];
  let start = 0;
  while (start < cursorIndex && upToCursor(start) > room) start++;
  let shown = '';
  let used = 0;
  for (let i = start; i < parts.length; i++) {
    const w = widthBefore[i + 1] - widthBefore[i];
    if (used + w > room) break;
    shown += parts[i];
    used += w;
  }
  const cursorX = 1 + Math.min(widthBefore[cursorIndex] - widthBefore[start], room);
  return { text: ` ${shown}${' '.repeat(width - 1 - used)}`, cursorX };
}
