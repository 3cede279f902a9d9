// A surface patch as the bytes that make the page's xterm.js show it (issue 20). The page never
// replays the tab's output: it paints the holder's surface, row by row, like the terminal client.
import { Attr, DEFAULT_COLOR, RGB_FLAG, UnderlineStyle, underlineStyleOf, type Color, type CursorShape, type Run, type SurfacePatch } from '../../surface/types.js';

const CSI = '\x1b[';
const OSC8_CLOSE = '\x1b]8;;\x1b\\';
/** Reset the pen, home the cursor, erase the screen; modes such as bracketed paste stay set. */
const CLEAR = `${CSI}0m${CSI}H${CSI}2J`;
const END_OF_ROW = `${CSI}0m${CSI}K`;

/** SGR parameters that set each flag. */
const FLAG_SGR: ReadonlyArray<readonly [number, number]> = [
  [Attr.bold, 1],
  [Attr.dim, 2],
  [Attr.italic, 3],
  [Attr.underline, 4],
  [Attr.blink, 5],
  [Attr.inverse, 7],
  [Attr.invisible, 8],
  [Attr.strikethrough, 9],
  [Attr.overline, 53],
];

/** DECSCUSR parameter for a steady and a blinking cursor of each shape. */
const CURSOR_STYLE: Readonly<Record<CursorShape, readonly [number, number]>> = {
  block: [2, 1],
  underline: [4, 3],
  bar: [6, 5],
};

/** C0, DEL and C1 controls never belong in a cell; a stray one must not drive the page's terminal. */
const CONTROLS = /[\x00-\x1f\x7f-\x9f]/g;

function colorParams(c: Color, base: 38 | 48): string {
  if (c === DEFAULT_COLOR || c < 0) return '';
  if (c >= RGB_FLAG) return `;${base};2;${(c >> 16) & 0xff};${(c >> 8) & 0xff};${c & 0xff}`;
  return `;${base};5;${c & 0xff}`;
}

/** The underline's style (`4:N`) and colour (`58`), which xterm.js draws. */
function underlineParams(run: Pick<Run, 'fl' | 'uc'>): string {
  const style = underlineStyleOf(run.fl);
  if (style === 0) return '';
  let p = style > UnderlineStyle.single ? `;4:${style}` : '';
  const c = run.uc;
  if (c !== undefined && c >= RGB_FLAG && c <= (RGB_FLAG | 0xffffff)) p += `;58:2::${(c >> 16) & 0xff}:${(c >> 8) & 0xff}:${c & 0xff}`;
  else if (c !== undefined && c >= 0 && c <= 255) p += `;58:5:${c}`;
  return p;
}

/** The SGR that sets a run's pen from nothing (a reset first, so no attribute leaks over). */
export function sgrOf(run: Pick<Run, 'fg' | 'bg' | 'fl' | 'uc'>): string {
  let p = '0';
  for (const [bit, on] of FLAG_SGR) if (run.fl & bit) p += `;${on}`;
  return `${CSI}${p}${underlineParams(run)}${colorParams(run.fg, 38)}${colorParams(run.bg, 48)}m`;
}

/** A link target fit to sit inside OSC 8 (no controls that could end the string early). */
function linkOpen(url: string): string {
  return `\x1b]8;;${url.replace(CONTROLS, '')}\x1b\\`;
}

/**
 * What to write to the page's terminal, already `patch.cols` x `patch.rows` (see
 * `applyPatch`), so it shows the patched surface: a full patch clears and paints every row, a
 * diff only the rows it lists. Each row ends with the pen reset and the rest of the line erased
 * (rows leave out their trailing blanks), then the cursor goes where the tab's is.
 */
export function patchToAnsi(patch: SurfacePatch): string {
  let out = patch.full ? CLEAR : '';
  for (const row of patch.lines) {
    if (row.y < 0 || row.y >= patch.rows) continue;
    out += `${CSI}${row.y + 1};1H`;
    let x = 0;
    let link: string | undefined;
    for (const run of row.runs) {
      if (run.link !== link) {
        if (link !== undefined) out += OSC8_CLOSE;
        if (run.link !== undefined) out += linkOpen(run.link);
        link = run.link;
      }
      out += sgrOf(run) + run.s.replace(CONTROLS, ' ');
      if (run.w !== undefined) {
        // One cell of a width the page's terminal might measure otherwise (emoji, clusters):
        // the next cell starts where the holder says, not where the browser guessed.
        x += run.w;
        out += `${CSI}${x + 1}G`;
      } else {
        x += [...run.s].length;
      }
    }
    if (link !== undefined) out += OSC8_CLOSE;
    out += END_OF_ROW;
  }
  const c = patch.cursor;
  const style = c.defaultStyle ? 0 : CURSOR_STYLE[c.shape][c.blink ? 1 : 0];
  out += `${CSI}${c.y + 1};${c.x + 1}H${CSI}?25${c.visible ? 'h' : 'l'}${CSI}${style} q`;
  return out;
}

/** The part of a terminal `applyPatch` drives: xterm.js in the page, a headless one in tests. */
export interface PatchTarget {
  readonly cols: number;
  readonly rows: number;
  resize(cols: number, rows: number): void;
  write(data: string, callback?: () => void): void;
}

/** Sizes the terminal as the tab (before painting: the rows are laid out for that width), then paints. */
export function applyPatch(term: PatchTarget, patch: SurfacePatch, done?: () => void): void {
  if (term.cols !== patch.cols || term.rows !== patch.rows) term.resize(patch.cols, patch.rows);
  term.write(patchToAnsi(patch), done);
}
