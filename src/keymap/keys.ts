// Key descriptors ('alt+a', 'ctrl+c', 'f2', 'alt+enter', 'alt+>') and matching input events
// against them. Both sides reduce to one canonical string, `[ctrl+][alt+][shift+][meta+]key`,
// so a keymap is a plain map from that string to an action.
import { nearestName } from '../config/suggest.js';
import type { InputEvent, KeyName, Mods } from '../input/events.js';
import type { ActionId } from './actions.js';

/** Canonical key or chord -> action. Built by resolveKeymap. */
export interface Keymap {
  /** A chord is its canonical keys joined by one space ('ctrl+b d'). */
  readonly byKey: ReadonlyMap<string, ActionId>;
  /** Each action's canonical keys and chords, in declared order (for /hotkeys). */
  readonly byAction: ReadonlyMap<ActionId, readonly string[]>;
  /** Every proper beginning of a bound chord ('ctrl+b' for 'ctrl+b d'): a key that waits. */
  readonly chordStarts: ReadonlySet<string>;
  /** The `prefix` key of keybindings.json, canonical, or null. */
  readonly prefix: string | null;
}

export type ParsedKey = { ok: true; key: string } | { ok: false; reason: string };

const MODIFIERS = ['ctrl', 'alt', 'shift', 'meta'] as const;
type Modifier = (typeof MODIFIERS)[number];

const KEY_NAMES: Record<string, KeyName> = {
  enter: 'enter', return: 'enter', tab: 'tab', backspace: 'backspace', escape: 'escape', esc: 'escape',
  space: 'space', up: 'up', down: 'down', left: 'left', right: 'right', home: 'home', end: 'end',
  pageup: 'pageup', pagedown: 'pagedown', insert: 'insert', delete: 'delete', del: 'delete',
  f1: 'f1', f2: 'f2', f3: 'f3', f4: 'f4', f5: 'f5', f6: 'f6',
  f7: 'f7', f8: 'f8', f9: 'f9', f10: 'f10', f11: 'f11', f12: 'f12',
};

/** Names for characters that are awkward in a descriptor ('+' separates parts). */
const CHAR_NAMES: Record<string, string> = { comma: ',', plus: '+' };

function canonical(mods: ReadonlySet<Modifier>, base: string): string {
  return [...MODIFIERS.filter((m) => mods.has(m)), base].join('+');
}

/**
 * A descriptor as its canonical key. Modifiers are ctrl, alt, shift, meta; the key is a name
 * (enter, tab, f2, comma, plus, ...) or one character. Letters ignore case ('alt+A' is 'alt+a';
 * write 'alt+shift+a' for the shifted letter); other characters are written as typed ('alt+>'),
 * so shift cannot be combined with them.
 */
export function parseKey(descriptor: string): ParsedKey {
  const { modParts, keyPart } = splitKey(descriptor);
  const mods = new Set<Modifier>();
  for (const part of modParts) {
    const m = part.toLowerCase();
    if (!(MODIFIERS as readonly string[]).includes(m)) return { ok: false, reason: `"${part}" is not a modifier` };
    if (mods.has(m as Modifier)) return { ok: false, reason: `${m} appears twice` };
    mods.add(m as Modifier);
  }
  if (keyPart === '') return { ok: false, reason: 'the key is missing' };
  const lower = keyPart.toLowerCase();
  if (Object.hasOwn(KEY_NAMES, lower)) return { ok: true, key: canonical(mods, KEY_NAMES[lower]) };
  const ch = Object.hasOwn(CHAR_NAMES, lower) ? CHAR_NAMES[lower] : keyPart;
  if ([...ch].length !== 1) return { ok: false, reason: `"${keyPart}" is not a key name or a single character` };
  if (/^\p{Cc}$/u.test(ch)) return { ok: false, reason: 'control characters are written as ctrl+letter' };
  if (ch === ' ') return { ok: true, key: canonical(mods, 'space') };
  if (/^[a-z]$/i.test(ch)) return { ok: true, key: canonical(mods, ch.toLowerCase()) };
  if (mods.has('shift')) return { ok: false, reason: `shift cannot be combined with "${ch}"; write the shifted character itself` };
  return { ok: true, key: canonical(mods, ch) };
}

/** A descriptor's modifier words and its key word, as written. */
function splitKey(descriptor: string): { modParts: string[]; keyPart: string } {
  const d = descriptor.trim();
  if (d.endsWith('++')) return { modParts: splitMods(d.slice(0, -2)), keyPart: '+' };
  const at = d.lastIndexOf('+');
  return { modParts: splitMods(at < 0 ? '' : d.slice(0, at)), keyPart: d.slice(at + 1) };
}

function splitMods(modPart: string): string[] {
  return modPart === '' ? [] : modPart.split('+');
}

const WORDS = [...Object.keys(KEY_NAMES), ...Object.keys(CHAR_NAMES)];

/**
 * The chord a descriptor that does not parse most likely meant, canonical, each unknown modifier
 * or key name replaced by the nearest known one ('alt+entr' → 'alt+enter', 'contrl+b d' →
 * 'ctrl+b d'); null when a word is near none, or the mistake is not in a name.
 */
export function nearestChord(descriptor: string): string | null {
  const keys: string[] = [];
  for (const part of descriptor.trim().split(/\s+/)) {
    const { modParts, keyPart } = splitKey(part);
    const words = modParts.map((m) => ((MODIFIERS as readonly string[]).includes(m.toLowerCase()) ? m : nearestName(m, MODIFIERS)));
    const known = [...keyPart].length === 1 || WORDS.includes(keyPart.toLowerCase());
    words.push(known ? keyPart : nearestName(keyPart, WORDS));
    if (words.some((w) => w === null)) return null;
    keys.push(words.join('+'));
  }
  const parsed = parseChord(keys.join(' '));
  return parsed.ok ? parsed.key : null;
}

function modSet(mods: Mods | undefined): Set<Modifier> {
  return new Set(MODIFIERS.filter((m) => mods?.[m]));
}

/** The canonical key of a key press, or null for anything else (longer text, paste, mouse...). */
export function eventKey(ev: InputEvent): string | null {
  if (ev.k === 'key') return canonical(modSet(ev.mods), ev.key);
  if (ev.k !== 'text' || [...ev.s].length !== 1) return null;
  const mods = modSet(ev.mods);
  if (ev.s === ' ') return canonical(mods, 'space');
  if (/^[a-z]$/i.test(ev.s)) {
    if (ev.s !== ev.s.toLowerCase()) mods.add('shift');
    return canonical(mods, ev.s.toLowerCase());
  }
  // The character already shows the shift ('>' is shift+.).
  mods.delete('shift');
  return canonical(mods, ev.s);
}

/** A chord descriptor, keys separated by spaces ('ctrl+b d'), as canonical keys joined by one space. */
export function parseChord(descriptor: string): ParsedKey {
  const parts = descriptor.trim().split(/\s+/);
  if (parts.length === 1 && parts[0] === '') return { ok: false, reason: 'the key is missing' };
  const keys: string[] = [];
  for (const part of parts) {
    const parsed = parseKey(part);
    if (!parsed.ok) return parsed;
    keys.push(parsed.key);
  }
  return { ok: true, key: keys.join(' ') };
}
