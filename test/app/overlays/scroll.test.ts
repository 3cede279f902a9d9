import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { clampTop, windowStart } from '../../../src/app/overlays/scroll.js';

describe('windowStart', () => {
  it('shows the start of a list that fits, and centres the selection otherwise', () => {
    expect(windowStart(3, 2, 5)).toBe(0);
    expect(windowStart(20, 0, 5)).toBe(0);
    expect(windowStart(20, 10, 5)).toBe(8);
    expect(windowStart(20, 19, 5)).toBe(15);
  });

  it('always keeps the selected row in view, within the list', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 50 }), fc.nat(60), fc.integer({ min: 1, max: 20 }), (count, i, visible) => {
        const index = i % count;
        const start = windowStart(count, index, visible);
        expect(start).toBeGreaterThanOrEqual(0);
        expect(index).toBeGreaterThanOrEqual(start);
        expect(index).toBeLessThan(start + visible);
        expect(start + Math.min(visible, count)).toBeLessThanOrEqual(count);
      }),
    );
  });
});

describe('clampTop', () => {
  it('never scrolls past the last page or before the first row', () => {
    expect(clampTop(-3, 10, 4)).toBe(0);
    expect(clampTop(9, 10, 4)).toBe(6);
    expect(clampTop(3, 2, 4)).toBe(0);
    expect(clampTop(3, 10, 0)).toBe(3);
  });
});
