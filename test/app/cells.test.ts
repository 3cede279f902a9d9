import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BLANK, CellGrid, MAX_GRID_SIDE } from '../../src/app/cells.js';

const text = (g: CellGrid, y: number): string => Array.from({ length: g.cols }, (_, x) => g.ch[g.index(x, y)] || '·').join('');
const widths = (g: CellGrid, y: number): string => Array.from({ length: g.cols }, (_, x) => g.width[g.index(x, y)]).join('');

/** Every wide cell is followed by its continuation, and every continuation follows a wide cell. */
function wideInvariantHolds(g: CellGrid): boolean {
  for (let y = 0; y < g.rows; y++) {
    for (let x = 0; x < g.cols; x++) {
      const w = g.width[g.index(x, y)];
      if (w === 2 && (x + 1 >= g.cols || g.width[g.index(x + 1, y)] !== 0)) return false;
      if (w === 0 && (x === 0 || g.width[g.index(x - 1, y)] !== 2)) return false;
    }
  }
  return true;
}

describe('CellGrid', () => {
  it('starts blank and reads back what is set', () => {
    const g = new CellGrid(4, 2);
    expect(g.get(3, 1)).toEqual(BLANK);
    g.set(1, 0, { ch: 'x', fg: 3, bg: 0x1000000 | 0xabcdef, fl: 5, w: 1, link: 'http://l' });
    expect(g.get(1, 0)).toEqual({ ch: 'x', fg: 3, bg: 0x1abcdef, fl: 5, w: 1, link: 'http://l' });
  });

  it('keeps an underline colour through set, wide cells, blit, copyRow, resize and clears, and compares it', () => {
    const g = new CellGrid(4, 2);
    const curlyRed = { ...BLANK, ch: '中', fl: 8 | (3 << 9), w: 2 as const, uc: 0x1ff0000 };
    g.set(0, 0, curlyRed);
    expect(g.get(0, 0)).toEqual(curlyRed);
    expect(g.uc[g.index(1, 0)]).toBe(0x1ff0000);
    const other = new CellGrid(4, 2);
    other.blit(g, 0, 0, 2, 1, 0, 1);
    expect(other.get(0, 1)).toEqual(curlyRed);
    expect(other.sameCell(other.index(0, 1), g, 0)).toBe(true);
    other.uc[other.index(0, 1)] = 9;
    expect(other.sameCell(other.index(0, 1), g, 0)).toBe(false);
    other.copyRow(g, 0);
    expect(other.get(0, 0)).toEqual(curlyRed);
    g.resize(3, 1);
    expect(g.get(0, 0)).toEqual(curlyRed);
    g.clearSpan(0, 0, 3);
    expect(g.get(0, 0)).toEqual(BLANK);
    other.clear();
    expect(other.get(0, 0)).toEqual(BLANK);
  });

  it('gives a wide cell a continuation, and blanks the other half of a wide cell that is overwritten', () => {
    const g = new CellGrid(6, 1);
    g.set(1, 0, { ...BLANK, ch: '中', w: 2 });
    expect([text(g, 0), widths(g, 0)]).toEqual([' 中·   ', '120111']);
    g.set(2, 0, { ...BLANK, ch: 'a', w: 1 });
    expect([text(g, 0), widths(g, 0)]).toEqual(['  a   ', '111111']);
    g.set(3, 0, { ...BLANK, ch: '文', w: 2 });
    g.set(2, 0, { ...BLANK, ch: '字', w: 2 });
    expect([text(g, 0), widths(g, 0)]).toEqual(['  字·  ', '112011']);
  });

  it('turns a wide cell that does not fit before the right edge into a blank', () => {
    const g = new CellGrid(3, 1);
    g.set(2, 0, { ...BLANK, ch: '中', w: 2, bg: 4 });
    expect(g.get(2, 0)).toEqual({ ...BLANK, bg: 4 });
  });

  it('ignores writes outside the grid and continuation cells handed to set', () => {
    const g = new CellGrid(2, 2);
    g.set(-1, 0, { ...BLANK, ch: 'x' });
    g.set(2, 0, { ...BLANK, ch: 'x' });
    g.set(0, 2, { ...BLANK, ch: 'x' });
    g.set(0, 0, { ...BLANK, ch: '', w: 0 });
    expect([text(g, 0), text(g, 1)]).toEqual(['  ', '  ']);
  });

  it('keeps the shared cells on resize and never leaves a wide cell cut at the new edge', () => {
    const g = new CellGrid(5, 2);
    g.set(0, 0, { ...BLANK, ch: 'a' });
    g.set(2, 0, { ...BLANK, ch: '中', w: 2 });
    g.set(0, 1, { ...BLANK, ch: 'z' });
    g.resize(3, 1);
    expect([text(g, 0), widths(g, 0)]).toEqual(['a  ', '111']);
    g.resize(4, 3);
    expect([text(g, 0), text(g, 1), text(g, 2)]).toEqual(['a   ', '    ', '    ']);
  });

  it('refuses nonsensical sizes with a RangeError', () => {
    expect(() => new CellGrid(-1, 2)).toThrow(RangeError);
    expect(() => new CellGrid(2, 1.5)).toThrow(RangeError);
    expect(() => new CellGrid(MAX_GRID_SIDE + 1, 1)).toThrow(RangeError);
    expect(new CellGrid(0, 0).cols).toBe(0);
  });

  it('blits a region, blanking wide cells its edges cut', () => {
    const src = new CellGrid(6, 1);
    src.set(0, 0, { ...BLANK, ch: '中', w: 2 });
    src.set(2, 0, { ...BLANK, ch: 'b' });
    src.set(3, 0, { ...BLANK, ch: '文', w: 2, fg: 2 });
    const dst = new CellGrid(6, 2);
    dst.blit(src, 1, 0, 3, 1, 0, 1);
    expect(text(dst, 1)).toEqual(' b    ');
    expect(dst.get(2, 1)).toEqual({ ...BLANK, fg: 2 });
    dst.blit(src, 0, 0, 6, 1, 2, 0);
    expect([text(dst, 0), widths(dst, 0)]).toEqual(['  中·b ', '112011']);
  });

  it('clears spans and compares cells across grids', () => {
    const a = new CellGrid(4, 1);
    const b = new CellGrid(4, 1);
    a.set(1, 0, { ...BLANK, ch: '中', w: 2 });
    expect(a.sameCell(0, b, 0)).toBe(true);
    expect(a.sameCell(1, b, 1)).toBe(false);
    a.clearSpan(2, 0, 9);
    expect([text(a, 0), widths(a, 0)]).toEqual(['    ', '1111']);
    for (let i = 0; i < 4; i++) expect(a.sameCell(i, b, i)).toBe(true);
  });

  it('keeps the wide-cell invariant under any sequence of writes, blits and resizes', () => {
    const op = fc.oneof(
      fc.record({ k: fc.constant('put' as const), x: fc.integer({ min: -1, max: 8 }), y: fc.integer({ min: 0, max: 3 }), w: fc.constantFrom(1 as const, 2 as const) }),
      fc.record({ k: fc.constant('blit' as const), sx: fc.integer({ min: -1, max: 6 }), w: fc.integer({ min: 0, max: 8 }), dx: fc.integer({ min: -2, max: 7 }) }),
      fc.record({ k: fc.constant('resize' as const), cols: fc.integer({ min: 1, max: 8 }), rows: fc.integer({ min: 1, max: 4 }) }),
      fc.record({ k: fc.constant('clear' as const), x: fc.integer({ min: -1, max: 8 }), w: fc.integer({ min: 0, max: 4 }) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), (ops) => {
        const g = new CellGrid(7, 3);
        const other = new CellGrid(7, 3);
        for (const o of ops) {
          if (o.k === 'put') {
            g.put(o.x, o.y, o.w === 2 ? '中' : 'a', -1, -1, 0, o.w);
            other.put(o.x, o.y % 3, o.w === 2 ? '字' : 'b', 1, -1, 0, o.w);
          } else if (o.k === 'blit') g.blit(other, o.sx, 0, o.w, 3, o.dx, 0);
          else if (o.k === 'resize') g.resize(o.cols, o.rows);
          else g.clearSpan(o.x, 0, o.w);
          if (!wideInvariantHolds(g)) return false;
        }
        return true;
      }),
    );
  });
});
