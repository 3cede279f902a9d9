// What a client gets back when it reads a tab's history (copy mode, issue 8): the wire's shapes;
// the holder (src/holder/history.ts) fills them from its terminal model.
import type { Row } from '../surface/types.js';

export interface HistoryPage {
  /** Lines in the buffer now: a client can go back to line 0 and forward to `total - 1`. */
  total: number;
  from: number;
  /** Lines `from .. from + lines.length - 1`; each row's `y` is its line number. */
  lines: Row[];
  /** Line numbers (within the page) that continue the line before them (soft wraps). */
  wrapped: number[];
  /** The page is of the alternate screen, which has no scrollback. */
  alt: boolean;
}

/** A match in cells: the client highlights columns `col .. col + len - 1` of `line`. */
export interface CellMatch {
  line: number;
  col: number;
  len: number;
}

export interface SearchResult {
  matches: CellMatch[];
  truncated: boolean;
}
