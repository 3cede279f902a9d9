// Holder side: a key for a child that turned on the kitty keyboard protocol, exactly as that
// protocol specifies for the child's flags (sw.kovidgoyal.net/kitty/keyboard-protocol). Pure; the
// rules follow kitty's own key_encoding.c, the protocol's reference implementation.
import { KittyFlag, KittyMod, LOCK_MODS, isLegacyTextKey, isModifierKey, kittyKey, type KeyForm, type KeyInput, type KittyKey } from './kittyKeys.js';

const ESC = '\x1b';
const CSI = '\x1b[';
const SS3 = '\x1bO';

type Action = 'press' | 'repeat' | 'release';
const ACTION_NUMBER: Record<Action, number> = { press: 1, repeat: 2, release: 3 };

/** Keys with an SS3 form in cursor key mode (DECCKM), when neither disambiguation nor event
 * types are asked for and no modifier is held. */
const CURSOR_MODE_FINALS: ReadonlySet<string> = new Set(['A', 'B', 'C', 'D', 'F', 'H', 'P', 'Q', 'S']);

/** Enter, Tab and Backspace keep their legacy bytes unless all keys are escape codes, so a
 * person can still type `reset` at a shell after a program left the protocol on. */
const C0_KEYS: ReadonlyMap<number, string> = new Map([[13, '\r'], [9, '\t'], [127, '\x7f']]);

/** The protocol's legacy Ctrl mapping of ASCII keys; other keys are left untouched. */
const CTRL_BYTES: Readonly<Record<string, number>> = {
  ' ': 0, '/': 31, '2': 0, '3': 27, '4': 28, '5': 29, '6': 30, '7': 31, '8': 127, '?': 127,
  '@': 0, '[': 27, '\\': 28, ']': 29, '^': 30, '_': 31, '~': 30,
};

function ctrlByte(ch: string): string {
  const code = ch.charCodeAt(0);
  if (code >= 0x61 && code <= 0x7a) return String.fromCharCode(code - 0x60);
  return Object.hasOwn(CTRL_BYTES, ch) ? String.fromCharCode(CTRL_BYTES[ch]) : ch;
}

/** The flags under which a key may still take a legacy form (no disambiguation, no event
 * types, not all keys as escapes): the child then gets what a legacy terminal sends. */
export const KITTY_ENCODING_FLAGS = KittyFlag.disambiguate | KittyFlag.eventTypes | KittyFlag.allKeysAsEscapes;

/**
 * The bytes a child whose kitty flags are `flags` gets for a key or typed text, or '' when its
 * flags leave the event out (a release without event types, a modifier key alone without "all
 * keys"). `appCursor` is the child's cursor key mode. Callers send legacy encodings themselves
 * when `flags & KITTY_ENCODING_FLAGS` is 0; this function handles every other case.
 */
export function encodeKittyInput(ev: KeyInput, flags: number, appCursor: boolean): string {
  // A burst of typed characters is one key each.
  if (ev.k === 'text' && ev.code === undefined && !ev.keypad && [...ev.s].length > 1) {
    return [...ev.s].map((ch) => encodeKittyInput({ ...ev, s: ch }, flags, appCursor)).join('');
  }
  const allKeys = (flags & KittyFlag.allKeysAsEscapes) !== 0;
  const action: Action = ev.type ?? 'press';
  if (action === 'release' && (flags & KittyFlag.eventTypes) === 0) return '';
  if (!allKeys && ev.k === 'key' && isModifierKey(ev.key)) return '';
  // Without disambiguation the keypad is the main keyboard.
  const disambiguate = (flags & KittyFlag.disambiguate) !== 0;
  const key = kittyKey(ev.keypad && !disambiguate ? { ...ev, keypad: undefined } : ev);
  // Text goes as text, unless all keys are escapes; its release is a key event.
  if (!allKeys && key.text !== '' && action !== 'release') return key.text;
  return key.form ? encodeFunctional(key, key.form, action, flags, appCursor) : encodeTextKey(key, action, flags);
}

/** A key that is not a character: Escape, Enter, arrows, F keys, the keypad... */
function encodeFunctional(key: KittyKey, form: KeyForm, action: Action, flags: number, appCursor: boolean): string {
  const disambiguate = (flags & KittyFlag.disambiguate) !== 0;
  const eventTypes = (flags & KittyFlag.eventTypes) !== 0;
  const allKeys = (flags & KittyFlag.allKeysAsEscapes) !== 0;
  const mods = key.mods & ~LOCK_MODS;
  const release = action === 'release';
  if (appCursor && !disambiguate && !eventTypes && mods === 0 && form.number === 1 && CURSOR_MODE_FINALS.has(form.final)) {
    return SS3 + form.final;
  }
  const c0 = form.final === 'u' ? C0_KEYS.get(form.number) : undefined;
  if (mods === 0 && !allKeys) {
    if (!disambiguate && form.final === 'u' && form.number === 27 && !release) return ESC;
    // Enter, Tab and Backspace have no release events unless all keys are escapes.
    if (c0 !== undefined) return release ? '' : c0;
  }
  if (!disambiguate && !allKeys && form.final === 'u' && !release) {
    if (mods === KittyMod.alt && c0 !== undefined) return ESC + c0;
    if (mods === KittyMod.shift && form.number === 9) return CSI + 'Z';
    if (mods === KittyMod.ctrl && form.number === 127) return '\b';
  }
  return serialize({ number: form.number, final: form.final, key, action, flags, alternates: false });
}

/** A key that is a character, sent as an escape code (its text, if any, was already sent as
 * text where the flags allow). */
function encodeTextKey(key: KittyKey, action: Action, flags: number): string {
  const alternates = (flags & KittyFlag.alternateKeys) !== 0 && ((key.shifted > 0 && (key.mods & KittyMod.shift) !== 0) || key.base > 0);
  const withAction = (flags & KittyFlag.eventTypes) !== 0 && action !== 'press';
  const withText = (flags & KittyFlag.associatedText) !== 0 && (flags & KittyFlag.allKeysAsEscapes) !== 0 && key.text !== '' && action !== 'release';
  const allKeys = (flags & KittyFlag.allKeysAsEscapes) !== 0;
  if (!withAction && !alternates && !withText && !allKeys && (flags & KittyFlag.disambiguate) === 0) {
    const legacy = legacyText(key);
    if (legacy !== null) return legacy;
  }
  return serialize({ number: key.code, final: 'u', key, action, flags, alternates });
}

/** The protocol's legacy text keys with Shift, Alt, Ctrl, Shift+Alt or Ctrl+Alt, and Ctrl+Space;
 * null for any other combination, which goes as `CSI u`. */
function legacyText(key: KittyKey): string | null {
  const mods = key.mods & ~LOCK_MODS;
  if (key.code === 32) {
    if (mods === KittyMod.ctrl) return '\0';
    if (mods === (KittyMod.ctrl | KittyMod.alt)) return ESC + '\0';
    if (mods === KittyMod.alt || mods === (KittyMod.alt | KittyMod.shift)) return ESC + ' ';
    return null;
  }
  if (!isLegacyTextKey(key.code)) return null;
  const plain = String.fromCodePoint(key.code);
  const shifted = mods & KittyMod.shift && key.shifted > 0 ? String.fromCodePoint(key.shifted) : plain;
  switch (mods) {
    case KittyMod.shift: return shifted;
    case KittyMod.alt:
    case KittyMod.alt | KittyMod.shift: return ESC + shifted;
    case KittyMod.ctrl: return ctrlByte(plain);
    case KittyMod.ctrl | KittyMod.alt: return ESC + ctrlByte(plain);
  }
  return null;
}

interface Serialize {
  number: number;
  final: KeyForm['final'];
  key: KittyKey;
  action: Action;
  flags: number;
  alternates: boolean;
}

/** `CSI number[:shifted[:base]] ; mods[:action] ; text final`, leaving out what is not there. */
function serialize({ number, final, key, action, flags, alternates }: Serialize): string {
  const withAction = (flags & KittyFlag.eventTypes) !== 0 && action !== 'press';
  const withText = (flags & KittyFlag.associatedText) !== 0 && (flags & KittyFlag.allKeysAsEscapes) !== 0 && key.text !== '' && action !== 'release';
  const second = key.mods !== 0 || withAction;
  let out = CSI;
  if (number !== 1 || alternates || second || withText) out += String(number);
  if (alternates) {
    out += ':';
    if (key.shifted > 0 && key.mods & KittyMod.shift) out += String(key.shifted);
    if (key.base > 0) out += `:${key.base}`;
  }
  if (second || withText) {
    out += ';';
    if (second) out += String(key.mods + 1);
    if (withAction) out += `:${ACTION_NUMBER[action]}`;
  }
  if (withText) out += ';' + Array.from(key.text, (ch) => String(ch.codePointAt(0))).join(':');
  return out + final;
}
