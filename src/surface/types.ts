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
