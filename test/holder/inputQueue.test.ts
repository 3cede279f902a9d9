import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { InputQueue } from '../../src/holder/inputQueue.js';

describe('InputQueue', () => {
  it('admits a payload whole or not at all, counting bytes, not characters', () => {
    const q = new InputQueue(10);
    expect(q.offer('héllo')).toBe(true); // 6 bytes
    expect(q.size).toBe(6);
    expect(q.offer('12345')).toBe(false); // would be 11
    expect(q.size).toBe(6);
    expect(q.offer('1234')).toBe(true);
    expect(q.takeAll()).toBe('héllo1234');
    expect(q.size).toBe(0);
  });

  it('counts input the child has not taken yet against the limit', () => {
    const q = new InputQueue(10);
    expect(q.offer('12345', 6)).toBe(false); // 6 still waiting for the PTY + 5 > 10
    expect(q.size).toBe(0);
    expect(q.offer('1234', 6)).toBe(true);
    expect(q.offer('x', 6)).toBe(false);
    expect(q.takeAll()).toBe('1234');
    expect(q.offer('1234567890', 0)).toBe(true);
  });

  it('never drops, reorders or truncates what it accepted', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.string(), fc.boolean())), fc.integer({ min: 1, max: 64 }), (ops, limit) => {
        const q = new InputQueue(limit);
        let expected = '';
        let out = '';
        for (const [s, drain] of ops) {
          if (q.offer(s)) expected += s;
          if (drain) out += q.takeAll();
          expect(q.size).toBeLessThanOrEqual(limit);
        }
        out += q.takeAll();
        expect(out).toBe(expected);
      }),
    );
  });
});
