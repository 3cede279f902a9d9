// `a1 send`'s words as input events (src/cli/sendKeys.ts), as tmux's send-keys reads them.
import { describe, it, expect } from 'vitest';
import { batches, keyOf, sendEvents } from '../../src/cli/sendKeys.js';
import { encodeInput } from '../../src/input/encode.js';
import { DEFAULT_MODES } from '../../src/surface/types.js';

describe('keyOf', () => {
  const cases: [word: string, expected: unknown][] = [
    ['Enter', { k: 'key', key: 'enter' }],
    ['enter', { k: 'key', key: 'enter' }],
    ['Escape', { k: 'key', key: 'escape' }],
    ['Tab', { k: 'key', key: 'tab' }],
    ['BTab', { k: 'key', key: 'tab', mods: { shift: true } }],
    ['BSpace', { k: 'key', key: 'backspace' }],
    ['Up', { k: 'key', key: 'up' }],
    ['PgDn', { k: 'key', key: 'pagedown' }],
    ['F12', { k: 'key', key: 'f12' }],
    ['C-c', { k: 'text', s: 'c', mods: { ctrl: true } }],
    ['M-x', { k: 'text', s: 'x', mods: { alt: true } }],
    ['C-M-Up', { k: 'key', key: 'up', mods: { ctrl: true, alt: true } }],
    ['S-Tab', { k: 'key', key: 'tab', mods: { shift: true } }],
    ['hello', null],
    ['C-', null],
    ['C-cc', null],
    ['-', null],
    ['F13', null],
  ];
  it.each(cases)('%s', (word, expected) => expect(keyOf(word)).toEqual(expected));
});

describe('sendEvents', () => {
  it('keys and text in order, runs of text joined, no spaces added', () => {
    expect(sendEvents(['echo hi', 'there', 'Enter', 'C-c'], false)).toEqual([
      { k: 'text', s: 'echo hithere' },
      { k: 'key', key: 'enter' },
      { k: 'text', s: 'c', mods: { ctrl: true } },
    ]);
  });

  it('--literal: every word is text', () => {
    expect(sendEvents(['Enter', ' C-c'], true)).toEqual([{ k: 'text', s: 'Enter C-c' }]);
  });

  it('the bytes a legacy child gets: C-c is ETX, Enter is CR', () => {
    const bytes = sendEvents(['ls', 'Enter', 'C-c'], false).map((ev) => encodeInput(ev, DEFAULT_MODES)).join('');
    expect(bytes).toBe('ls\r\x03');
  });
});

describe('batches', () => {
  it('splits long text between characters, keeps keys whole, loses nothing', () => {
    const text = 'é'.repeat(10) + 'x'.repeat(5);
    const out = batches([{ k: 'text', s: text }, { k: 'key', key: 'enter' }], 4);
    expect(out.every((b) => b.reduce((n, ev) => n + (ev.k === 'text' ? [...ev.s].length : 1), 0) <= 4)).toBe(true);
    expect(out.flat().map((ev) => (ev.k === 'text' ? ev.s : '\r')).join('')).toBe(text + '\r');
  });
});
