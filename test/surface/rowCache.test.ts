import { describe, expect, it } from 'vitest';
import { RowCache } from '../../src/surface/rowCache.js';
import { extractRow } from '../../src/surface/extract.js';
import { watchDirtyRows, writeNow } from '../../src/surface/feed.js';
import { makeTerminal } from './headless.js';

const text = (rows: { runs: { s: string }[] }[]) => rows.map((r) => r.runs.map((x) => x.s).join(''));

describe('RowCache', () => {
  it('re-extracts only marked rows and keeps the others as the same objects', () => {
    const reads: number[] = [];
    const cache = new RowCache((y) => {
      reads.push(y);
      return { y, runs: [] };
    });
    const first = cache.current(3);
    expect(reads).toEqual([0, 1, 2]);
    cache.mark(1, 5);
    const second = cache.current(3);
    expect(reads).toEqual([0, 1, 2, 1, 2]);
    expect(second[0]).toBe(first[0]);
    expect(second[1]).not.toBe(first[1]);
    expect(second).not.toBe(first);
  });

  it('matches a full extraction while a real terminal prints, scrolls and switches screens', () => {
    const term = makeTerminal(20, 5, 10);
    const cache = new RowCache((y) => extractRow(term, y));
    const watch = watchDirtyRows(term, (r) => (r ? cache.mark(r.start, r.end) : cache.markAll()));
    expect(watch).not.toBeNull();
    const steps = ['a\r\nb\r\nc', '\x1b[2;3Hxy', ...Array.from({ length: 12 }, (_, i) => `\r\nline ${i}`), '\x1b[?1049h\x1b[3;1Halt', '\x1b[?1049l', '\x1b[2J\x1b[Hz', '\x1b[2;4r\x1b[4;1H\n\n'];
    for (const step of steps) {
      writeNow(term, step);
      expect(text(cache.current(5))).toEqual(text(Array.from({ length: 5 }, (_, y) => extractRow(term, y))));
    }
  });
});
