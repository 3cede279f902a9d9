// The kitty keyboard protocol's numbers (sw.kovidgoyal.net/kitty/keyboard-protocol): its
// progressive-enhancement flags, modifier bits, the escape-code form of every key it names, and
// how an input event maps onto the key, modifiers and text it reports. Pure data and lookups,
// shared by the encoder (holder) and the decoder (client).
import type { InputEvent, KeyName, Mods } from './events.js';

/** Progressive-enhancement flags (`CSI > flags u`). */
export const KittyFlag = {
  disambiguate: 1,
  eventTypes: 2,
  alternateKeys: 4,
  allKeysAsEscapes: 8,
  associatedText: 16,
} as const;

/** Every flag the protocol defines; other bits are dropped, so a query reports what a1 does. */
export const KITTY_FLAGS_MASK = 31;

/** Modifier bits; the wire carries 1 + their sum. */
export const KittyMod = {
  shift: 1,
  alt: 2,
  ctrl: 4,
  super: 8,
  hyper: 16,
  meta: 32,
  capsLock: 64,
  numLock: 128,
} as const;
export const LOCK_MODS = KittyMod.capsLock | KittyMod.numLock;

/** The escape-code form of a key that is not text: `CSI number ; mods final`. */
export interface KeyForm {
  readonly number: number;
  readonly final: 'u' | '~' | 'A' | 'B' | 'C' | 'D' | 'E' | 'F' | 'H' | 'P' | 'Q' | 'S';
}

const u = (number: number): KeyForm => ({ number, final: 'u' });
const tilde = (number: number): KeyForm => ({ number, final: '~' });
const letter = (final: KeyForm['final']): KeyForm => ({ number: 1, final });

/** Keys a legacy terminal also sends, in the protocol's forms. F3 is `CSI 13 ~`: `CSI 1 ; m R`
 * was dropped from the protocol because it reads as a cursor position report. */
const LEGACY_KEY_FORMS: Readonly<Record<string, KeyForm>> = {
  escape: u(27), enter: u(13), tab: u(9), backspace: u(127),
  insert: tilde(2), delete: tilde(3), pageup: tilde(5), pagedown: tilde(6),
  up: letter('A'), down: letter('B'), right: letter('C'), left: letter('D'),
  home: letter('H'), end: letter('F'), begin: letter('E'),
  f1: letter('P'), f2: letter('Q'), f3: tilde(13), f4: letter('S'),
  f5: tilde(15), f6: tilde(17), f7: tilde(18), f8: tilde(19), f9: tilde(20), f10: tilde(21), f11: tilde(23), f12: tilde(24),
};

/** Keys only the protocol reports, each with its Private Use Area number (`CSI number u`). */
export const KITTY_ONLY_KEYS = [
  ['capsLock', 57358], ['scrollLock', 57359], ['numLock', 57360], ['printScreen', 57361], ['pause', 57362], ['menu', 57363],
  ...Array.from({ length: 23 }, (_, i) => [`f${13 + i}`, 57376 + i] as const),
  ['mediaPlay', 57428], ['mediaPause', 57429], ['mediaPlayPause', 57430], ['mediaReverse', 57431], ['mediaStop', 57432],
  ['mediaFastForward', 57433], ['mediaRewind', 57434], ['mediaTrackNext', 57435], ['mediaTrackPrevious', 57436],
  ['mediaRecord', 57437], ['lowerVolume', 57438], ['raiseVolume', 57439], ['muteVolume', 57440],
  ['leftShift', 57441], ['leftControl', 57442], ['leftAlt', 57443], ['leftSuper', 57444], ['leftHyper', 57445], ['leftMeta', 57446],
  ['rightShift', 57447], ['rightControl', 57448], ['rightAlt', 57449], ['rightSuper', 57450], ['rightHyper', 57451], ['rightMeta', 57452],
  ['isoLevel3Shift', 57453], ['isoLevel5Shift', 57454],
] as const;

export type KittyOnlyKeyName = (typeof KITTY_ONLY_KEYS)[number][0];

/** Modifier and lock keys: reported on their own only under "report all keys as escape codes". */
const FIRST_MODIFIER_KEY = 57441;
const LAST_MODIFIER_KEY = 57454;
const LOCK_KEYS: ReadonlySet<number> = new Set([57358, 57359, 57360]);

const KEY_FORMS: ReadonlyMap<string, KeyForm> = new Map([
  ...Object.entries(LEGACY_KEY_FORMS),
  ...KITTY_ONLY_KEYS.map(([name, number]) => [name, u(number)] as const),
]);

function keyForm(name: KeyName): KeyForm | undefined {
  return KEY_FORMS.get(name);
}

/** Whether `name` is one of the keys a legacy terminal has no bytes for. */
export function isKittyOnlyKey(name: KeyName): boolean {
  const form = KEY_FORMS.get(name);
  return form !== undefined && form.final === 'u' && form.number >= 57344;
}

/** A modifier or lock key pressed on its own. */
export function isModifierKey(name: KeyName): boolean {
  const form = KEY_FORMS.get(name);
  if (!form || form.final !== 'u') return false;
  return (form.number >= FIRST_MODIFIER_KEY && form.number <= LAST_MODIFIER_KEY) || LOCK_KEYS.has(form.number);
}

/** Decoding: the key a `CSI number ... u` names, when it is not a character. */
const NAME_BY_U_NUMBER: ReadonlyMap<number, KeyName> = new Map(
  [...KEY_FORMS].filter(([, f]) => f.final === 'u').map(([name, f]) => [f.number, name as KeyName]),
);

export function keyNameForU(number: number): KeyName | undefined {
  return NAME_BY_U_NUMBER.get(number);
}

/** Keypad keys: what they are on the main keyboard, and their own number. */
const KEYPAD: ReadonlyArray<readonly [number, { text: string } | { key: KeyName }]> = [
  ...Array.from({ length: 10 }, (_, i) => [57399 + i, { text: String(i) }] as const),
  [57409, { text: '.' }], [57410, { text: '/' }], [57411, { text: '*' }], [57412, { text: '-' }], [57413, { text: '+' }],
  [57414, { key: 'enter' }], [57415, { text: '=' }], [57416, { text: ',' }],
  [57417, { key: 'left' }], [57418, { key: 'right' }], [57419, { key: 'up' }], [57420, { key: 'down' }],
  [57421, { key: 'pageup' }], [57422, { key: 'pagedown' }], [57423, { key: 'home' }], [57424, { key: 'end' }],
  [57425, { key: 'insert' }], [57426, { key: 'delete' }], [57427, { key: 'begin' }],
];

const KEYPAD_BY_NUMBER: ReadonlyMap<number, { text: string } | { key: KeyName }> = new Map(KEYPAD);
const KEYPAD_NUMBER_BY_TEXT: ReadonlyMap<string, number> = new Map(
  KEYPAD.flatMap(([n, k]) => ('text' in k ? [[k.text, n] as const] : [])),
);
const KEYPAD_NUMBER_BY_KEY: ReadonlyMap<KeyName, number> = new Map(
  KEYPAD.flatMap(([n, k]) => ('key' in k ? [[k.key, n] as const] : [])),
);

export function keypadKey(number: number): { text: string } | { key: KeyName } | undefined {
  return KEYPAD_BY_NUMBER.get(number);
}

function keypadNumber(ev: { k: 'text'; s: string } | { k: 'key'; key: KeyName }): number | undefined {
  return ev.k === 'text' ? KEYPAD_NUMBER_BY_TEXT.get(ev.s) : KEYPAD_NUMBER_BY_KEY.get(ev.key);
}

/**
 * The US layout's shifted characters (the protocol's "shifted key" for a PC-101 keyboard). A
 * legacy terminal sends only the character, so the key behind it is read from this table.
 */
const SHIFTED: Readonly<Record<string, string>> = {
  '`': '~', '1': '!', '2': '@', '3': '#', '4': '$', '5': '%', '6': '^', '7': '&', '8': '*', '9': '(', '0': ')',
  '-': '_', '=': '+', '[': '{', ']': '}', '\\': '|', ';': ':', "'": '"', ',': '<', '.': '>', '/': '?',
};
const UNSHIFTED: ReadonlyMap<string, string> = new Map(Object.entries(SHIFTED).map(([k, v]) => [v, k]));

export function shiftedAscii(ch: string): string | undefined {
  if (/^[a-z]$/.test(ch)) return ch.toUpperCase();
  return SHIFTED[ch];
}

/** Keys whose Ctrl and Alt combinations have legacy bytes (the protocol's "legacy text keys"). */
export function isLegacyTextKey(code: number): boolean {
  return (code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39) || "`-=[]\\;',./".includes(String.fromCharCode(code));
}

/** The key a character was typed with, when only the character is known: its code point
 * unshifted, and whether Shift made it. Letters are lowered; US punctuation is unshifted. */
export function keyOfChar(ch: string): { code: number; shifted: boolean } {
  const unshifted = UNSHIFTED.get(ch);
  if (unshifted !== undefined) return { code: unshifted.codePointAt(0)!, shifted: true };
  const lower = ch.toLowerCase();
  if (lower !== ch && [...lower].length === 1) return { code: lower.codePointAt(0)!, shifted: true };
  return { code: ch.codePointAt(0)!, shifted: false };
}

/** Mods as the protocol's bit field (without the +1 of the wire). */
function modBits(m: Mods | undefined): number {
  if (!m) return 0;
  return (m.shift ? KittyMod.shift : 0) | (m.alt ? KittyMod.alt : 0) | (m.ctrl ? KittyMod.ctrl : 0)
    | (m.meta ? KittyMod.super : 0) | (m.hyper ? KittyMod.hyper : 0) | (m.kittyMeta ? KittyMod.meta : 0)
    | (m.capsLock ? KittyMod.capsLock : 0) | (m.numLock ? KittyMod.numLock : 0);
}

/** The protocol's bit field as Mods; undefined when no bit is set. */
export function modsOfBits(bits: number): Mods | undefined {
  const m: Mods = {};
  if (bits & KittyMod.shift) m.shift = true;
  if (bits & KittyMod.alt) m.alt = true;
  if (bits & KittyMod.ctrl) m.ctrl = true;
  if (bits & KittyMod.super) m.meta = true;
  if (bits & KittyMod.hyper) m.hyper = true;
  if (bits & KittyMod.meta) m.kittyMeta = true;
  if (bits & KittyMod.capsLock) m.capsLock = true;
  if (bits & KittyMod.numLock) m.numLock = true;
  return Object.keys(m).length > 0 ? m : undefined;
}

/** Modifiers that keep a key from producing text (the OS consumes Shift and the locks). */
const TEXT_BLOCKING_MODS = KittyMod.alt | KittyMod.ctrl | KittyMod.super | KittyMod.hyper | KittyMod.meta;

/** Key or text event, with what the protocol reports beyond a legacy terminal. */
export type KeyInput = Extract<InputEvent, { k: 'key' } | { k: 'text' }>;

/** Whether the event is a key (or typed text) at all. */
export function isKeyInput(ev: InputEvent): ev is KeyInput {
  return ev.k === 'key' || ev.k === 'text';
}

/** A key's release, which a1 never acts on and a child gets only when it asked for event types. */
function isRelease(ev: InputEvent): boolean {
  return isKeyInput(ev) && ev.type === 'release';
}

/** A modifier or lock key on its own, which only a child reporting all keys gets. */
function isLoneModifier(ev: InputEvent): boolean {
  return ev.k === 'key' && isModifierKey(ev.key);
}

/** Events a1 itself never reads as a key press: releases and modifier keys alone. */
export function isChildOnly(ev: InputEvent): boolean {
  return isRelease(ev) || isLoneModifier(ev);
}

/** One key as the protocol sees it: `code` is the unshifted key's code point, `form` the
 * escape-code form of a key that is not a character, `text` what it types ('' for none). */
export interface KittyKey {
  readonly code: number;
  readonly form: KeyForm | null;
  readonly shifted: number;
  readonly base: number;
  /** Modifier bits (without the +1 of the wire). */
  readonly mods: number;
  readonly text: string;
}

/**
 * The protocol's view of a key or of one typed character. Text from a legacy terminal carries
 * no key: it is read as typed on a US layout (`A` is Shift+a, `>` is Shift+.), which is what a
 * kitty-capable terminal with that layout would report. A keypad key is its keypad key number.
 */
export function kittyKey(ev: KeyInput): KittyKey {
  let mods = modBits(ev.mods);
  const base = ev.base ?? 0;
  const kp = ev.keypad ? keypadNumber(ev) : undefined;
  if (ev.k === 'key') {
    if (ev.key === 'space') return { code: 32, form: null, shifted: 0, base, mods, text: textOf(' ', mods) };
    const form = (kp === undefined || ev.key === 'begin' ? keyForm(ev.key) : u(kp)) ?? null;
    return { code: form?.number ?? 0, form, shifted: 0, base, mods, text: '' };
  }
  if (kp !== undefined) return { code: kp, form: u(kp), shifted: 0, base, mods, text: textOf(ev.s, mods) };
  let code = ev.code;
  let shifted = ev.shifted ?? 0;
  if (code === undefined) {
    const first = [...ev.s][0] ?? '\0';
    const typed = keyOfChar(first);
    code = typed.code;
    if (typed.shifted) {
      mods |= KittyMod.shift;
      shifted ||= first.codePointAt(0)!;
    }
  }
  if (mods & KittyMod.shift && shifted === 0) shifted = shiftedAscii(String.fromCodePoint(code))?.codePointAt(0) ?? 0;
  return { code, form: null, shifted, base, mods, text: textOf(ev.s, mods) };
}

function textOf(s: string, mods: number): string {
  return mods & TEXT_BLOCKING_MODS ? '' : s;
}

/** The identity of a physical key, the same for its press, repeats and release. */
export function keyIdentity(ev: KeyInput): string {
  if (ev.k === 'key') return `${ev.keypad ? 'kp-' : ''}${ev.key}`;
  return `${ev.keypad ? 'kp-' : ''}${kittyKey(ev).code}`;
}
