import { afterEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DroppedLines, HISTORY_PAGE_MAX_LINES, readHistoryPage, scanLines, searchBuffer, type TextHit } from '../../src/holder/history.js';
import { extractBufferLine, extractRow } from '../../src/surface/extract.js';
import type { Row } from '../../src/surface/types.js';
import { makeTerminal, write, type XTerm } from '../surface/headless.js';

const open: XTerm[] = [];

function term(cols = 20, rows = 5, scrollback = 1000): XTerm {
  const t = makeTerminal(cols, rows, scrollback);
  open.push(t);
  return t;
}

afterEach(() => {
  for (const t of open.splice(0)) t.dispose();
});

const textOf = (row: Row) => row.runs.map((r) => r.s).join('');
const numbered = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `line ${from + i}`).join('\r\n');

describe('readHistoryPage', () => {
  it('returns lines by buffer index, 0 being the oldest scrollback line', async () => {
    const t = term();
    await write(t, numbered(50));
    const total = t.buffer.active.length;
    expect(total).toBe(50);
    const page = readHistoryPage(t, 10, 5);
    expect(page).toMatchObject({ total, from: 10, wrapped: [], alt: false });
    expect(page.lines.map((r) => r.y)).toEqual([10, 11, 12, 13, 14]);
    expect(page.lines.map(textOf)).toEqual(['line 10', 'line 11', 'line 12', 'line 13', 'line 14']);
    expect(readHistoryPage(t, 0, 1).lines.map(textOf)).toEqual(['line 0']);
  });

  it('clamps the range to the buffer and the count to the page cap', async () => {
    const t = term(20, 5, 1000);
    await write(t, numbered(600));
    expect(readHistoryPage(t, 0, 10_000).lines).toHaveLength(HISTORY_PAGE_MAX_LINES);
    const tail = readHistoryPage(t, 595, 50);
    expect(tail.lines.map(textOf)).toEqual(['line 595', 'line 596', 'line 597', 'line 598', 'line 599']);
    expect(readHistoryPage(t, 700, 5)).toMatchObject({ from: 600, lines: [] });
    expect(readHistoryPage(t, -3, 2).lines.map(textOf)).toEqual(['line 0', 'line 1']);
    expect(readHistoryPage(t, 3, -2).lines).toEqual([]);
    expect(readHistoryPage(t, Number.NaN, 1).lines.map(textOf)).toEqual(['line 0']);
  });

  it('marks soft-wrapped lines and reads the alternate screen as a page of its own', async () => {
    const t = term(10, 5);
    await write(t, 'abcdefghijKLMNO\r\nnext');
    const page = readHistoryPage(t, 0, 3);
    expect(page.lines.map(textOf)).toEqual(['abcdefghij', 'KLMNO', 'next']);
    expect(page.wrapped).toEqual([1]);
    await write(t, '\x1b[?1049h\x1b[Halt');
    expect(readHistoryPage(t, 0, 10)).toMatchObject({ total: 5, alt: true });
    expect(textOf(readHistoryPage(t, 0, 1).lines[0])).toBe('alt');
  });

  it('reads a buffer line exactly as the viewport row showing it', async () => {
    const t = term(24, 4);
    await write(t, 'older\r\nold\r\n\x1b[1;31mred\x1b[0m 中 e\u0301 \x1b]8;;https://x.test\x07link\x1b]8;;\x07\r\n\x1b[44m  \x1b[0m\r\nlast');
    const top = t.buffer.active.viewportY;
    expect(top).toBe(1);
    for (let y = 0; y < 4; y++) expect(extractBufferLine(t, top + y).runs).toEqual(extractRow(t, y).runs);
    expect(extractBufferLine(t, top + 1).y).toBe(top + 1);
  });
});

/** What a search must find: every (overlapping) occurrence, by brute force. */
function naiveHits(lines: string[], text: string): TextHit[] {
  const hits: TextHit[] = [];
  lines.forEach((s, line) => {
    for (let i = 0; i + text.length <= s.length; i++) if (s.slice(i, i + text.length) === text) hits.push({ line, index: i });
  });
  return hits;
}

describe('scanLines', () => {
  const alphabet = fc.constantFrom('a', 'b', ' ', 'ab');
  const lineArb = fc.array(alphabet, { maxLength: 12 }).map((a) => a.join(''));

  it('finds every occurrence, forward in reading order and backward in reverse', () => {
    fc.assert(
      fc.property(fc.array(lineArb, { maxLength: 30 }), fc.array(fc.constantFrom('a', 'b', ' '), { minLength: 1, maxLength: 3 }), fc.nat(40), (lines, needleParts, fromRaw) => {
        const text = needleParts.join('');
        const all = naiveHits(lines, text);
        const at = (i: number) => lines[i];
        const from = lines.length === 0 ? 0 : fromRaw % lines.length;
        const forward = scanLines(at, lines.length, text, from, 'forward', 1_000_000);
        expect(forward).toEqual({ hits: all.filter((h) => h.line >= from), truncated: false });
        const backward = scanLines(at, lines.length, text, from, 'backward', 1_000_000);
        expect(backward).toEqual({ hits: all.filter((h) => h.line <= from).reverse(), truncated: false });
      }),
    );
  });

  it('stops at the cap and says so', () => {
    const lines = ['aaaa', 'aaaa'];
    expect(scanLines((i) => lines[i], 2, 'a', 0, 'forward', 5)).toEqual({
      hits: [0, 1, 2, 3].map((index) => ({ line: 0, index })).concat([{ line: 1, index: 0 }]),
      truncated: true,
    });
    expect(scanLines((i) => lines[i], 2, 'a', 0, 'forward', 8).truncated).toBe(false);
    expect(scanLines((i) => lines[i], 2, '', 0, 'forward', 8).hits).toEqual([]);
  });
});

describe('searchBuffer', () => {
  it('reports matches in cells, past wide characters and clusters', async () => {
    const t = term(20, 5);
    await write(t, '中中ab e\u0301ab\r\nxx中');
    const { matches, truncated } = searchBuffer(t, 'ab', 'forward');
    expect(truncated).toBe(false);
    expect(matches).toEqual([
      { line: 0, col: 4, len: 2 },
      { line: 0, col: 8, len: 2 },
    ]);
    expect(searchBuffer(t, '中', 'forward').matches).toEqual([
      { line: 0, col: 0, len: 2 },
      { line: 0, col: 2, len: 2 },
      { line: 1, col: 2, len: 2 },
    ]);
    expect(searchBuffer(t, '中', 'backward').matches.map((m) => m.col)).toEqual([2, 2, 0]);
    expect(searchBuffer(t, '中', 'forward', 1).matches).toEqual([{ line: 1, col: 2, len: 2 }]);
    expect(searchBuffer(t, 'AB', 'forward').matches).toEqual([]);
  });

  it('finds a word planted in 10,000 lines, in order', async () => {
    const t = term(80, 24, 10_000);
    const planted = [17, 1234, 5000, 9876];
    const lines = Array.from({ length: 10_000 }, (_, i) => (planted.includes(i) ? `row ${i} needle here` : `row ${i} hay hay hay`));
    await write(t, lines.join('\r\n'));
    const started = performance.now();
    const { matches } = searchBuffer(t, 'needle', 'forward');
    // Printed, never asserted: the bound is measured by `npm run bench`, not by a loaded test machine.
    console.log(`searchBuffer over ${t.buffer.active.length} lines: ${(performance.now() - started).toFixed(1)} ms`);
    const first = Number(textOf(extractBufferLine(t, 0)).split(' ')[1]);
    expect(matches).toEqual(planted.filter((i) => i >= first).map((i) => ({ line: i - first, col: `row ${i} `.length, len: 6 })));
  });
});

describe('DroppedLines', () => {
  it('counts the lines a full scrollback drops, so an earlier line number can be followed', async () => {
    const t = term(20, 5, 10);
    const dropped = new DroppedLines(t);
    await write(t, numbered(12));
    expect(dropped.total).toBe(0);
    await write(t, '\r\n' + numbered(28, 12));
    expect(t.buffer.active.length).toBe(15);
    expect(dropped.total).toBe(25);
    expect(textOf(readHistoryPage(t, 0, 1).lines[0])).toBe(`line ${dropped.total}`);
    // A reset replaces the buffer; counting goes on with the new one.
    await write(t, '\x1bc' + numbered(20, 100));
    expect(textOf(readHistoryPage(t, 0, 1).lines[0])).toBe(`line ${100 + 20 - 15}`);
    expect(dropped.total).toBe(25 + 5);
    dropped.dispose();
  });
});
