// Copy mode's word motions, vi's `w`, `b`, `e` and emacs's `M-f`, `M-b`, over the loaded lines.
import { contentLength, lineCells } from './document.js';
import type { CopyModeState, Pos } from './types.js';

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
export function wordNext(state: CopyModeState): Pos {
  const w = walker(state);
  const p = startPos(state);
  if (!p) return state.cursor;
  const start = w.cls(p);
  const past = walkWhile(p, w.next, (q) => start !== 0 && w.cls(q) === start);
  return walkWhile(past, w.next, (q) => w.cls(q) === 0);
}

/**
 * One step from `p`, on past blanks, then to the far edge of the run of one class reached: vi's
 * `e` stepping forward, `b` stepping back.
 */
function farEdgeOfNextRun(w: Walker, p: Pos, step: (p: Pos) => Pos | null, blank: (q: Pos) => boolean): Pos {
  let q = step(p);
  if (!q) return p;
  while (blank(q)) {
    const n = step(q);
    if (!n) return q;
    q = n;
  }
  const cls = w.cls(q);
  for (let n = step(q); n && w.cls(n) === cls; n = step(q)) q = n;
  return q;
}

/** vi `e`: the end of this word, or of the next one when already at an end. */
export function wordEnd(state: CopyModeState): Pos {
  const w = walker(state);
  const p = startPos(state);
  if (!p) return state.cursor;
  return farEdgeOfNextRun(w, p, w.next, (q) => w.cls(q) === 0);
}

/** vi `b` (and emacs `M-b`, which sees only word characters): the start of this or the previous word. */
export function wordBack(state: CopyModeState, wordCharsOnly: boolean): Pos {
  const w = walker(state);
  const p = startPos(state);
  if (!p) return state.cursor;
  return farEdgeOfNextRun(w, p, w.prev, (q) => (wordCharsOnly ? w.cls(q) !== 1 : w.cls(q) === 0));
}

/** emacs `M-f`: just past the end of this or the next run of word characters. */
export function emacsWordForward(state: CopyModeState): Pos {
  const w = walker(state);
  const p = startPos(state);
  if (!p) return state.cursor;
  const word = walkWhile(p, w.next, (q) => w.cls(q) !== 1);
  return walkWhile(word, w.next, (q) => w.cls(q) === 1);
}
