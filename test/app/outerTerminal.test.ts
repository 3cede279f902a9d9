import { describe, it, expect } from 'vitest';
import { ENTER_SEQUENCE, RESTORE_SEQUENCE, keyboardReply, uiColour, unsuitableTerminal } from '../../src/app/outerTerminal.js';

describe('outer terminal modes', () => {
  it('turns off every mode it turns on, in reverse order', () => {
    const on = [...ENTER_SEQUENCE.matchAll(/\x1b\[\?(\d+)h/g)].map((m) => m[1]);
    const off = [...RESTORE_SEQUENCE.matchAll(/\x1b\[\?(\d+)l/g)].map((m) => m[1]).filter((m) => on.includes(m));
    expect(on.length).toBeGreaterThan(0);
    expect(off).toEqual([...on].reverse());
  });
});

describe('keyboard query replies', () => {
  it.each([
    ['\x1b[?0u', { k: 'kitty', flags: 0 }],
    ['\x1b[?u', { k: 'kitty', flags: 0 }],
    ['\x1b[?7u', { k: 'kitty', flags: 7 }],
    ['\x1b[?62;22c', { k: 'da1' }],
    ['\x1b[?1;2c', { k: 'da1' }],
    ['\x1b[97;5u', null],
    ['\x1b[?1;2u', null],
    ['\x1b[c', null],
  ])('%j', (raw, reply) => expect(keyboardReply(raw)).toEqual(reply));
});

describe('terminals a1 refuses, and NO_COLOR', () => {
  it('refuses TERM=dumb and an unset or empty TERM with one sentence, and accepts a real terminal', () => {
    for (const env of [{ TERM: 'dumb' }, {}, { TERM: '' }]) {
      const why = unsuitableTerminal(env);
      expect(why).toMatch(/^[^.]+\.$/);
    }
    expect(unsuitableTerminal({ TERM: 'dumb' })).toContain('TERM=dumb');
    expect(unsuitableTerminal({ TERM: 'xterm-256color' })).toBeNull();
    expect(unsuitableTerminal({ TERM: 'screen' })).toBeNull();
  });

  it('draws in colour unless NO_COLOR is present and non-empty (no-color.org)', () => {
    expect(uiColour({})).toBe(true);
    expect(uiColour({ NO_COLOR: '' })).toBe(true);
    expect(uiColour({ NO_COLOR: '1' })).toBe(false);
    expect(uiColour({ NO_COLOR: '0' })).toBe(false);
  });
});
