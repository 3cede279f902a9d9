// Input events: what a client parses from the outer terminal and a holder encodes
// for the child's current modes.

export interface Mods {
  shift?: boolean;
  alt?: boolean;
  ctrl?: boolean;
  meta?: boolean;
}

/** Named keys; printable characters travel as `text`. */
export type KeyName =
  | 'enter' | 'tab' | 'backspace' | 'escape' | 'space'
  | 'up' | 'down' | 'left' | 'right'
  | 'home' | 'end' | 'pageup' | 'pagedown' | 'insert' | 'delete'
  | 'f1' | 'f2' | 'f3' | 'f4' | 'f5' | 'f6' | 'f7' | 'f8' | 'f9' | 'f10' | 'f11' | 'f12';

export type MouseButton = 'left' | 'middle' | 'right' | 'wheelUp' | 'wheelDown' | 'none';

export type InputEvent =
  /** Printable text (one or more characters), possibly with modifiers (Alt+x, Ctrl+c). */
  | { k: 'text'; s: string; mods?: Mods }
  | { k: 'key'; key: KeyName; mods?: Mods }
  | { k: 'paste'; s: string }
  /** x, y are 0-based cell coordinates within the child's surface. */
  | { k: 'mouse'; action: 'press' | 'release' | 'move'; button: MouseButton; x: number; y: number; mods?: Mods }
  | { k: 'focus'; focused: boolean }
  /** Bytes passed through unchanged (unrecognised sequences). */
  | { k: 'raw'; bytes: string };
