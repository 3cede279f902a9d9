// The terminal modes of a program that asked for nothing (a fresh terminal's): what a legacy
// terminal encodes keys for, and the baseline the surface and input tests vary.
import type { Modes } from '../../src/surface/types.js';

export const LEGACY_MODES: Readonly<Modes> = {
  appCursor: false,
  appKeypad: false,
  bracketedPaste: false,
  mouse: 'none',
  mouseEncoding: 'default',
  focus: false,
  altScreen: false,
  kittyFlags: 0,
};
