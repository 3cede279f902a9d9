// Holder side: an input event -> exactly the bytes xterm would send a child in its current
// modes. Pure; key encodings are tables, as in xterm's own input code.
import type { InputEvent, KeyName, Mods } from './events.js';
import type { Modes } from '../surface/types.js';
import { PASTE_END, PASTE_START } from './tokenizer.js';
import { KITTY_ENCODING_FLAGS, encodeKittyInput } from './kittyEncode.js';
import { isKittyOnlyKey } from './kittyKeys.js';

const ESC = '\x1b';
const CSI = '\x1b[';
const SS3 = '\x1bO';

/** Keys sent as `CSI X` (SS3 X in application cursor mode), or `CSI 1;m X` with modifiers. */
const CURSOR_KEYS: Partial<Record<KeyName, string>> = {
  up: 'A', down: 'B', right: 'C', left: 'D', home: 'H', end: 'F',
};

/** F1-F4: `SS3 X`, or `CSI 1;m X` with modifiers. */
const SS3_FUNCTION_KEYS: Partial<Record<KeyName, string>> = { f1: 'P', f2: 'Q', f3: 'R', f4: 'S' };

/** Keys sent as `CSI n ~`, or `CSI n;m ~` with modifiers. */
const TILDE_KEYS: Partial<Record<KeyName, number>> = {
  insert: 2, delete: 3, pageup: 5, pagedown: 6,
  f5: 15, f6: 17, f7: 18, f8: 19, f9: 20, f10: 21, f11: 23, f12: 24,
};

/** Ctrl with a character that is not a letter: the C0 control xterm sends. */
const CTRL_CHARS: Record<string, string> = {
  ' ': '\x00', '@': '\x00', '2': '\x00',
  '[': '\x1b', '3': '\x1b',
  '\\': '\x1c', '4': '\x1c',
  ']': '\x1d', '5': '\x1d',
  '^': '\x1e', '6': '\x1e',
  '_': '\x1f', '7': '\x1f', '/': '\x1f',
  '8': '\x7f', '?': '\x7f',
};

const MOUSE_BUTTON_CODES = { left: 0, middle: 1, right: 2, none: 3 } as const;
const MOUSE_SHIFT = 4;
const MOUSE_ALT = 8;
const MOUSE_CTRL = 16;
const MOUSE_MOTION = 32;
const MOUSE_WHEEL = 64;
/** Release in the encodings that cannot name the released button. */
const MOUSE_RELEASE = 3;
/** Legacy encodings add 32 to the button code and to each 1-based coordinate. */
const MOUSE_OFFSET = 32;
/** The default encoding sends each value as one byte, so 1-based coordinates stop at 223. */
const DEFAULT_MOUSE_MAX = 255;
/** Mode 1005 sends each value as one UTF-8 character of at most two bytes: coordinates stop at 2015. */
const UTF8_MOUSE_MAX = 2047;

type MouseEvent = Extract<InputEvent, { k: 'mouse' }>;

/**
 * The bytes a child in `modes` expects for `ev`, or '' when its modes do not ask for it (mouse
 * and focus reports). In the default mouse encoding each character stands for one byte and
 * may be above 0x7f: see `isBinaryInput`.
 */
export function encodeInput(ev: InputEvent, modes: Modes): string {
  if (ev.k === 'text' || ev.k === 'key') {
    // A child that turned on the kitty keyboard protocol gets its encoding; any other gets what
    // xterm sends, which has no releases and no bytes for keys only that protocol names.
    if ((modes.kittyFlags & KITTY_ENCODING_FLAGS) !== 0) return encodeKittyInput(ev, modes.kittyFlags, modes.appCursor);
    if (ev.type === 'release') return '';
  }
  switch (ev.k) {
    case 'text':
      return encodeText(ev.s, ev.mods);
    case 'key':
      return isKittyOnlyKey(ev.key) ? '' : encodeKey(ev.key, ev.mods, modes);
    case 'paste':
      return encodePaste(ev.s, modes.bracketedPaste);
    case 'mouse':
      return encodeMouseForChild(ev, modes);
    case 'focus':
      return modes.focus ? CSI + (ev.focused ? 'I' : 'O') : '';
    case 'raw':
      return ev.bytes;
  }
}

/**
 * True when `encodeInput` gives a byte string (one character per byte, as xterm sends the
 * default mouse encoding) that must be written as latin1, not UTF-8.
 */
export function isBinaryInput(ev: InputEvent, modes: Modes): boolean {
  return ev.k === 'mouse' && modes.mouseEncoding === 'default';
}

/** xterm's modifier parameter: 1 + shift|alt<<1|ctrl<<2|meta<<3. */
function modifierParam(mods: Mods | undefined): number {
  if (!mods) return 1;
  return 1 + (mods.shift ? 1 : 0) + (mods.alt ? 2 : 0) + (mods.ctrl ? 4 : 0) + (mods.meta ? 8 : 0);
}

function ctrlChar(ch: string): string {
  const code = ch.charCodeAt(0);
  if ((code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a)) return String.fromCharCode(code & 0x1f);
  return CTRL_CHARS[ch] ?? ch;
}

function encodeText(s: string, mods: Mods | undefined): string {
  const body = mods?.ctrl ? Array.from(s, ctrlChar).join('') : s;
  return mods?.alt ? ESC + body : body;
}

function encodeKey(key: KeyName, mods: Mods | undefined, modes: Modes): string {
  const m = modifierParam(mods);
  const cursor = CURSOR_KEYS[key];
  if (cursor) {
    if (m > 1) return `${CSI}1;${m}${cursor}`;
    return (modes.appCursor ? SS3 : CSI) + cursor;
  }
  const fn = SS3_FUNCTION_KEYS[key];
  if (fn) return m > 1 ? `${CSI}1;${m}${fn}` : SS3 + fn;
  const tilde = TILDE_KEYS[key];
  if (tilde !== undefined) return m > 1 ? `${CSI}${tilde};${m}~` : `${CSI}${tilde}~`;
  const alt = mods?.alt ? ESC : '';
  switch (key) {
    case 'enter': return alt + '\r';
    case 'escape': return alt + ESC;
    case 'tab': return alt + (mods?.shift ? CSI + 'Z' : '\t');
    case 'backspace': return alt + (mods?.ctrl ? '\b' : '\x7f');
    case 'space': return alt + (mods?.ctrl ? '\x00' : ' ');
  }
  return '';
}

/**
 * Bracketed when the child asked for it, with every PASTE_END removed from the payload (again
 * after each pass, since removing one can join two halves of another) so that a paste cannot end
 * itself early and have the rest run as typed input.
 */
function encodePaste(s: string, bracketed: boolean): string {
  if (!bracketed) return s;
  let body = s;
  while (body.includes(PASTE_END)) body = body.split(PASTE_END).join('');
  return PASTE_START + body + PASTE_END;
}

/** Whether the child's mouse protocol reports this event (xterm's protocol restrictions). */
function mouseWanted(ev: MouseEvent, protocol: Modes['mouse']): boolean {
  const wheel = ev.button === 'wheelUp' || ev.button === 'wheelDown';
  if (wheel && ev.action !== 'press') return false;
  if (ev.button === 'none' && ev.action === 'press') return false;
  switch (protocol) {
    case 'none': return false;
    case 'x10': return ev.action === 'press' && !wheel;
    case 'vt200': return ev.action !== 'move';
    case 'drag': return !(ev.action === 'move' && ev.button === 'none');
    case 'any': return true;
  }
}

/** The report of `ev` in the child's mouse protocol and encoding, or '' when it wants none. */
export function encodeMouseForChild(ev: MouseEvent, modes: Modes): string {
  if (!mouseWanted(ev, modes.mouse) || ev.x < 0 || ev.y < 0) return '';
  // X10 reports carry no modifiers.
  const mods = modes.mouse === 'x10' ? undefined : ev.mods;
  const sgr = modes.mouseEncoding === 'sgr';
  let code = (mods?.shift ? MOUSE_SHIFT : 0) | (mods?.alt ? MOUSE_ALT : 0) | (mods?.ctrl ? MOUSE_CTRL : 0);
  const wheel = ev.button === 'wheelUp' || ev.button === 'wheelDown';
  if (wheel) {
    code |= MOUSE_WHEEL | (ev.button === 'wheelDown' ? 1 : 0);
  } else {
    code |= MOUSE_BUTTON_CODES[ev.button as keyof typeof MOUSE_BUTTON_CODES];
    if (ev.action === 'move') code |= MOUSE_MOTION;
    else if (ev.action === 'release' && !sgr) code |= MOUSE_RELEASE;
  }
  const x = ev.x + 1;
  const y = ev.y + 1;
  switch (modes.mouseEncoding) {
    case 'sgr':
      return `${CSI}<${code};${x};${y}${ev.action === 'release' ? 'm' : 'M'}`;
    case 'urxvt':
      return `${CSI}${code + MOUSE_OFFSET};${x};${y}M`;
    case 'default':
      return legacyMouse(code, x, y, DEFAULT_MOUSE_MAX);
    case 'utf8':
      return legacyMouse(code, x, y, UTF8_MOUSE_MAX);
  }
}

/** `CSI M b x y`, each value + 32 as one character; nothing when a value does not fit (as xterm.js). */
function legacyMouse(code: number, x: number, y: number, max: number): string {
  const values = [code, x, y].map((v) => v + MOUSE_OFFSET);
  if (values.some((v) => v > max)) return '';
  return CSI + 'M' + String.fromCharCode(...values);
}
