// Input events: what a client parses from the outer terminal and a holder encodes
// for the child's current modes.
import type { KittyOnlyKeyName } from './kittyKeys.js';

export interface Mods {
  shift?: boolean;
  alt?: boolean;
  ctrl?: boolean;
  /** xterm's Meta bit (8), which the kitty keyboard protocol calls super (Windows or Command key). */
  meta?: boolean;
  /** The kitty protocol's other modifiers, which no legacy encoding carries: hyper (16), its own
   * meta (32, X11/Wayland only, apart from xterm's above), and the caps and num locks. */
  hyper?: boolean;
  kittyMeta?: boolean;
  capsLock?: boolean;
  numLock?: boolean;
}

/** Named keys; printable characters travel as `text`. `begin` is the keypad's middle key (5
 * with Num Lock off); the kitty-only names are keys only that protocol reports (F13 and up,
 * media, lock and modifier keys on their own). */
export type KeyName =
  | 'enter' | 'tab' | 'backspace' | 'escape' | 'space'
  | 'up' | 'down' | 'left' | 'right'
  | 'home' | 'end' | 'pageup' | 'pagedown' | 'insert' | 'delete' | 'begin'
  | 'f1' | 'f2' | 'f3' | 'f4' | 'f5' | 'f6' | 'f7' | 'f8' | 'f9' | 'f10' | 'f11' | 'f12'
  | KittyOnlyKeyName;

/**
 * What a terminal speaking the kitty keyboard protocol reports about a key beyond the legacy
 * bytes. Every field is optional: an event without them is a press, as a legacy terminal gives.
 */
export interface KeyDetail {
  /** A held key's repeat, or its release; absent for a press. a1 never acts on a release, and
   * a child gets one only when it asked for event types. */
  type?: 'repeat' | 'release';
  /** The key's unshifted code point as the terminal reported it (97 for both a and A), when it
   * differs from what the text alone says, e.g. on a non-US layout. */
  code?: number;
  /** The alternate keys the terminal reported: the shifted key, and the key in the same place
   * on a PC-101 (US) layout. */
  shifted?: number;
  base?: number;
  /** Typed on the numeric keypad (the text or key is what the main keyboard's key gives). */
  keypad?: boolean;
}

export type MouseButton = 'left' | 'middle' | 'right' | 'wheelUp' | 'wheelDown' | 'none';

export type InputEvent =
  /** Printable text (one or more characters), possibly with modifiers (Alt+x, Ctrl+c). */
  | ({ k: 'text'; s: string; mods?: Mods } & KeyDetail)
  | ({ k: 'key'; key: KeyName; mods?: Mods } & KeyDetail)
  | { k: 'paste'; s: string }
  /** x, y are 0-based cell coordinates within the child's surface. */
  | { k: 'mouse'; action: 'press' | 'release' | 'move'; button: MouseButton; x: number; y: number; mods?: Mods }
  | { k: 'focus'; focused: boolean }
  /** Bytes passed through unchanged (unrecognised sequences). */
  | { k: 'raw'; bytes: string };
