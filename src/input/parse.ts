// Tokens from the outer terminal -> input events. Pure; follows xterm's conventions for keys
// (modifier parameter 1 + shift|alt<<1|ctrl<<2|meta<<3) and mouse reports.
import type { InputEvent, KeyDetail, KeyName, Mods, MouseButton } from './events.js';
import { PASTE_END, PASTE_START, type Token } from './tokenizer.js';
import { LOCK_MODS, keyNameForU, keyOfChar, keypadKey, modsOfBits, shiftedAscii } from './kittyKeys.js';

const ESC = '\x1b';

/** Final byte of `CSI [1;m] X` and `SS3 X` keys. */
const LETTER_KEYS: Record<string, KeyName> = {
  A: 'up', B: 'down', C: 'right', D: 'left', H: 'home', F: 'end',
  P: 'f1', Q: 'f2', R: 'f3', S: 'f4',
};

/** First parameter of `CSI n [;m] ~` keys (xterm, plus the vt220/rxvt home/end/F1-F4 forms). */
const TILDE_KEYS: Record<number, KeyName> = {
  1: 'home', 2: 'insert', 3: 'delete', 4: 'end', 5: 'pageup', 6: 'pagedown', 7: 'home', 8: 'end',
  11: 'f1', 12: 'f2', 13: 'f3', 14: 'f4', 15: 'f5',
  17: 'f6', 18: 'f7', 19: 'f8', 20: 'f9', 21: 'f10', 23: 'f11', 24: 'f12',
};

/** Application keypad keys (SS3 j..y, X) map to the characters printed on them. */
const KEYPAD_CHARS: Record<string, string> = {
  j: '*', k: '+', l: ',', m: '-', n: '.', o: '/',
  p: '0', q: '1', r: '2', s: '3', t: '4', u: '5', v: '6', w: '7', x: '8', y: '9', X: '=',
};

/** `CSI 27;m;code ~`: xterm's modifyOtherKeys report. */
const MODIFY_OTHER_KEYS = 27;

/** Kitty key report event types (a sub-parameter of the modifiers); 1, a press, is the default. */
const KITTY_EVENT_TYPES: Readonly<Record<number, 'repeat' | 'release'>> = { 2: 'repeat', 3: 'release' };

/** Code points kitty uses for functional keys (Private Use Area): not text. */
const KITTY_FUNCTIONAL_FIRST = 0xe000;
const KITTY_FUNCTIONAL_LAST = 0xf8ff;

const MOUSE_BUTTONS: readonly MouseButton[] = ['left', 'middle', 'right', 'none'];
const MOUSE_SHIFT = 4;
const MOUSE_ALT = 8;
const MOUSE_CTRL = 16;
const MOUSE_MOTION = 32;
const MOUSE_WHEEL = 64;
const MOUSE_EXTRA_BUTTONS = 128;
/** Legacy mouse reports add 32 to the button code and to each 1-based coordinate. */
const LEGACY_MOUSE_OFFSET = 32;

/**
 * The events a token stands for. OSC and DCS tokens are replies to the client's own queries,
 * never meant for a child, so they map to no event; the client reads them at the token level.
 */
export function tokenToEvents(token: Token): InputEvent[] {
  switch (token.kind) {
    case 'text':
      return [{ k: 'text', s: token.raw }];
    case 'control':
      return [controlEvent(token.raw)];
    case 'esc':
      return [escEvent(token.raw)];
    case 'csi':
      return parseCsi(token.raw);
    case 'ss3':
      return parseSs3(token.raw);
    case 'focus':
      return [{ k: 'focus', focused: token.raw === '\x1b[I' }];
    case 'paste':
      return [{ k: 'paste', s: token.raw.slice(PASTE_START.length, token.raw.length - PASTE_END.length) }];
    case 'osc':
    case 'dcs':
      return [];
    case 'unknown':
      return [raw(token.raw)];
  }
}

function raw(bytes: string): InputEvent {
  return { k: 'raw', bytes };
}

/** Mods with only the flags that are set; undefined when none is. */
function mods(shift: boolean, alt: boolean, ctrl: boolean, meta: boolean): Mods | undefined {
  const m: Mods = {};
  if (shift) m.shift = true;
  if (alt) m.alt = true;
  if (ctrl) m.ctrl = true;
  if (meta) m.meta = true;
  return shift || alt || ctrl || meta ? m : undefined;
}

function withMods<T extends InputEvent>(ev: T, m: Mods | undefined): T {
  return m ? { ...ev, mods: m } : ev;
}

function key(name: KeyName, m?: Mods): InputEvent {
  return withMods({ k: 'key', key: name }, m);
}

function text(s: string, m?: Mods): InputEvent {
  return withMods({ k: 'text', s }, m);
}

const CTRL: Mods = { ctrl: true };

/** One C0 control character, DEL or C1 control character. */
function controlEvent(ch: string): InputEvent {
  const code = ch.charCodeAt(0);
  switch (code) {
    case 0x0d: return key('enter');
    case 0x09: return key('tab');
    case 0x7f: return key('backspace');
    // xterm sends ^H for Ctrl+Backspace.
    case 0x08: return key('backspace', CTRL);
    case 0x00: return key('space', CTRL);
    case 0x1b: return key('escape');
  }
  if (code >= 0x01 && code <= 0x1a) return text(String.fromCharCode(code + 0x60), CTRL);
  if (code >= 0x1c && code <= 0x1f) return text(String.fromCharCode(code + 0x40), CTRL);
  return raw(ch);
}

function addAlt(ev: InputEvent): InputEvent {
  if (ev.k === 'text' || ev.k === 'key') return { ...ev, mods: { ...ev.mods, alt: true } };
  if (ev.k === 'raw') return raw(ESC + ev.bytes);
  return ev;
}

/** ESC alone, or ESC followed by one character: Alt+that key. */
function escEvent(s: string): InputEvent {
  if (s === ESC) return key('escape');
  const rest = s.slice(1);
  const code = rest.charCodeAt(0);
  if (code < 0x20 || code === 0x7f || (code >= 0x80 && code < 0xa0)) return addAlt(controlEvent(rest));
  return text(rest, { alt: true });
}

/** Modifiers from xterm's parameter (1 + shift|alt<<1|ctrl<<2|meta<<3); kitty's extra bits are ignored. */
function decodeMods(param: number | undefined): Mods | undefined {
  if (param === undefined || param < 1) return undefined;
  const bits = param - 1;
  return mods((bits & 1) !== 0, (bits & 2) !== 0, (bits & 4) !== 0, (bits & 8) !== 0);
}

function mergeMods(a: Mods | undefined, b: Mods | undefined): Mods | undefined {
  return a || b ? { ...a, ...b } : undefined;
}

/** Parameters as numbers with sub-parameters (`1:2;3`); null when one is not a number. */
function parseParams(s: string): (number | undefined)[][] | null {
  if (s === '') return [];
  const out: (number | undefined)[][] = [];
  for (const part of s.split(';')) {
    const subs: (number | undefined)[] = [];
    for (const sub of part.split(':')) {
      if (sub === '') subs.push(undefined);
      else if (/^\d+$/.test(sub)) subs.push(Number(sub));
      else return null;
    }
    out.push(subs);
  }
  return out;
}

/** A mouse report's body: SGR (`<b;x;yM` or `m`) or legacy (`M` and three characters). */
const MOUSE_REPORT_BODY = /^(?:<[\d;:]*[Mm]|M[^]{3})$/u;

function parseCsi(s: string): InputEvent[] {
  const alt = s.startsWith(ESC + ESC);
  const body = s.slice(alt ? 3 : 2);
  const events = parseCsiBody(body);
  // A mouse report a1 has no event for (a horizontal wheel, buttons 8 to 11, a wheel's release)
  // is the outer terminal answering a1's own mouse modes: it is a1's, and never reaches a tab as
  // bytes (issue 18). A tab that asked for the mouse gets reports a1 encodes for it.
  if (events === null) return MOUSE_REPORT_BODY.test(body) ? [] : [raw(s)];
  return alt ? events.map(addAlt) : events;
}

/** The events of a CSI body (what follows `ESC [`), or null when it is not one a1 knows. */
function parseCsiBody(body: string): InputEvent[] | null {
  if (body[0] === 'M' && body.length > 1) return parseLegacyMouse(body.slice(1));
  const final = body[body.length - 1];
  const marker = /^[<=>?]/.test(body) ? body[0] : '';
  const params = parseParams(body.slice(marker.length, -1));
  if (params === null) return null;
  if (marker === '<') return final === 'M' || final === 'm' ? parseSgrMouse(params, final === 'm') : null;
  if (marker !== '') return null;
  const first = params[0]?.[0];
  const m = decodeMods(params[1]?.[0]);
  if (final === 'Z') return params.length <= 2 ? [key('tab', mergeMods({ shift: true }, m))] : null;
  if (Object.hasOwn(LETTER_KEYS, final)) {
    if (params.length > 2 || (first !== undefined && first !== 1)) return null;
    return [withType(key(LETTER_KEYS[final], m), params[1]?.[1])];
  }
  if (final === '~') {
    if (first === MODIFY_OTHER_KEYS && params.length === 3) {
      const ev = codePointEvent(params[2][0], undefined, m);
      return ev ? [ev] : null;
    }
    const name = first === undefined ? undefined : TILDE_KEYS[first];
    return name && params.length <= 2 ? [withType(key(name, m), params[1]?.[1])] : null;
  }
  if (final === 'u') return parseKittyKey(params);
  return null;
}

/** A kitty report's event type sub-parameter on a key event: a press (1 or none) adds nothing. */
function withType(ev: InputEvent, type: number | undefined): InputEvent {
  const t = type === undefined ? undefined : KITTY_EVENT_TYPES[type];
  return t && (ev.k === 'key' || ev.k === 'text') ? { ...ev, type: t } : ev;
}

/** Modifiers of a kitty report: all its bits but the lock keys, which a1 and legacy encodings
 * have no use for (Caps Lock must not turn Ctrl+a into another key). */
function kittyMods(param: number | undefined): Mods | undefined {
  if (param === undefined || param < 1) return undefined;
  return modsOfBits((param - 1) & ~LOCK_MODS);
}

/**
 * Kitty `CSI code[:shifted[:base]] ; mods[:event] ; text u` (and fixterms' `CSI code ; mods u`):
 * the key as the event a legacy terminal would give, plus what the report says beyond it (event
 * type, alternate keys, the keypad). Associated text is not read: a1 never asks for it.
 */
function parseKittyKey(params: (number | undefined)[][]): InputEvent[] | null {
  const [code, shifted, base] = params[0] ?? [];
  const m = kittyMods(params[1]?.[0]);
  if (code === undefined) return null;
  const detail: KeyDetail = {};
  if (base !== undefined && base > 0) detail.base = base;
  const pad = keypadKey(code);
  let ev: InputEvent | null;
  if (pad) {
    ev = 'text' in pad ? text(pad.text, m) : key(pad.key, m);
    detail.keypad = true;
  } else {
    const name = code === 32 || code === 8 ? undefined : keyNameForU(code);
    ev = name ? key(name, m) : codePointEvent(code, shifted, m);
    if (ev?.k === 'text') {
      if (shifted !== undefined && shifted > 0 && m?.shift) detail.shifted = shifted;
      // The key's own code when the text alone would name another (a non-US layout).
      if (keyOfChar(ev.s).code !== code) detail.code = code;
    }
  }
  if (ev === null) return null;
  return [withType({ ...ev, ...detail } as InputEvent, params[1]?.[1])];
}

/** A key reported by code point (kitty, modifyOtherKeys) as the event a legacy terminal would give. */
function codePointEvent(code: number | undefined, shifted: number | undefined, m: Mods | undefined): InputEvent | null {
  if (code === undefined) return null;
  switch (code) {
    case 13: return key('enter', m);
    case 9: return key('tab', m);
    case 127: return key('backspace', m);
    case 8: return key('backspace', m);
    case 27: return key('escape', m);
    case 32: return m?.ctrl ? key('space', m) : text(' ', m);
  }
  if (code < 0x20 || code > 0x10ffff || (code >= KITTY_FUNCTIONAL_FIRST && code <= KITTY_FUNCTIONAL_LAST)) {
    return null;
  }
  let ch = String.fromCodePoint(code);
  if (m?.shift) {
    // Without the shifted key reported, a US layout's is assumed ('.' with Shift is '>').
    if (shifted !== undefined && shifted >= 0x20 && shifted <= 0x10ffff) ch = String.fromCodePoint(shifted);
    else ch = shiftedAscii(ch) ?? ([...ch.toUpperCase()].length === 1 ? ch.toUpperCase() : ch);
  }
  return text(ch, m);
}

function mouseMods(code: number): Mods | undefined {
  return mods((code & MOUSE_SHIFT) !== 0, (code & MOUSE_ALT) !== 0, (code & MOUSE_CTRL) !== 0, false);
}

/**
 * A mouse event from a button code and 1-based coordinates. `release` is SGR's `m` final;
 * legacy encodings signal release with button bits 3 instead.
 */
function mouseEvent(code: number, x1: number, y1: number, release: boolean, legacy: boolean): InputEvent[] | null {
  if (x1 < 1 || y1 < 1 || (code & MOUSE_EXTRA_BUTTONS) !== 0) return null;
  const x = x1 - 1;
  const y = y1 - 1;
  const low = code & 3;
  const motion = (code & MOUSE_MOTION) !== 0;
  const m = mouseMods(code);
  if ((code & MOUSE_WHEEL) !== 0) {
    // Buttons 6 and 7 are horizontal wheels, which have no event.
    if (motion || release || low > 1) return null;
    return [withMods({ k: 'mouse', action: 'press', button: low === 0 ? 'wheelUp' : 'wheelDown', x, y }, m)];
  }
  const button = MOUSE_BUTTONS[low];
  let action: 'press' | 'release' | 'move';
  if (motion) action = 'move';
  else if (release || (legacy && button === 'none')) action = 'release';
  else action = 'press';
  if (action === 'press' && button === 'none') return null;
  return [withMods({ k: 'mouse', action, button, x, y }, m)];
}

function parseSgrMouse(params: (number | undefined)[][], release: boolean): InputEvent[] | null {
  if (params.length !== 3) return null;
  const [b, x, y] = params.map((p) => p[0]);
  if (b === undefined || x === undefined || y === undefined) return null;
  return mouseEvent(b, x, y, release, false);
}

/** `CSI M b x y` with each value offset by 32, one character each (bytes, or UTF-8 in mode 1005). */
function parseLegacyMouse(args: string): InputEvent[] | null {
  const values = [...args].map((ch) => ch.codePointAt(0)! - LEGACY_MOUSE_OFFSET);
  // U+FFFD stands for a byte that was not UTF-8: its value is lost.
  if (values.length !== 3 || args.includes('\ufffd')) return null;
  const [b, x, y] = values;
  if (b < 0) return null;
  return mouseEvent(b, x, y, false, true);
}

function parseSs3(s: string): InputEvent[] {
  const alt = s.startsWith(ESC + ESC);
  const body = s.slice(alt ? 3 : 2);
  const final = body[body.length - 1];
  const params = parseParams(body.slice(0, -1));
  let ev: InputEvent | null = null;
  if (params !== null && params.length <= 2) {
    // Old terminals put the modifier alone (ESC O 5 A); others as ESC O 1;5 A.
    const m = decodeMods(params[params.length - 1]?.[0]);
    if (Object.hasOwn(LETTER_KEYS, final)) ev = key(LETTER_KEYS[final], m);
    else if (final === 'M') ev = key('enter', m);
    else if (Object.hasOwn(KEYPAD_CHARS, final)) ev = text(KEYPAD_CHARS[final], m);
  }
  if (ev === null) return [raw(s)];
  return [alt ? addAlt(ev) : ev];
}
