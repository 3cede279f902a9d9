import { describe, expect, it } from 'vitest';
import type { InputEvent, KeyName, Mods } from '../../src/input/events.js';
import { tokenToEvents } from '../../src/input/parse.js';
import { ESC_TIMEOUT_MS, InputTokenizer } from '../../src/input/tokenizer.js';

/** Bytes from the outer terminal -> events, through the real tokenizer. */
function parse(input: string): InputEvent[] {
  const t = new InputTokenizer();
  const tokens = [...t.push(Buffer.from(input, 'utf8'), 0), ...t.flush(ESC_TIMEOUT_MS)];
  return tokens.flatMap(tokenToEvents);
}

type TextEvent = Extract<InputEvent, { k: 'text' }>;
type KeyEvent = Extract<InputEvent, { k: 'key' }>;
const text = (s: string, mods?: Mods): TextEvent => (mods ? { k: 'text', s, mods } : { k: 'text', s });
const key = (name: KeyName, mods?: Mods): KeyEvent => (mods ? { k: 'key', key: name, mods } : { k: 'key', key: name });

describe('tokenToEvents: text and control characters', () => {
  const cases: [string, string, InputEvent[]][] = [
    ['printable text', 'héllo 中', [text('héllo 中')]],
    ['enter', '\r', [key('enter')]],
    ['tab', '\t', [key('tab')]],
    ['backspace (DEL)', '\x7f', [key('backspace')]],
    ['backspace (^H, xterm ctrl+backspace)', '\b', [key('backspace', { ctrl: true })]],
    ['ctrl+c', '\x03', [text('c', { ctrl: true })]],
    ['ctrl+a', '\x01', [text('a', { ctrl: true })]],
    ['ctrl+j (LF)', '\n', [text('j', { ctrl: true })]],
    ['ctrl+z', '\x1a', [text('z', { ctrl: true })]],
    ['ctrl+space', '\x00', [key('space', { ctrl: true })]],
    ['ctrl+\\', '\x1c', [text('\\', { ctrl: true })]],
    ['ctrl+_', '\x1f', [text('_', { ctrl: true })]],
    ['escape (after the timeout)', '\x1b', [key('escape')]],
    ['C1 control passes raw', '\u0090', [{ k: 'raw', bytes: '\u0090' }]],
  ];
  it.each(cases)('%s', (_n, input, expected) => expect(parse(input)).toEqual(expected));
});

describe('tokenToEvents: Alt (ESC prefix)', () => {
  const cases: [string, string, InputEvent[]][] = [
    ['alt+a', '\x1ba', [text('a', { alt: true })]],
    ['alt+shift+a', '\x1bA', [text('A', { alt: true })]],
    ['alt+.', '\x1b.', [text('.', { alt: true })]],
    ['alt+,', '\x1b,', [text(',', { alt: true })]],
    ['alt+<', '\x1b<', [text('<', { alt: true })]],
    ['alt+>', '\x1b>', [text('>', { alt: true })]],
    ['alt+1', '\x1b1', [text('1', { alt: true })]],
    ['alt+/', '\x1b/', [text('/', { alt: true })]],
    ['alt+é', '\x1bé', [text('é', { alt: true })]],
    ['alt+[ alone', '\x1b[', [text('[', { alt: true })]],
    ['alt+O alone', '\x1bO', [text('O', { alt: true })]],
    ['alt+enter', '\x1b\r', [key('enter', { alt: true })]],
    ['alt+backspace', '\x1b\x7f', [key('backspace', { alt: true })]],
    ['ctrl+alt+c', '\x1b\x03', [text('c', { ctrl: true, alt: true })]],
    ['alt+escape', '\x1b\x1b', [key('escape', { alt: true })]],
    ['alt+up as ESC-prefixed CSI', '\x1b\x1b[A', [key('up', { alt: true })]],
    ['alt+f1 as ESC-prefixed SS3', '\x1b\x1bOP', [key('f1', { alt: true })]],
  ];
  it.each(cases)('%s', (_n, input, expected) => expect(parse(input)).toEqual(expected));
});

describe('tokenToEvents: CSI and SS3 keys', () => {
  const cases: [string, string, InputEvent[]][] = [
    ['up', '\x1b[A', [key('up')]],
    ['down', '\x1b[B', [key('down')]],
    ['right', '\x1b[C', [key('right')]],
    ['left', '\x1b[D', [key('left')]],
    ['app-cursor up', '\x1bOA', [key('up')]],
    ['ctrl+up', '\x1b[1;5A', [key('up', { ctrl: true })]],
    ['shift+right', '\x1b[1;2C', [key('right', { shift: true })]],
    ['alt+left', '\x1b[1;3D', [key('left', { alt: true })]],
    ['ctrl+alt+shift+meta+down', '\x1b[1;16B', [key('down', { shift: true, alt: true, ctrl: true, meta: true })]],
    ['home', '\x1b[H', [key('home')]],
    ['end', '\x1b[F', [key('end')]],
    ['app-cursor home', '\x1bOH', [key('home')]],
    ['vt220 home', '\x1b[1~', [key('home')]],
    ['vt220 end', '\x1b[4~', [key('end')]],
    ['rxvt home', '\x1b[7~', [key('home')]],
    ['insert', '\x1b[2~', [key('insert')]],
    ['delete', '\x1b[3~', [key('delete')]],
    ['ctrl+delete', '\x1b[3;5~', [key('delete', { ctrl: true })]],
    ['page up', '\x1b[5~', [key('pageup')]],
    ['page down', '\x1b[6~', [key('pagedown')]],
    ['F1', '\x1bOP', [key('f1')]],
    ['F4', '\x1bOS', [key('f4')]],
    ['shift+F1', '\x1b[1;2P', [key('f1', { shift: true })]],
    ['old-style ctrl+F1', '\x1bO5P', [key('f1', { ctrl: true })]],
    ['rxvt F1', '\x1b[11~', [key('f1')]],
    ['F2', '\x1bOQ', [key('f2')]],
    ['F5', '\x1b[15~', [key('f5')]],
    ['F6', '\x1b[17~', [key('f6')]],
    ['F10', '\x1b[21~', [key('f10')]],
    ['F11', '\x1b[23~', [key('f11')]],
    ['ctrl+F12', '\x1b[24;5~', [key('f12', { ctrl: true })]],
    ['shift+tab', '\x1b[Z', [key('tab', { shift: true })]],
    ['keypad enter', '\x1bOM', [key('enter')]],
    ['keypad 5', '\x1bOu', [text('5')]],
    ['kitty ctrl+a', '\x1b[97;5u', [text('a', { ctrl: true })]],
    ['kitty shift+a', '\x1b[97;2u', [text('A', { shift: true })]],
    ['kitty enter', '\x1b[13u', [key('enter')]],
    ['kitty shift+enter', '\x1b[13;2u', [key('enter', { shift: true })]],
    ['kitty escape', '\x1b[27u', [key('escape')]],
    ['kitty ctrl+space', '\x1b[32;5u', [key('space', { ctrl: true })]],
    ['kitty release of a', '\x1b[97;1:3u', [{ ...text('a'), type: 'release' }]],
    ['kitty repeat of ctrl+a', '\x1b[97;5:2u', [{ ...text('a', { ctrl: true }), type: 'repeat' }]],
    ['kitty press (explicit event type 1)', '\x1b[97;5:1u', [text('a', { ctrl: true })]],
    ['kitty ctrl+i is not tab', '\x1b[105;5u', [text('i', { ctrl: true })]],
    ['kitty alt+.', '\x1b[46;3u', [text('.', { alt: true })]],
    ['kitty alt+shift+. is alt+> (US shifted key assumed)', '\x1b[46;4u', [text('>', { alt: true, shift: true })]],
    ['kitty alt+shift+. with the shifted key reported', '\x1b[46:62;4u', [{ ...text('>', { alt: true, shift: true }), shifted: 62 }]],
    ['kitty ctrl+С on a Cyrillic layout', '\x1b[1089::99;5u', [{ ...text('с', { ctrl: true }), base: 99 }]],
    ['kitty caps lock does not change the key', '\x1b[97;69u', [text('a', { ctrl: true })]],
    ['kitty super+a', '\x1b[97;9u', [text('a', { meta: true })]],
    ['kitty release of up', '\x1b[1;1:3A', [{ ...key('up'), type: 'release' }]],
    ['kitty repeat of ctrl+F5', '\x1b[15;5:2~', [{ ...key('f5', { ctrl: true }), type: 'repeat' }]],
    ['kitty F13', '\x1b[57376u', [key('f13')]],
    ['kitty keypad enter', '\x1b[57414u', [{ ...key('enter'), keypad: true }]],
    ['kitty ctrl+keypad 5', '\x1b[57404;5u', [{ ...text('5', { ctrl: true }), keypad: true }]],
    ['kitty left shift alone', '\x1b[57441;2u', [key('leftShift', { shift: true })]],
    ['modifyOtherKeys ctrl+shift+tab', '\x1b[27;6;9~', [key('tab', { shift: true, ctrl: true })]],
    ['modifyOtherKeys ctrl+.', '\x1b[27;5;46~', [text('.', { ctrl: true })]],
    ['unknown CSI passes raw', '\x1b[?1;2c', [{ k: 'raw', bytes: '\x1b[?1;2c' }]],
    ['unknown tilde passes raw', '\x1b[99~', [{ k: 'raw', bytes: '\x1b[99~' }]],
    ['unknown SS3 passes raw', '\x1bOz', [{ k: 'raw', bytes: '\x1bOz' }]],
    ['broken sequence passes raw', '\x1b[1;\r', [{ k: 'raw', bytes: '\x1b[1;' }, key('enter')]],
  ];
  it.each(cases)('%s', (_n, input, expected) => expect(parse(input)).toEqual(expected));
});

describe('tokenToEvents: mouse, focus, paste, strings', () => {
  const mouse = (action: string, button: string, x: number, y: number, mods?: Record<string, boolean>): InputEvent =>
    (mods ? { k: 'mouse', action, button, x, y, mods } : { k: 'mouse', action, button, x, y }) as InputEvent;
  const cases: [string, string, InputEvent[]][] = [
    ['SGR left press, 0-based', '\x1b[<0;1;1M', [mouse('press', 'left', 0, 0)]],
    ['SGR left release', '\x1b[<0;10;5m', [mouse('release', 'left', 9, 4)]],
    ['SGR right press', '\x1b[<2;3;4M', [mouse('press', 'right', 2, 3)]],
    ['SGR middle press', '\x1b[<1;3;4M', [mouse('press', 'middle', 2, 3)]],
    ['SGR drag with left held', '\x1b[<32;7;8M', [mouse('move', 'left', 6, 7)]],
    ['SGR motion without buttons', '\x1b[<35;7;8M', [mouse('move', 'none', 6, 7)]],
    ['SGR wheel up', '\x1b[<64;5;5M', [mouse('press', 'wheelUp', 4, 4)]],
    ['SGR wheel down', '\x1b[<65;5;5M', [mouse('press', 'wheelDown', 4, 4)]],
    ['SGR ctrl+shift+alt click', '\x1b[<28;300;100M', [mouse('press', 'left', 299, 99, { shift: true, alt: true, ctrl: true })]],
    // A report a1 has no event for is still a1's (issue 18): it never reaches a tab as bytes.
    ['SGR horizontal wheel is consumed', '\x1b[<66;5;5M', []],
    ['SGR zero coordinate is consumed', '\x1b[<0;0;5M', []],
    ['SGR extra button (8) is consumed', '\x1b[<128;5;5M', []],
    ['SGR wheel release is consumed', '\x1b[<64;5;5m', []],
    ['SGR report with too few fields is consumed', '\x1b[<0;5m', []],
    ['Alt-prefixed SGR report a1 cannot read is consumed', '\x1b\x1b[<66;5;5M', []],
    ['legacy report a1 cannot read is consumed', '\x1b[M\u00ff\ufffd!', []],
    ['legacy left press', '\x1b[M !!', [mouse('press', 'left', 0, 0)]],
    ['legacy release', '\x1b[M#+%', [mouse('release', 'none', 10, 4)]],
    ['legacy wheel down', '\x1b[Ma!!', [mouse('press', 'wheelDown', 0, 0)]],
    ['legacy UTF-8 (1005) coordinates', '\x1b[M \u0190\u0190', [mouse('press', 'left', 367, 367)]],
    ['focus in', '\x1b[I', [{ k: 'focus', focused: true }]],
    ['focus out', '\x1b[O', [{ k: 'focus', focused: false }]],
    ['paste keeps its content unparsed', '\x1b[200~a\x1b[Ab\r\n\x03\x1b[201~', [{ k: 'paste', s: 'a\x1b[Ab\r\n\x03' }]],
    ['empty paste', '\x1b[200~\x1b[201~', [{ k: 'paste', s: '' }]],
    ['OSC reply is not input for a child', '\x1b]11;rgb:0/0/0\x07', []],
    ['DCS reply is not input for a child', '\x1bP>|xterm\x1b\\', []],
  ];
  it.each(cases)('%s', (_n, input, expected) => expect(parse(input)).toEqual(expected));
});
