// Reads the headless terminal's viewport into the wire model (rows of attribute runs, cursor,
// modes, title). Read-only: extraction never changes the terminal.
import type { IBufferCell, Terminal } from '@xterm/headless';
import type { ModeTracker } from './modes.js';
import { Attr, DEFAULT_COLOR, RGB_FLAG, UnderlineStyle, withUnderlineStyle, type Color, type Cursor, type Row, type Run, type SurfacePatch } from './types.js';

export type ExtractOptions = { full: true } | { full: false; rows: number[] };

/** Viewport row `y` (0-based) as runs; trailing default-attribute blanks are left out. */
export function extractRow(term: Terminal, y: number): Row {
  return extractLineAs(term, buffersOf(term).active.viewportY + y, y);
}

/** Viewport row `y` read through the public cell API only: the reference the raw path is
 * tested against. */
export function extractRowViaCellApi(term: Terminal, y: number): Row {
  return extractLineAs(term, buffersOf(term).active.viewportY + y, y, false);
}

/**
 * Line `index` of the active buffer (0 = oldest scrollback line) as runs, in the same form as a
 * viewport row; its `y` is the buffer index. Copy mode reads history through it.
 */
export function extractBufferLine(term: Terminal, index: number): Row {
  return extractLineAs(term, index, index);
}

function extractLineAs(term: Terminal, index: number, y: number, raw = true): Row {
  const buffer = buffersOf(term).active;
  const line = buffer.getLine(index);
  const runs: Run[] = [];
  if (!line) return { y, runs };
  const linkOf = linkResolver(term);
  const cell = nullCellOf(term, buffer);
  const data = raw ? rawCells(line) : null;
  openText.clear();
  // The run that width-1 single-code-point cells with equal attributes may extend (its text
  // gathers in `openText`), and the raw attribute words of the last cell that joined it.
  let open: Run | null = null;
  let openFg = 0;
  let openBg = 0;
  const cols = Math.min(line.length, term.cols);
  for (let x = 0; x < cols; x++) {
    if (data !== null && open !== null) {
      // Fast path (most cells): a plain width-1 cell with the open run's raw attributes and no
      // extended ones (link, underline style) extends the run without the cell API.
      const content = data[x * CELL_WORDS];
      const fgWord = data[x * CELL_WORDS + 1];
      const bgWord = data[x * CELL_WORDS + 2];
      if (fgWord === openFg && bgWord === openBg && (bgWord & HAS_EXTENDED) === 0 && (content & ~CODEPOINT_MASK) === WIDTH_ONE) {
        const cp = content & CODEPOINT_MASK;
        openText.pushCodePoint(cp === 0 ? SPACE : cp);
        continue;
      }
    }
    line.getCell(x, cell);
    const width = cell.getWidth();
    const chars = cell.getChars();
    // The second column of a wide character: its text lives in the first.
    if (width === 0 && chars === '') continue;
    const s = chars === '' ? ' ' : chars;
    const fg = fgOf(cell);
    const bg = bgOf(cell);
    const link = linkOf(cell);
    let fl = link === undefined ? flagsOf(cell) : linkedFlags(cell, flagsOf(cell));
    let uc: Color | undefined;
    if ((fl & Attr.underline) !== 0) {
      fl = withUnderlineStyle(fl, underlineStyleOfCell(cell));
      uc = underlineColorOf(cell);
    }
    if (width === 1 && isSingleCodePoint(s)) {
      if (!open || open.fg !== fg || open.bg !== bg || open.fl !== fl || open.link !== link || open.uc !== uc) {
        if (open) open.s = openText.take();
        open = makeRun('', fg, bg, fl, link, uc);
        runs.push(open);
      }
      openText.push(s);
      if (data !== null) {
        openFg = data[x * CELL_WORDS + 1];
        openBg = data[x * CELL_WORDS + 2];
      }
    } else {
      // A wide cell, a cluster, or a lone zero-width code point that still took a column.
      if (open) open.s = openText.take();
      const run = makeRun(s, fg, bg, fl, link, uc);
      run.w = width === 0 ? 1 : width;
      runs.push(run);
      open = null;
    }
  }
  if (open) open.s = openText.take();
  trimTrailingBlanks(runs);
  return { y, runs };
}

/** A run's text as UTF-16 code units, made one string when the run closes: appending cell by
 * cell would build a chain of string pieces (and garbage) for every cell of every frame. */
class RunText {
  private units: number[] = [];

  push(s: string): void {
    for (let i = 0; i < s.length; i++) this.units.push(s.charCodeAt(i));
  }

  pushCodePoint(cp: number): void {
    if (cp < 0x10000) {
      this.units.push(cp);
    } else {
      const c = cp - 0x10000;
      this.units.push(0xd800 + (c >> 10), 0xdc00 + (c & 0x3ff));
    }
  }

  clear(): void {
    this.units.length = 0;
  }

  take(): string {
    const s = String.fromCharCode.apply(null, this.units);
    this.units.length = 0;
    return s;
  }
}

/** Extraction is synchronous, so one scratch serves every row. */
const openText = new RunText();

/** One reused cell per terminal: `getNullCell` allocates a new one on every call. */
const nullCells = new WeakMap<Terminal, IBufferCell>();
function nullCellOf(term: Terminal, buffer: Terminal['buffer']['active']): IBufferCell {
  let cell = nullCells.get(term);
  if (cell === undefined) nullCells.set(term, (cell = buffer.getNullCell()));
  return cell;
}

// The cells' raw words (an internal of the pinned @xterm/headless, read defensively like the
// links below): three per cell, the content (code point, a combined flag, the width) and the
// foreground and background words (colour, colour mode, flags). Reading them directly lets
// most cells of a row skip the cell API, which is most of a frame's extraction cost.
const CELL_WORDS = 3;
const CODEPOINT_MASK = 0x1fffff;
/** Width 1 in the content word's width bits, and no combined-characters flag. */
const WIDTH_ONE = 1 << 22;
/** The content word's flag for a cell whose text (a cluster) is kept outside the words. */
const COMBINED = 1 << 21;

/** Viewport row `y`'s raw cell words (a view of the live line, to be copied if kept) when they
 * alone decide what extractRow gives: null when the internals are missing or a cell holds
 * combined characters or extended attributes (links, underline styles), kept outside the words. */
export function rowWords(term: Terminal, y: number): Uint32Array | null {
  const buffer = buffersOf(term).active;
  const line = buffer.getLine(buffer.viewportY + y);
  const data = line ? rawCells(line) : null;
  if (!line || data === null) return null;
  const words = Math.min(line.length, term.cols) * CELL_WORDS;
  if (data.length < words) return null;
  for (let i = 0; i < words; i += CELL_WORDS) {
    if ((data[i] & COMBINED) !== 0 || (data[i + 2] & HAS_EXTENDED) !== 0) return null;
  }
  return data.subarray(0, words);
}

function rawCells(line: unknown): Uint32Array | null {
  const data = (line as { _line?: { _data?: unknown } })._line?._data;
  return data instanceof Uint32Array ? data : null;
}

export function extractCursor(term: Terminal, tracker: ModeTracker): Cursor {
  const buffer = buffersOf(term).active;
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

function makeRun(s: string, fg: Color, bg: Color, fl: number, link: string | undefined, uc: Color | undefined): Run {
  const run: Run = { s, fg, bg, fl };
  if (link !== undefined) run.link = link;
  if (uc !== undefined) run.uc = uc;
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

const SPACE = 0x20;

/** Drops the default-attribute spaces that end a row: the client clears what a row omits. */
function trimTrailingBlanks(runs: Run[]): void {
  while (runs.length > 0) {
    const last = runs[runs.length - 1];
    if (last.w !== undefined || last.fg !== DEFAULT_COLOR || last.bg !== DEFAULT_COLOR || last.fl !== 0 || last.link !== undefined) return;
    let end = last.s.length;
    while (end > 0 && last.s.charCodeAt(end - 1) === SPACE) end--;
    if (end > 0) {
      last.s = last.s.slice(0, end);
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
  extended?: { urlId?: number; _ext?: number; underlineColor?: number };
}
interface LinkService {
  getLinkData(id: number): { uri?: string } | undefined;
}

/** xterm.js BgFlags.HAS_EXTENDED and FgFlags.UNDERLINE. */
const HAS_EXTENDED = 1 << 28;
const FG_UNDERLINE = 1 << 28;

const NO_LINK = (): undefined => undefined;

/** `term.buffer` checks the proposed-API option on every read (an options proxy lookup), a
 * visible cost when every row of every frame reads it: each terminal's namespace is read once.
 * It is stable for the terminal's life; its `active` follows the alternate screen. */
const buffers = new WeakMap<Terminal, Terminal['buffer']>();
function buffersOf(term: Terminal): Terminal['buffer'] {
  let b = buffers.get(term);
  if (b === undefined) buffers.set(term, (b = term.buffer));
  return b;
}

const linkResolvers = new WeakMap<Terminal, (cell: IBufferCell) => string | undefined>();
function linkResolver(term: Terminal): (cell: IBufferCell) => string | undefined {
  let resolve = linkResolvers.get(term);
  if (resolve === undefined) linkResolvers.set(term, (resolve = makeLinkResolver(term)));
  return resolve;
}

function makeLinkResolver(term: Terminal): (cell: IBufferCell) => string | undefined {
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

// Underline style (SGR 4:N) and colour (SGR 58). The public cell API says only "underlined"
// (SPEC §15), but xterm.js keeps both in the cell's extended attributes, an internal of the pinned
// @xterm/headless read defensively as the links are: when missing, an underline stays plain and
// in the text's colour (the extraction tests notice such a change).

/** Bits 26..28 of the extended word: the stored style. */
const EXT_STYLE_SHIFT = 26;
/** The underline colour's mode bits and its value (xterm.js Attributes.CM_MASK, RGB_MASK). */
const COLOR_MODE = 0x3000000;
const COLOR_RGB = 0x3000000;
const COLOR_VALUE = 0xffffff;
const PALETTE_VALUE = 0xff;
/** SGR 59 stores -1 (every bit of the colour): the reset, not RGB white. */
const COLOR_RESET = COLOR_MODE | COLOR_VALUE;

/** An underlined cell's SGR `4:N` style. */
function underlineStyleOfCell(cell: IBufferCell): number {
  const raw = cell as unknown as RawCell;
  if (typeof raw.bg !== 'number' || (raw.bg & HAS_EXTENDED) === 0) return UnderlineStyle.single;
  // The stored word, not `underlineStyle`, which reads dashed on a linked cell (xterm's link styling).
  const ext = raw.extended?._ext;
  return typeof ext === 'number' ? (ext >>> EXT_STYLE_SHIFT) & 7 : UnderlineStyle.single;
}

/** An underlined cell's own underline colour; undefined when it has none (the text's colour). */
function underlineColorOf(cell: IBufferCell): Color | undefined {
  const raw = cell as unknown as RawCell;
  if (typeof raw.bg !== 'number' || (raw.bg & HAS_EXTENDED) === 0) return undefined;
  const c = raw.extended?.underlineColor;
  if (typeof c !== 'number' || c === COLOR_RESET) return undefined;
  const mode = c & COLOR_MODE;
  if (mode === 0) return undefined;
  return mode === COLOR_RGB ? RGB_FLAG | (c & COLOR_VALUE) : c & PALETTE_VALUE;
}
