// What copy mode shows (issue 8): the loaded history lines in view as a full surface patch, with
// the selection inverted and search matches highlighted, the cursor on copy mode's cursor, and
// the one-line indicator. Pure: the client hands the patch to the compositor in place of the
// live surface, so the live surface keeps updating underneath and returns untouched.
import { Attr, DEFAULT_COLOR, DEFAULT_MODES, type Row, type Run, type SurfacePatch } from '../../surface/types.js';
import { selectedRange, type CopyModeState } from './state.js';

/** Matches show black on yellow (palette 3), as most terminals' and editors' search does. */
const MATCH_FG = 0;
const MATCH_BG = 3;

/** One cell of a row, with its attributes; `w` 0 is the second half of a wide character. */
interface Cell {
  s: string;
  fg: number;
  bg: number;
  fl: number;
  link?: string;
  uc?: number;
  w: number;
}

function cellsOf(row: Row): Cell[] {
  const cells: Cell[] = [];
  for (const run of row.runs) {
    const base = { fg: run.fg, bg: run.bg, fl: run.fl, ...(run.link === undefined ? {} : { link: run.link }), ...(run.uc === undefined ? {} : { uc: run.uc }) };
    if (run.w === undefined) {
      for (const ch of run.s) cells.push({ ...base, s: ch, w: 1 });
    } else {
      cells.push({ ...base, s: run.s, w: run.w });
      for (let i = 1; i < run.w; i++) cells.push({ ...base, s: '', w: 0 });
    }
  }
  return cells;
}

/** Line `line` of the document as screen row `y`, highlighted; blank while it is not loaded. */
function renderLine(state: CopyModeState, line: number, y: number): Row {
  const w = state.window;
  if (line < w.from || line >= w.from + w.rows.length) return { y, runs: [] };
  const row = w.rows[line - w.from];
  const sel = selectedRange(state, line);
  // Most lines carry no match and no selection: the holder's runs go out as they came.
  if (!sel && !state.search?.matches.some((m) => m.line === line)) return { y, runs: row.runs };
  const cells = cellsOf(row);
  while (cells.length < state.cols) cells.push({ s: ' ', fg: DEFAULT_COLOR, bg: DEFAULT_COLOR, fl: 0, w: 1 });
  for (const m of state.search?.matches ?? []) {
    if (m.line !== line) continue;
    for (let x = m.col; x < Math.min(cells.length, m.col + m.len); x++) cells[x] = { ...cells[x], fg: MATCH_FG, bg: MATCH_BG };
  }
  if (sel) {
    for (let x = sel.from; x < Math.min(cells.length, sel.to); x++) cells[x] = { ...cells[x], fl: cells[x].fl ^ Attr.inverse };
  }
  const runs: Run[] = [];
  for (const c of cells.slice(0, state.cols)) {
    if (c.w === 0) continue;
    const single = c.w === 1 && [...c.s].length === 1;
    const last = runs.at(-1);
    // Cells of one code point and the same attributes share a run, as the holder sends them.
    if (single && last && last.w === undefined && last.fg === c.fg && last.bg === c.bg && last.fl === c.fl && last.link === c.link && last.uc === c.uc) {
      last.s += c.s;
      continue;
    }
    const run: Run = { s: c.s, fg: c.fg, bg: c.bg, fl: c.fl, ...(c.link === undefined ? {} : { link: c.link }), ...(c.uc === undefined ? {} : { uc: c.uc }) };
    if (!single) run.w = c.w;
    runs.push(run);
  }
  return { y, runs };
}

/** The copy-mode window as a full surface of `state.height` rows. */
export function copyModePatch(state: CopyModeState): SurfacePatch {
  const lines: Row[] = [];
  for (let y = 0; y < state.height; y++) lines.push(renderLine(state, state.top + y, y));
  return {
    full: true,
    cols: state.cols,
    rows: state.height,
    lines,
    cursor: { x: state.cursor.col, y: state.cursor.line - state.top, visible: true, shape: 'block', blink: false },
    // A copy-mode view asks for nothing of the terminal: the child's modes are not in effect.
    modes: { ...DEFAULT_MODES },
    title: '',
  };
}

/** The indicator: where the cursor is, the search being typed or run, and the key that leaves. */
export function copyModeIndicator(state: CopyModeState): string {
  if (state.prompt) return `${state.prompt.direction === 'forward' ? '/' : '?'}${state.prompt.line.text}`;
  const parts = [`copy · line ${state.cursor.line + 1} of ${state.total}`];
  const search = state.search;
  if (search?.waiting) parts.push('searching…');
  else if (search) {
    const at = search.matches.findIndex((m) => m.line === state.cursor.line && m.col === state.cursor.col);
    const count = `${search.matches.length}${search.truncated ? '+' : ''}`;
    parts.push(at >= 0 ? `match ${at + 1} of ${count}` : `${count} matches`);
  }
  if (state.copying) parts.push('copying…');
  parts.push('q leaves');
  return parts.join(' · ');
}
