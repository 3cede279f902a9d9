import { describe, expect, it } from 'vitest';
import type { InputEvent, KeyDetail, KeyName, Mods } from '../../src/input/events.js';
import { encodeInput } from '../../src/input/encode.js';
import { tokenToEvents } from '../../src/input/parse.js';
import { InputTokenizer } from '../../src/input/tokenizer.js';
import type { Modes } from '../../src/surface/types.js';
import { LEGACY_MODES as NORMAL } from '../helpers/modes.js';

// Expected bytes are the protocol's own (sw.kovidgoyal.net/kitty/keyboard-protocol): its
// examples where it gives them, else its rules as kitty's key_encoding.c applies them.
const flags = (kittyFlags: number, more: Partial<Modes> = {}): Modes => ({ ...NORMAL, ...more, kittyFlags });

const text = (s: string, mods?: Mods, detail: KeyDetail = {}): InputEvent => ({ k: 'text', s, ...(mods ? { mods } : {}), ...detail });
const key = (name: KeyName, mods?: Mods, detail: KeyDetail = {}): InputEvent => ({ k: 'key', key: name, ...(mods ? { mods } : {}), ...detail });
const release: KeyDetail = { type: 'release' };
const repeat: KeyDetail = { type: 'repeat' };

const DISAMBIGUATE = 1;
const EVENT_TYPES = 2;
const ALTERNATES = 4;
const ALL_KEYS = 8;
const TEXT = 16;

type Row = [string, InputEvent, string];

function table(name: string, modes: Modes, rows: Row[]): void {
  describe(name, () => {
    it.each(rows)('%s', (_label, ev, bytes) => {
      expect(JSON.stringify(encodeInput(ev, modes))).toBe(JSON.stringify(bytes));
    });
  });
}

table('kitty: disambiguate (1)', flags(DISAMBIGUATE), [
  ['Esc is CSI 27 u', key('escape'), '\x1b[27u'],
  ['Shift+Enter', key('enter', { shift: true }), '\x1b[13;2u'],
  ['Enter keeps its legacy byte', key('enter'), '\r'],
  ['Tab keeps its legacy byte', key('tab'), '\t'],
  ['Backspace keeps its legacy byte', key('backspace'), '\x7f'],
  ['Ctrl+I is not Tab', text('i', { ctrl: true }), '\x1b[105;5u'],
  ['Shift+Tab', key('tab', { shift: true }), '\x1b[9;2u'],
  ['Ctrl+Shift+Tab', key('tab', { ctrl: true, shift: true }), '\x1b[9;6u'],
  ['Alt+.', text('.', { alt: true }), '\x1b[46;3u'],
  ['Alt+> is Alt+Shift+. (the unshifted key is the number)', text('>', { alt: true, shift: true }), '\x1b[46;4u'],
  ['Ctrl+C no longer is 0x03', text('c', { ctrl: true }), '\x1b[99;5u'],
  ['Ctrl+Shift+A is 97, never 65', text('A', { ctrl: true, shift: true }), '\x1b[97;6u'],
  ['Ctrl+Alt+a', text('a', { ctrl: true, alt: true }), '\x1b[97;7u'],
  ['Alt+Escape', key('escape', { alt: true }), '\x1b[27;3u'],
  ['Alt+Enter', key('enter', { alt: true }), '\x1b[13;3u'],
  ['Ctrl+Space', key('space', { ctrl: true }), '\x1b[32;5u'],
  ['Super+a', text('a', { meta: true }), '\x1b[97;9u'],
  ['text stays text', text('a'), 'a'],
  ['shifted text stays text', text('A', { shift: true }), 'A'],
  ['a burst of typed text', text('héllo'), 'héllo'],
  ['space', key('space'), ' '],
  ['Up', key('up'), '\x1b[A'],
  ['Up in cursor key mode is still CSI', key('up'), '\x1b[A'],
  ['Ctrl+Up', key('up', { ctrl: true }), '\x1b[1;5A'],
  ['F1', key('f1'), '\x1b[P'],
  ['Shift+F1', key('f1', { shift: true }), '\x1b[1;2P'],
  ['F3 (CSI 13 ~, not CSI R)', key('f3'), '\x1b[13~'],
  ['F5', key('f5'), '\x1b[15~'],
  ['Shift+F5', key('f5', { shift: true }), '\x1b[15;2~'],
  ['Delete', key('delete'), '\x1b[3~'],
  ['F13', key('f13'), '\x1b[57376u'],
  ['keypad 5 types its text', text('5', undefined, { keypad: true }), '5'],
  ['Ctrl+keypad 5 is its own key', text('5', { ctrl: true }, { keypad: true }), '\x1b[57404;5u'],
  ['keypad Enter', key('enter', undefined, { keypad: true }), '\x1b[57414u'],
  ['a release without event types is nothing', text('a', undefined, release), ''],
  ['Shift alone without all keys is nothing', key('leftShift', { shift: true }), ''],
  ['Cyrillic Ctrl+С without alternates', text('с', { ctrl: true }, { base: 99 }), '\x1b[1089;5u'],
]);

table('kitty: disambiguate in cursor key mode', flags(DISAMBIGUATE, { appCursor: true }), [
  ['Up is CSI A, not SS3 A', key('up'), '\x1b[A'],
]);

table('kitty: disambiguate + event types (3)', flags(DISAMBIGUATE | EVENT_TYPES), [
  ['release of a', text('a', undefined, release), '\x1b[97;1:3u'],
  ['repeat of a is text', text('a', undefined, repeat), 'a'],
  ['release of Shift+a', text('A', { shift: true }, release), '\x1b[97;2:3u'],
  ['repeat of Ctrl+a', text('a', { ctrl: true }, repeat), '\x1b[97;5:2u'],
  ['press of Esc', key('escape'), '\x1b[27u'],
  ['release of Esc', key('escape', undefined, release), '\x1b[27;1:3u'],
  ['no release for Enter', key('enter', undefined, release), ''],
  ['no release for Tab', key('tab', undefined, release), ''],
  ['no release for Backspace', key('backspace', undefined, release), ''],
  ['release of Shift+Enter', key('enter', { shift: true }, release), '\x1b[13;2:3u'],
  ['release of Up', key('up', undefined, release), '\x1b[1;1:3A'],
  ['repeat of Up', key('up', undefined, repeat), '\x1b[1;1:2A'],
  ['release of F5', key('f5', undefined, release), '\x1b[15;1:3~'],
]);

table('kitty: event types alone (2): legacy bytes where they exist', flags(EVENT_TYPES), [
  ['Esc', key('escape'), '\x1b'],
  ['Alt+a', text('a', { alt: true }), '\x1ba'],
  ['Ctrl+a', text('a', { ctrl: true }), '\x01'],
  ['Ctrl+Space', key('space', { ctrl: true }), '\x00'],
  ['Alt+Enter', key('enter', { alt: true }), '\x1b\r'],
  ['Shift+Tab', key('tab', { shift: true }), '\x1b[Z'],
  ['Ctrl+Backspace', key('backspace', { ctrl: true }), '\b'],
  // The protocol's "legacy text keys" example row for ';'.
  ['; shift', text(':', { shift: true }), ':'],
  ['; alt', text(';', { alt: true }), '\x1b;'],
  ['; ctrl (no control for it)', text(';', { ctrl: true }), ';'],
  ['; shift+alt', text(':', { shift: true, alt: true }), '\x1b:'],
  ['; alt+ctrl', text(';', { alt: true, ctrl: true }), '\x1b;'],
  ['; ctrl+shift', text(':', { ctrl: true, shift: true }), '\x1b[59;6u'],
  ['release of a', text('a', undefined, release), '\x1b[97;1:3u'],
  ['release of Ctrl+a', text('a', { ctrl: true }, release), '\x1b[97;5:3u'],
  ['Up', key('up'), '\x1b[A'],
]);

table('kitty: alternate keys (1|4)', flags(DISAMBIGUATE | ALTERNATES), [
  ['Ctrl+Shift+a carries the shifted key', text('A', { ctrl: true, shift: true }), '\x1b[97:65;6u'],
  ['Cyrillic Ctrl+С carries the PC-101 key', text('с', { ctrl: true }, { base: 99 }), '\x1b[1089::99;5u'],
  ['Ctrl+a: no alternate to add', text('a', { ctrl: true }), '\x1b[97;5u'],
  ['Shift+Enter: functional keys carry none', key('enter', { shift: true }), '\x1b[13;2u'],
]);

table('kitty: all keys as escapes (8)', flags(ALL_KEYS), [
  ['a', text('a'), '\x1b[97u'],
  ['Shift+a', text('A', { shift: true }), '\x1b[97;2u'],
  ['Enter', key('enter'), '\x1b[13u'],
  ['Tab', key('tab'), '\x1b[9u'],
  ['Backspace', key('backspace'), '\x1b[127u'],
  ['Esc', key('escape'), '\x1b[27u'],
  ['typed text is one key each', text('ab'), '\x1b[97u\x1b[98u'],
  ['Left Shift alone', key('leftShift', { shift: true }), '\x1b[57441;2u'],
]);

table('kitty: all keys + associated text (8|16)', flags(ALL_KEYS | TEXT), [
  ['Shift+a: CSI 97 ; 2 ; 65 u (the protocol\'s example)', text('A', { shift: true }), '\x1b[97;2;65u'],
  ['a', text('a'), '\x1b[97;;97u'],
  ['Ctrl+a has no text', text('a', { ctrl: true }), '\x1b[97;5u'],
]);

table('kitty: everything (31)', flags(31), [
  ['Shift+a', text('A', { shift: true }), '\x1b[97:65;2;65u'],
  ['release of Shift+a carries no text', text('A', { shift: true }, release), '\x1b[97:65;2:3u'],
  ['release of Enter', key('enter', undefined, release), '\x1b[13;1:3u'],
]);

table('no kitty flags: what xterm sends', NORMAL, [
  ['Esc', key('escape'), '\x1b'],
  ['Alt+.', text('.', { alt: true }), '\x1b.'],
  ['Shift+Enter is Enter', key('enter', { shift: true }), '\r'],
  ['a release is nothing', text('a', undefined, release), ''],
  ['F13 has no legacy bytes', key('f13'), ''],
]);

table('kitty flags that change nothing legacy keys say (4, 16)', flags(ALTERNATES | TEXT), [
  ['Alt+.', text('.', { alt: true }), '\x1b.'],
  ['Esc', key('escape'), '\x1b'],
]);

describe('kitty: what a kitty outer terminal sends reaches a child with the same flags unchanged', () => {
  const sent: Array<[number, string]> = [
    [DISAMBIGUATE, '\x1b[13;2u'],
    [DISAMBIGUATE, '\x1b[105;5u'],
    [DISAMBIGUATE, '\x1b[46;3u'],
    [DISAMBIGUATE, '\x1b[27u'],
    [DISAMBIGUATE, '\x1b[1;5A'],
    [DISAMBIGUATE | EVENT_TYPES, '\x1b[97;1:3u'],
    [DISAMBIGUATE | EVENT_TYPES, '\x1b[1;1:3A'],
    [DISAMBIGUATE | EVENT_TYPES, '\x1b[15;5:2~'],
    [DISAMBIGUATE | ALTERNATES, '\x1b[1089::99;5u'],
    [DISAMBIGUATE | ALTERNATES, '\x1b[97:65;6u'],
    [DISAMBIGUATE, '\x1b[57376u'],
    [DISAMBIGUATE, '\x1b[57404;5u'],
    [DISAMBIGUATE, '\x1b[57414u'],
  ];
  it.each(sent)('flags %i: %j', (f, bytes) => {
    const tokens = new InputTokenizer().push(bytes, 0);
    const events = tokens.flatMap((t) => tokenToEvents(t));
    expect(events.map((ev) => encodeInput(ev, flags(f))).join('')).toBe(bytes);
  });
});
