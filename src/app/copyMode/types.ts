// Copy mode's shapes (issue 8): the reducer's state, the actions it takes and the effects it
// asks the client to carry out. state.ts re-exports them for the client.
import type { InputEvent } from '../../input/events.js';
import type { Row } from '../../surface/types.js';
import type { LineState } from '../overlays/lineEditor.js';

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

