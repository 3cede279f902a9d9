import { describe, expect, it } from 'vitest';
import { RowCache } from '../../src/surface/rowCache.js';
import { extractRow, rowWords } from '../../src/surface/extract.js';
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

  it.each([
    ['by reported rows', false],
    ['by reported rows and their words', true],
  ])('matches a full extraction while a real terminal prints, scrolls and switches screens (%s)', (_, byWords) => {
    const term = makeTerminal(20, 5, 10);
    const cache = new RowCache((y) => extractRow(term, y), true, byWords ? (y) => rowWords(term, y) : undefined);
    const watch = watchDirtyRows(term, (r) => (r ? cache.mark(r.start, r.end) : cache.markAll()));
    expect(watch).not.toBeNull();
    const steps = ['a\r\nb\r\nc', '\x1b[2;3Hxy', ...Array.from({ length: 12 }, (_, i) => `\r\nline ${i}`), '\x1b[?1049h\x1b[3;1Halt', '\x1b[?1049l', '\x1b[2J\x1b[Hz', '\x1b[2;4r\x1b[4;1H\n\n', '\x1b[r\x1b[H\x1b[1mz\x1b[m', '\x1b[3;1H\u4e2d\x1b[5;1He\u0301', '\x1b[3;1Hab'];
    for (const step of steps) {
      writeNow(term, step);
      expect(text(cache.current(5))).toEqual(text(Array.from({ length: 5 }, (_, y) => extractRow(term, y))));
    }
  });

  it('keeps a row reported changed whose cells did not change, as a cursor-hopping echo reports them', () => {
    const term = makeTerminal(20, 5, 10);
    const reads: number[] = [];
    const cache = new RowCache((y) => {
      reads.push(y);
      return extractRow(term, y);
    }, true, (y) => rowWords(term, y));
    watchDirtyRows(term, (r) => (r ? cache.mark(r.start, r.end) : cache.markAll()));
    writeNow(term, 'top\r\nmiddle\r\n\x1b]8;;https://a1.example\x07link\x1b]8;;\x07\r\ne\u0301\r\n> ');
    const first = cache.current(5);
    reads.length = 0;
    // Home, down to the prompt, one key, then back: every row from 0 to 4 is reported.
    writeNow(term, '\x1b[H\x1b[4B\x1b[2Cx\x1b[1;1H\x1b[5;4H');
    const second = cache.current(5);
    expect(text(second)).toEqual(text(Array.from({ length: 5 }, (_, y) => extractRow(term, y))));
    expect(text(second)[4]).toBe('> x');
    // Rows 0 and 1 kept as they were; the link's row and the cluster's row are always read again
    // (their words alone do not decide them), and the prompt's row changed.
    expect(second[0]).toBe(first[0]);
    expect(second[1]).toBe(first[1]);
    expect(reads).toEqual([2, 3, 4]);
  });

  it('reads a row again when only its colours changed', () => {
    const term = makeTerminal(20, 3, 10);
    const cache = new RowCache((y) => extractRow(term, y), true, (y) => rowWords(term, y));
    watchDirtyRows(term, (r) => (r ? cache.mark(r.start, r.end) : cache.markAll()));
    writeNow(term, 'abc');
    const first = cache.current(3);
    writeNow(term, '\x1b[1;1H\x1b[31mabc\x1b[m');
    const second = cache.current(3);
    expect(second[0]).not.toBe(first[0]);
    expect(second[0]).toEqual(extractRow(term, 0));
  });
});
