// Reads the headless terminal's viewport into the wire model (rows of attribute runs, cursor,
// modes, title). Read-only: extraction never changes the terminal.
import type { IBufferCell, Terminal } from '@xterm/headless';
import type { ModeTracker } from './modes.js';
import { Attr, DEFAULT_COLOR, RGB_FLAG, type Color, type Cursor, type Row, type Run, type SurfacePatch } from './types.js';

export type ExtractOptions = { full: true } | { full: false; rows: number[] };

/** Viewport row `y` (0-based) as runs; trailing default-attribute blanks are left out. */
export function extractRow(term: Terminal, y: number): Row {
  return extractLineAs(term, term.buffer.active.viewportY + y, y);
}

/**
 * Line `index` of the active buffer (0 = oldest scrollback line) as runs, in the same form as a
 * viewport row; its `y` is the buffer index. Copy mode reads history through it.
 */
export function extractBufferLine(term: Terminal, index: number): Row {
  return extractLineAs(term, index, index);
}

function extractLineAs(term: Terminal, index: number, y: number): Row {
  const buffer = term.buffer.active;
  const line = buffer.getLine(index);
  const runs: Run[] = [];
  if (!line) return { y, runs };
  const linkOf = linkResolver(term);
  const cell = buffer.getNullCell();
  // The run that width-1 single-code-point cells with equal attributes may extend.
  let open: Run | null = null;
  const cols = Math.min(line.length, term.cols);
  for (let x = 0; x < cols; x++) {
    line.getCell(x, cell);
    const width = cell.getWidth();
    const chars = cell.getChars();
    // The second column of a wide character: its text lives in the first.
    if (width === 0 && chars === '') continue;
    const s = chars === '' ? ' ' : chars;
    const fg = fgOf(cell);
    const bg = bgOf(cell);
    const link = linkOf(cell);
    const fl = link === undefined ? flagsOf(cell) : linkedFlags(cell, flagsOf(cell));
    if (width === 1 && isSingleCodePoint(s)) {
      if (open && open.fg === fg && open.bg === bg && open.fl === fl && open.link === link) {
        open.s += s;
      } else {
        open = makeRun(s, fg, bg, fl, link);
        runs.push(open);
      }
    } else {
      // A wide cell, a cluster, or a lone zero-width code point that still took a column.
      const run = makeRun(s, fg, bg, fl, link);
      run.w = width === 0 ? 1 : width;
      runs.push(run);
      open = null;
    }
  }
  trimTrailingBlanks(runs);
  return { y, runs };
}

export function extractCursor(term: Terminal, tracker: ModeTracker): Cursor {
  const buffer = term.buffer.active;
  const y = buffer.baseY + buffer.cursorY - buffer.viewportY;
  const onScreen = y >= 0 && y < term.rows;
  const cursor: Cursor = {
    // After writing the last column the cursor waits at `cols` for the next character.
    x: Math.min(buffer.cursorX, term.cols - 1),
    y: onScreen ? y : Math.max(0, Math.min(term.rows - 1, y)),
    visible: tracker.cursorVisible && onScreen,
    shape: tracker.cursorShape,
    blink: tracker.cursorBlink,
  };
  if (tracker.cursorDefaultStyle) cursor.defaultStyle = true;
  return cursor;
}

export function extractSurface(term: Terminal, tracker: ModeTracker, opts: ExtractOptions): SurfacePatch {
  const lines: Row[] = [];
  if (opts.full) {
    for (let y = 0; y < term.rows; y++) lines.push(extractRow(term, y));
  } else {
    for (const y of opts.rows) if (Number.isInteger(y) && y >= 0 && y < term.rows) lines.push(extractRow(term, y));
  }
  return {
    full: opts.full,
    cols: term.cols,
    rows: term.rows,
    lines,
    cursor: extractCursor(term, tracker),
    modes: tracker.modes,
    title: tracker.title,
  };
}

function makeRun(s: string, fg: Color, bg: Color, fl: number, link: string | undefined): Run {
  const run: Run = { s, fg, bg, fl };
  if (link !== undefined) run.link = link;
  return run;
}

function isSingleCodePoint(s: string): boolean {
  if (s.length === 1) return true;
  if (s.length !== 2) return false;
  const hi = s.charCodeAt(0);
  return hi >= 0xd800 && hi <= 0xdbff;
}

function fgOf(cell: IBufferCell): Color {
  if (cell.isFgDefault()) return DEFAULT_COLOR;
  return cell.isFgRGB() ? RGB_FLAG | cell.getFgColor() : cell.getFgColor();
}

function bgOf(cell: IBufferCell): Color {
  if (cell.isBgDefault()) return DEFAULT_COLOR;
  return cell.isBgRGB() ? RGB_FLAG | cell.getBgColor() : cell.getBgColor();
}

function flagsOf(cell: IBufferCell): number {
  if (cell.isAttributeDefault()) return 0;
  return (
    (cell.isBold() ? Attr.bold : 0) |
    (cell.isDim() ? Attr.dim : 0) |
    (cell.isItalic() ? Attr.italic : 0) |
    (cell.isUnderline() ? Attr.underline : 0) |
    (cell.isInverse() ? Attr.inverse : 0) |
    (cell.isStrikethrough() ? Attr.strikethrough : 0) |
    (cell.isBlink() ? Attr.blink : 0) |
    (cell.isInvisible() ? Attr.invisible : 0) |
    (cell.isOverline() ? Attr.overline : 0)
  );
}

/** Drops the default-attribute spaces that end a row: the client clears what a row omits. */
function trimTrailingBlanks(runs: Run[]): void {
  while (runs.length > 0) {
    const last = runs[runs.length - 1];
    if (last.w !== undefined || last.fg !== DEFAULT_COLOR || last.bg !== DEFAULT_COLOR || last.fl !== 0 || last.link !== undefined) return;
    const trimmed = last.s.replace(/ +$/, '');
    if (trimmed.length > 0) {
      last.s = trimmed;
      return;
    }
    runs.pop();
  }
}

// OSC 8 hyperlinks. The public cell API carries no link (SPEC §15), but xterm.js keeps each
// cell's link id in its extended attributes and the target in its link service. Both are
// internals of the pinned @xterm/headless version, read defensively: if either is missing, cells
// simply carry no link (the extraction tests notice such a change). Two more internals follow
// from it: a reused cell keeps the previous cell's extended attributes unless the cell's own
// flag says it has some, and xterm reports every linked cell as underlined (its own link
// styling), so for those the child's explicit underline is read from the raw flag.
interface RawCell {
  fg?: number;
  bg?: number;
  extended?: { urlId?: number };
}
interface LinkService {
  getLinkData(id: number): { uri?: string } | undefined;
}

/** xterm.js BgFlags.HAS_EXTENDED and FgFlags.UNDERLINE. */
const HAS_EXTENDED = 1 << 28;
const FG_UNDERLINE = 1 << 28;

const NO_LINK = (): undefined => undefined;

function linkResolver(term: Terminal): (cell: IBufferCell) => string | undefined {
  const service = (term as unknown as { _core?: { _oscLinkService?: LinkService } })._core?._oscLinkService;
  if (!service || typeof service.getLinkData !== 'function') return NO_LINK;
  return (cell) => {
    const raw = cell as unknown as RawCell;
    if (typeof raw.bg !== 'number' || (raw.bg & HAS_EXTENDED) === 0) return undefined;
    const id = raw.extended?.urlId;
    if (!id) return undefined;
    const uri = service.getLinkData(id)?.uri;
    return uri === undefined || uri === '' ? undefined : uri;
  };
}

/** The flags of a linked cell: underline only when the child asked for it. */
function linkedFlags(cell: IBufferCell, fl: number): number {
  const fg = (cell as unknown as RawCell).fg;
  if (typeof fg !== 'number') return fl;
  return (fg & FG_UNDERLINE) !== 0 ? fl | Attr.underline : fl & ~Attr.underline;
}
