// Input events for the overlay tests: short constructors and a fast-check arbitrary covering
// every kind of event a client parses, including modifiers, controls and pastes with breaks.
import fc from 'fast-check';
import type { InputEvent, KeyName, Mods } from '../../../src/input/events.js';

export const text = (s: string, mods?: Mods): InputEvent => (mods ? { k: 'text', s, mods } : { k: 'text', s });
export const key = (name: KeyName, mods?: Mods): InputEvent => (mods ? { k: 'key', key: name, mods } : { k: 'key', key: name });
export const ctrl = (ch: string): InputEvent => text(ch, { ctrl: true });
export const alt = (ch: string): InputEvent => text(ch, { alt: true });
export const paste = (s: string): InputEvent => ({ k: 'paste', s });

/** Types each character of `s` as its own key press. */
export function typed(s: string): InputEvent[] {
  return [...s].map((ch) => text(ch));
}

export const KEY_NAMES: readonly KeyName[] = [
  'enter', 'tab', 'backspace', 'escape', 'space', 'up', 'down', 'left', 'right',
  'home', 'end', 'pageup', 'pagedown', 'insert', 'delete',
  'f1', 'f2', 'f3', 'f4', 'f5', 'f6', 'f7', 'f8', 'f9', 'f10', 'f11', 'f12',
];

const modsArb: fc.Arbitrary<Mods | undefined> = fc.option(
  fc.record({ shift: fc.boolean(), alt: fc.boolean(), ctrl: fc.boolean(), meta: fc.boolean() }),
  { nil: undefined },
);

/** Graphemes that stress segmentation: CJK, emoji, ZWJ sequences, flags, combining marks, controls. */
export const TRICKY = ['a', 'Z', ' ', '漢', '字', '👍', '👩‍👩‍👧', '🇫🇷', 'e\u0301', '\u0301', '\u200d', '\t', '\n', '\r', '\x1b', '\x7f', '\x85', '\x00'];

export const trickyString = (maxLength = 12): fc.Arbitrary<string> =>
  fc.oneof(fc.string({ unit: 'grapheme', maxLength }), fc.array(fc.constantFrom(...TRICKY), { maxLength }).map((a) => a.join('')));

export const eventArb: fc.Arbitrary<InputEvent> = fc.oneof(
  fc.record({ s: trickyString(4), mods: modsArb }).map(({ s, mods }) => text(s, mods)),
  fc.constantFrom('a', 'b', 'e', 'f', 'k', 'u', 'w').map(ctrl),
  fc.constantFrom('b', 'f').map(alt),
  fc.record({ name: fc.constantFrom(...KEY_NAMES), mods: modsArb }).map(({ name, mods }) => key(name, mods)),
  trickyString(20).map(paste),
  fc.constant<InputEvent>({ k: 'focus', focused: true }),
  fc.constant<InputEvent>({ k: 'raw', bytes: '\x1b[99x' }),
  fc.constant<InputEvent>({ k: 'mouse', action: 'press', button: 'left', x: 1, y: 1 }),
);

/** The keys a line editor acts on, so properties exercise every edit often. */
export const editKeyArb: fc.Arbitrary<InputEvent> = fc.constantFrom<InputEvent>(
  key('left'), key('right'), key('home'), key('end'), key('backspace'), key('delete'),
  key('left', { ctrl: true }), key('right', { ctrl: true }), key('backspace', { alt: true }), key('backspace', { ctrl: true }),
  ctrl('a'), ctrl('e'), ctrl('b'), ctrl('f'), ctrl('u'), ctrl('k'), ctrl('w'), alt('b'), alt('f'),
);
