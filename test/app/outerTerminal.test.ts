import { describe, it, expect } from 'vitest';
import { ENTER_SEQUENCE, RESTORE_SEQUENCE } from '../../src/app/outerTerminal.js';

describe('outer terminal modes', () => {
  it('turns off every mode it turns on, in reverse order', () => {
    const on = [...ENTER_SEQUENCE.matchAll(/\x1b\[\?(\d+)h/g)].map((m) => m[1]);
    const off = [...RESTORE_SEQUENCE.matchAll(/\x1b\[\?(\d+)l/g)].map((m) => m[1]).filter((m) => on.includes(m));
    expect(on.length).toBeGreaterThan(0);
    expect(off).toEqual([...on].reverse());
  });
});
