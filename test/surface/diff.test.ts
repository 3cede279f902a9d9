import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { changedRows, composePatches, cursorsEqual, modesEqual, rowsEqual } from '../../src/surface/diff.js';
import { Attr, UnderlineStyle, withUnderlineStyle, type Cursor, type Row, type SurfacePatch } from '../../src/surface/types.js';
import { LEGACY_MODES as modes } from '../helpers/modes.js';

const cursor: Cursor = { x: 0, y: 0, visible: true, shape: 'block', blink: false };

const row = (y: number, s: string, extra: object = {}): Row => ({ y, runs: s === '' ? [] : [{ s, fg: -1, bg: -1, fl: 0, ...extra }] });

function patch(full: boolean, lines: Row[], over: Partial<SurfacePatch> = {}): SurfacePatch {
  return { full, cols: 10, rows: 4, lines, cursor, modes, title: '', ...over };
}

describe('rowsEqual and changedRows', () => {
  it('compares every run field', () => {
    expect(rowsEqual(row(0, 'a'), row(5, 'a'))).toBe(true);
    for (const extra of [{ fg: 1 }, { bg: 2 }, { fl: 1 }, { link: 'x' }, { w: 1 }]) expect(rowsEqual(row(0, 'a'), row(0, 'a', extra))).toBe(false);
    expect(rowsEqual(row(0, 'a'), row(0, 'b'))).toBe(false);
    expect(rowsEqual(row(0, 'a'), { y: 0, runs: [...row(0, 'a').runs, ...row(0, 'b').runs] })).toBe(false);
  });

  it('tells rows apart by their underline style and colour alone', () => {
    const curly = { fl: withUnderlineStyle(Attr.underline, UnderlineStyle.curly) };
    const dotted = { fl: withUnderlineStyle(Attr.underline, UnderlineStyle.dotted) };
    expect(rowsEqual(row(0, 'a', curly), row(0, 'a', dotted))).toBe(false);
    expect(rowsEqual(row(0, 'a', { ...curly, uc: 1 }), row(0, 'a', { ...curly, uc: 2 }))).toBe(false);
    expect(rowsEqual(row(0, 'a', curly), row(0, 'a', { ...curly, uc: 2 }))).toBe(false);
    expect(changedRows([row(0, 'a', curly), row(1, 'b', curly)], [row(0, 'a', curly), row(1, 'b', { ...curly, uc: 9 })])).toEqual([1]);
  });

  it('lists the rows that differ, or all of them without a comparable previous frame', () => {
    const prev = [row(0, 'a'), row(1, 'b'), row(2, 'c')];
    expect(changedRows(prev, [row(0, 'a'), row(1, 'B'), row(2, 'c')])).toEqual([1]);
    expect(changedRows(prev, prev)).toEqual([]);
    expect(changedRows(null, prev)).toEqual([0, 1, 2]);
    expect(changedRows(prev, [row(0, 'a'), row(1, 'b')])).toEqual([0, 1]);
  });
});

describe('cursorsEqual and modesEqual', () => {
  it('notice any field', () => {
    expect(cursorsEqual(cursor, { ...cursor })).toBe(true);
    expect(cursorsEqual(cursor, { ...cursor, defaultStyle: false })).toBe(true);
    for (const c of [{ x: 1 }, { y: 1 }, { visible: false }, { shape: 'bar' as const }, { blink: true }, { defaultStyle: true }]) {
      expect(cursorsEqual(cursor, { ...cursor, ...c })).toBe(false);
    }
    expect(modesEqual(modes, { ...modes })).toBe(true);
    for (const m of [{ appCursor: true }, { appKeypad: true }, { bracketedPaste: true }, { mouse: 'any' as const }, { mouseEncoding: 'sgr' as const }, { focus: true }, { altScreen: true }, { kittyFlags: 1 }]) {
      expect(modesEqual(modes, { ...modes, ...m })).toBe(false);
    }
  });
});

describe('composePatches', () => {
  it('overwrites rows, newest wins, and takes the meta from the newer', () => {
    const older = patch(false, [row(0, 'a'), row(2, 'c')], { title: 'old' });
    const newer = patch(false, [row(2, 'C'), row(1, 'b')], { title: 'new', cursor: { ...cursor, x: 3 } });
    const out = composePatches(older, newer);
    expect(out.full).toBe(false);
    expect(out.lines).toEqual([row(0, 'a'), row(1, 'b'), row(2, 'C')]);
    expect([out.title, out.cursor.x]).toEqual(['new', 3]);
  });

  it('lets a newer full surface win and keeps an older full one full', () => {
    const full = patch(true, [row(0, 'a'), row(1, 'b'), row(2, 'c'), row(3, 'd')]);
    const diff = patch(false, [row(1, 'B')]);
    expect(composePatches(diff, full)).toBe(full);
    const out = composePatches(full, diff);
    expect(out.full).toBe(true);
    expect(out.lines.map((l) => l.runs[0].s)).toEqual(['a', 'B', 'c', 'd']);
  });

  it('drops older rows that a smaller newer size cannot hold', () => {
    const full = patch(true, [row(0, 'a'), row(1, 'b'), row(2, 'c'), row(3, 'd')]);
    const out = composePatches(full, patch(false, [row(0, 'A')], { rows: 2 }));
    expect(out.full).toBe(false);
    expect(out.lines.map((l) => l.y)).toEqual([0, 1]);
  });

  it('has the effect of applying the patches one after the other', () => {
    const rows = 4;
    const arbRow = fc.record({ y: fc.integer({ min: 0, max: rows - 1 }), s: fc.string({ maxLength: 3 }) }).map(({ y, s }) => row(y, s));
    const arbPatch = fc.record({ full: fc.boolean(), lines: fc.array(arbRow, { maxLength: 6 }), title: fc.string({ maxLength: 2 }) }).map(({ full, lines, title }) => {
      if (!full) return patch(false, dedupe(lines), { title });
      const byY = new Map(lines.map((l) => [l.y, l]));
      return patch(true, Array.from({ length: rows }, (_, y) => byY.get(y) ?? row(y, '')), { title });
    });
    fc.assert(
      fc.property(fc.array(arbPatch, { minLength: 1, maxLength: 6 }), (patches) => {
        const start = Array.from({ length: rows }, (_, y) => row(y, 'start'));
        const sequential = patches.reduce(apply, start);
        const composed = patches.reduce((a, b) => composePatches(a, b));
        expect(apply(start, composed)).toEqual(sequential);
        expect(composed.title).toBe(patches[patches.length - 1].title);
      }),
    );
  });
});

/** A client's surface as rows: a full patch replaces it, a diff overwrites its rows. */
function apply(screen: Row[], p: SurfacePatch): Row[] {
  const next = p.full ? Array.from({ length: p.rows }, (_, y) => row(y, '')) : [...screen];
  for (const l of p.lines) next[l.y] = l;
  return next;
}

function dedupe(lines: Row[]): Row[] {
  return [...new Map(lines.map((l) => [l.y, l])).values()];
}
