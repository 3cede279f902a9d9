import { describe, it, expect } from 'vitest';
import { ENTER_SEQUENCE, RESTORE_SEQUENCE, keyboardReply } from '../../src/app/outerTerminal.js';

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
