// The surface wire model: what a holder sends and a client composites.
// A run is a stretch of cells on one row with the same attributes.

/** Colour: -1 default; 0..255 palette index; 0x1000000 | 0xRRGGBB truecolour. */
export type Color = number;
export const DEFAULT_COLOR: Color = -1;
export const RGB_FLAG = 0x1000000;

/** Attribute flags, a bitmask. */
export const Attr = {
  bold: 1,
  dim: 2,
  italic: 4,
  underline: 8,
  inverse: 16,
  strikethrough: 32,
  blink: 64,
  invisible: 128,
  overline: 256,
} as const;

/**
 * The underline's style rides in the flags beside Attr.underline: bits 9..11 hold the `N` of SGR
 * `4:N` for 2..5 (double, curly, dotted, dashed); 0 is the plain (single) underline. A peer that
 * predates them masks those bits off and draws a plain underline.
 */
export const UnderlineStyle = { single: 1, double: 2, curly: 3, dotted: 4, dashed: 5 } as const;
const UNDERLINE_STYLE_SHIFT = 9;
export const UNDERLINE_STYLE_BITS = 7 << UNDERLINE_STYLE_SHIFT;

/** The SGR `4:N` style of flags `fl`: 0 when not underlined, 1 for a plain underline. */
export function underlineStyleOf(fl: number): number {
  if ((fl & Attr.underline) === 0) return 0;
  const style = (fl & UNDERLINE_STYLE_BITS) >> UNDERLINE_STYLE_SHIFT;
  return style >= UnderlineStyle.double && style <= UnderlineStyle.dashed ? style : UnderlineStyle.single;
}

/** Flags `fl` with the underline style `style` (an SGR `4:N`); the style bits are set only for an
 * underline that is not plain. */
export function withUnderlineStyle(fl: number, style: number): number {
  const plain = fl & ~UNDERLINE_STYLE_BITS;
  if ((fl & Attr.underline) === 0 || style < UnderlineStyle.double || style > UnderlineStyle.dashed) return plain;
  return plain | (style << UNDERLINE_STYLE_SHIFT);
}

/**
 * A run of cells. When `w` is absent every code point of `s` is one cell of width 1
 * (an empty cell is a space). When `w` is present the run is exactly one cell of that
 * width (2 for wide characters, or 1 for a cell whose text is several code points,
 * such as a base letter with combining marks or an emoji ZWJ sequence, or a lone
 * zero-width code point that the terminal stored in a cell of its own).
 */
export interface Run {
  s: string;
  fg: Color;
  bg: Color;
  fl: number;
  /** OSC 8 hyperlink target, when the cells carry one. */
  link?: string;
  /** Underline colour (SGR 58), when the cells are underlined in a colour of their own. */
  uc?: Color;
  w?: number;
}

export interface Row {
  y: number;
  runs: Run[];
}

export type CursorShape = 'block' | 'underline' | 'bar';

export interface Cursor {
  x: number;
  y: number;
  visible: boolean;
  shape: CursorShape;
  blink: boolean;
  /** True while the child has chosen no style (never, `CSI 0 SP q`, or after a reset): the
   * client then leaves the outer terminal's own style instead of imposing shape/blink. */
  defaultStyle?: boolean;
}

/** Input-relevant modes the child has set; the holder encodes input by them. */
export interface Modes {
  appCursor: boolean;
  appKeypad: boolean;
  bracketedPaste: boolean;
  /** none | x10 | vt200 (1000) | drag (1002) | any (1003) */
  mouse: 'none' | 'x10' | 'vt200' | 'drag' | 'any';
  /** default | sgr (1006) | utf8 (1005) | urxvt (1015) */
  mouseEncoding: 'default' | 'sgr' | 'utf8' | 'urxvt';
  focus: boolean;
  altScreen: boolean;
  /** The kitty keyboard protocol's flags on the active screen (0: legacy keys). */
  kittyFlags: number;
}

/** A surface patch: a full surface lists every row; a diff only changed rows. */
export interface SurfacePatch {
  full: boolean;
  cols: number;
  rows: number;
  lines: Row[];
  cursor: Cursor;
  modes: Modes;
  title: string;
}

/** The modes of a program that asked for nothing, as on a fresh terminal. */
export const DEFAULT_MODES: Readonly<Modes> = {
  appCursor: false,
  appKeypad: false,
  bracketedPaste: false,
  mouse: 'none',
  mouseEncoding: 'default',
  focus: false,
  altScreen: false,
  kittyFlags: 0,
};
