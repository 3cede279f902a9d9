// The bytes that paint cells on the outer terminal (SPEC §8): absolute cursor moves, the
// shortest SGR transition between two pens, OSC 8 links, with the outer cursor and pen tracked.
// Underline styles and colours reach it only for an outer terminal that draws them (Compositor).
import { Attr, DEFAULT_COLOR, RGB_FLAG, UNDERLINE_STYLE_BITS, UnderlineStyle, underlineStyleOf, type Color } from '../surface/types.js';
import type { CellGrid } from './cells.js';

const CSI = '\x1b[';
const ERASE_LINE_RIGHT = '\x1b[K';
export const LINK_CLOSE = '\x1b]8;;\x1b\\';

/**
 * A cell is written "isolated" (an absolute move right before it and none assumed after) when
 * terminals may disagree on its width or fold it into its neighbour: clusters of several code
 * points, marks and format characters, emoji and regional indicators. Everything else is
 * written in a stream and the cursor is tracked by width.
 */
const AMBIGUOUS = /[\p{M}\p{Cf}\p{Extended_Pictographic}\p{Regional_Indicator}]/u;

function isolated(ch: string): boolean {
  if (ch.length === 1) return ch.charCodeAt(0) >= 0x300 && AMBIGUOUS.test(ch);
  if (ch.length === 2 && ch.codePointAt(0)! > 0xffff) return AMBIGUOUS.test(ch);
  return true;
}

/** Accumulates the cell-painting bytes, tracking the outer cursor and pen. */
export class PaintBuffer {
  private out = '';
  private x: number | null = null;
  private y: number | null = null;
  private fg: Color = DEFAULT_COLOR;
  private bg: Color = DEFAULT_COLOR;
  private fl = 0;
  private uc: Color = DEFAULT_COLOR;
  private link: string | undefined = undefined;

  constructor(private readonly cols: number) {}

  raw(s: string): void {
    this.out += s;
  }

  cell(x: number, y: number, grid: CellGrid, i: number): void {
    const ch = grid.ch[i];
    const iso = isolated(ch);
    if (iso || this.x !== x || this.y !== y) this.moveTo(x, y);
    const fg = grid.fg[i];
    const bg = grid.bg[i];
    const fl = grid.fl[i];
    const uc = grid.uc[i];
    const link = grid.link[i];
    if (fg !== this.fg || bg !== this.bg || fl !== this.fl || uc !== this.uc || link !== this.link) this.pen(fg, bg, fl, uc, link);
    this.out += ch;
    const next = x + grid.width[i];
    // Past the last column terminals differ (pending wrap), and after an isolated cell the
    // outer terminal's idea of its width is unknown: either way the next cell moves absolutely.
    this.x = iso || next >= this.cols ? null : next;
  }

  eraseToEnd(x: number, y: number): void {
    if (this.x !== x || this.y !== y) this.moveTo(x, y);
    // Erase fills with the current background, so the pen goes back to default first.
    this.pen(DEFAULT_COLOR, DEFAULT_COLOR, 0, DEFAULT_COLOR, undefined);
    this.out += ERASE_LINE_RIGHT;
  }

  /** Where the outer cursor is after painting, when known. */
  at(): { x: number; y: number } | null {
    return this.x === null || this.y === null ? null : { x: this.x, y: this.y };
  }

  /** The painting bytes, leaving the pen at default and no link open. */
  finish(): string {
    if (this.out === '') return '';
    this.pen(DEFAULT_COLOR, DEFAULT_COLOR, 0, DEFAULT_COLOR, undefined);
    return this.out;
  }

  private moveTo(x: number, y: number): void {
    this.out += cup(x, y);
    this.x = x;
    this.y = y;
  }

  private pen(fg: Color, bg: Color, fl: number, uc: Color, link: string | undefined): void {
    if (link !== this.link) {
      this.out += link === undefined ? LINK_CLOSE : `\x1b]8;;${link}\x1b\\`;
      this.link = link;
    }
    this.out += sgrTransition({ fg: this.fg, bg: this.bg, fl: this.fl, uc: this.uc }, { fg, bg, fl, uc });
    this.fg = fg;
    this.bg = bg;
    this.fl = fl;
    this.uc = uc;
  }
}

export function cup(x: number, y: number): string {
  return `${CSI}${y + 1};${x + 1}H`;
}

const FLAG_SGR: ReadonlyArray<{ bit: number; on: number; off: number }> = [
  { bit: Attr.bold, on: 1, off: 22 },
  { bit: Attr.dim, on: 2, off: 22 },
  { bit: Attr.italic, on: 3, off: 23 },
  { bit: Attr.underline, on: 4, off: 24 },
  { bit: Attr.blink, on: 5, off: 25 },
  { bit: Attr.inverse, on: 7, off: 27 },
  { bit: Attr.invisible, on: 8, off: 28 },
  { bit: Attr.strikethrough, on: 9, off: 29 },
  { bit: Attr.overline, on: 53, off: 55 },
];

interface Pen {
  fg: Color;
  bg: Color;
  /** Attr flags with the underline style bits. */
  fl: number;
  /** Underline colour. */
  uc: Color;
}

/** The shorter of an incremental change and a reset followed by the target's attributes. */
function sgrTransition(from: Pen, to: Pen): string {
  const { fg, bg, fl, uc } = to;
  if (from.fg === fg && from.bg === bg && from.fl === fl && from.uc === uc) return '';
  const removed = from.fl & ~fl & ~UNDERLINE_STYLE_BITS;
  let added = fl & ~from.fl & ~UNDERLINE_STYLE_BITS;
  let incremental = '';
  // 22 clears bold and dim together; whichever should stay is set again.
  if (removed & (Attr.bold | Attr.dim)) {
    incremental = ';22';
    added |= fl & (Attr.bold | Attr.dim);
  }
  // An underline that stays but changes its style is set again with the new one.
  if (underlineStyleOf(from.fl) !== underlineStyleOf(fl)) added |= fl & Attr.underline;
  if (removed) for (const f of FLAG_SGR) if (f.off !== 22 && removed & f.bit) incremental += `;${f.off}`;
  if (added) for (const f of FLAG_SGR) if (added & f.bit) incremental += `;${onParam(f, fl)}`;
  if (fg !== from.fg) incremental += `;${colorParams(fg, false)}`;
  if (bg !== from.bg) incremental += `;${colorParams(bg, true)}`;
  if (uc !== from.uc) incremental += `;${underlineColorParams(uc)}`;
  // Without removals a reset can only be longer: it restates everything.
  if (removed === 0) return `${CSI}${incremental.slice(1)}m`;
  let reset = '';
  for (const f of FLAG_SGR) if (fl & f.bit) reset += `;${onParam(f, fl)}`;
  if (fg !== DEFAULT_COLOR) reset += `;${colorParams(fg, false)}`;
  if (bg !== DEFAULT_COLOR) reset += `;${colorParams(bg, true)}`;
  if (uc !== DEFAULT_COLOR) reset += `;${underlineColorParams(uc)}`;
  // `CSI m` is a reset on its own; with attributes to restate, the reset is the leading 0.
  const viaReset = reset === '' ? '' : `0${reset}`;
  return `${CSI}${incremental.length - 1 <= viaReset.length ? incremental.slice(1) : viaReset}m`;
}

/** The parameter that sets flag `f` of `fl`: the underline as `4:N` when it has a style. */
function onParam(f: { bit: number; on: number }, fl: number): string {
  if (f.bit !== Attr.underline) return String(f.on);
  const style = underlineStyleOf(fl);
  return style > UnderlineStyle.single ? `4:${style}` : '4';
}

/** SGR 58 in its colon form (ITU T.416, as tmux and the terminals that draw it read it); 59 resets. */
function underlineColorParams(c: Color): string {
  if (c === DEFAULT_COLOR) return '59';
  if (c >= RGB_FLAG) return `58:2::${(c >> 16) & 0xff}:${(c >> 8) & 0xff}:${c & 0xff}`;
  return `58:5:${c}`;
}

function colorParams(c: Color, background: boolean): string {
  const base = background ? 40 : 30;
  if (c === DEFAULT_COLOR) return String(base + 9);
  if (c >= RGB_FLAG) return `${base + 8};2;${(c >> 16) & 0xff};${(c >> 8) & 0xff};${c & 0xff}`;
  if (c < 8) return String(base + c);
  if (c < 16) return String(base + 60 + c - 8);
  return `${base + 8};5;${c}`;
}
