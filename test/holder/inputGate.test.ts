import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { InputGate, type InputBatch } from '../../src/holder/inputGate.js';

const batch = (data: string, paste = false): InputBatch<string> => ({ parts: [{ binary: false, data }], bytes: Buffer.byteLength(data), paste, owner: 'c' });
const idle = { pending: 0, stalledMs: 0 };

describe('InputGate', () => {
  it('writes at once while the backlog stays within the bound, counting bytes', () => {
    const g = new InputGate<string>(10, 2_000, 100);
    expect(g.offer(batch('héllo'), idle)).toBe('write'); // 6 bytes
    expect(g.offer(batch('1234'), { pending: 6, stalledMs: 0 })).toBe('write');
    expect(g.heldBytes).toBe(0);
  });

  it('beyond the bound, input waits in order for a reading child instead of being refused', () => {
    const g = new InputGate<string>(10, 2_000, 100);
    expect(g.offer(batch('12345'), { pending: 8, stalledMs: 10 })).toBe('held');
    // Later input never passes what waits, even when it alone would fit.
    expect(g.offer(batch('a'), { pending: 8, stalledMs: 10 })).toBe('held');
    expect(g.release({ pending: 8, stalledMs: 0 })).toEqual([]);
    expect(g.release({ pending: 4, stalledMs: 0 }).map((b) => b.parts[0].data)).toEqual(['12345', 'a']);
    expect(g.heldBytes).toBe(0);
  });

  it('releases only as much as fits, each released batch counted as backlog for the next', () => {
    const g = new InputGate<string>(10, 2_000, 100);
    for (const s of ['aaaa', 'bbbb', 'cccc']) g.offer(batch(s), { pending: 10, stalledMs: 0 });
    expect(g.release({ pending: 0, stalledMs: 0 }).map((b) => b.parts[0].data)).toEqual(['aaaa', 'bbbb']);
    expect(g.heldBytes).toBe(4);
  });

  it('refuses once the child has taken nothing for the stall time: what waits, whole, and what comes', () => {
    const g = new InputGate<string>(10, 2_000, 100);
    g.offer(batch('12345'), { pending: 8, stalledMs: 100 });
    expect(g.refuseIfStalled({ pending: 8, stalledMs: 1_999 })).toEqual([]);
    expect(g.refuseIfStalled({ pending: 8, stalledMs: 2_000 }).map((b) => b.bytes)).toEqual([5]);
    expect(g.heldBytes).toBe(0);
    expect(g.offer(batch('123'), { pending: 8, stalledMs: 2_500 })).toBe('refused');
    // Small input still fits beside a stalled backlog.
    expect(g.offer(batch('12'), { pending: 8, stalledMs: 2_500 })).toBe('write');
  });

  it('a paste larger than the bound is refused at once; typed input larger than it goes to an idle writer', () => {
    const g = new InputGate<string>(10, 2_000, 100);
    expect(g.offer(batch('x'.repeat(11), true), idle)).toBe('refused');
    expect(g.offer(batch('x'.repeat(11)), idle)).toBe('write');
    expect(g.offer(batch('x'.repeat(10), true), idle)).toBe('write');
  });

  it('never lets what waits plus the backlog pass the cap', () => {
    const g = new InputGate<string>(10, 2_000, 30);
    expect(g.offer(batch('x'.repeat(10)), { pending: 10, stalledMs: 0 })).toBe('held');
    expect(g.offer(batch('x'.repeat(10)), { pending: 10, stalledMs: 0 })).toBe('held');
    expect(g.offer(batch('x'), { pending: 10, stalledMs: 0 })).toBe('refused');
  });

  it('never drops, reorders or truncates what it admitted: a model writer that reads at any pace gets it all', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.string({ minLength: 1, maxLength: 8 }), fc.integer({ min: 0, max: 12 }))), fc.integer({ min: 8, max: 32 }), (ops, limit) => {
        const g = new InputGate<string>(limit, 2_000, limit * 32);
        let pending = 0;
        let admitted = '';
        let written = '';
        const write = (b: InputBatch<string>) => {
          written += b.parts[0].data;
          pending += b.bytes;
        };
        for (const [s, read] of ops) {
          const b = batch(s);
          const verdict = g.offer(b, { pending, stalledMs: 0 });
          expect(verdict).not.toBe('refused');
          admitted += s;
          if (verdict === 'write') write(b);
          pending = Math.max(0, pending - read);
          for (const r of g.release({ pending, stalledMs: 0 })) write(r);
        }
        for (const r of g.release({ pending: 0, stalledMs: 0 })) write(r);
        for (const r of g.release({ pending: 0, stalledMs: 0 })) write(r);
        while (g.heldBytes > 0) for (const r of g.release({ pending: 0, stalledMs: 0 })) write(r);
        expect(written).toBe(admitted);
      }),
    );
  });
});
