import { describe, expect, it } from 'vitest';
import { copyModeStep, startCopyMode, type CopyModeState } from '../../../src/app/copyMode/state.js';
import { copyModeIndicator, copyModePatch } from '../../../src/app/copyMode/view.js';
import { Attr, UnderlineStyle, withUnderlineStyle, type Row, type Run } from '../../../src/surface/types.js';

const plain = (s: string, extra: Partial<Run> = {}): Run => ({ s, fg: -1, bg: -1, fl: 0, ...extra });

/** Copy mode over `lines` (all loaded), `height` rows tall, `cols` wide. */
function opened(lines: Row['runs'][], height: number, cols = 10): CopyModeState {
  let { state } = startCopyMode({ total: lines.length, cols, height, dropped: 0 });
  const rows = lines.map((runs, y) => ({ y, runs }));
  state = copyModeStep(state, { kind: 'page', page: { total: lines.length, from: 0, lines: rows, wrapped: [], dropped: 0 } }).state;
  return state;
}

const key = (s: string) => ({ kind: 'key' as const, event: { k: 'text' as const, s } });

/** Each cell of a patch row as [text, fg, bg, fl]. */
function cellsOf(row: Row): [string, number, number, number][] {
  return row.runs.flatMap((r) => (r.w === undefined ? [...r.s].map((ch) => [ch, r.fg, r.bg, r.fl] as [string, number, number, number]) : [[r.s, r.fg, r.bg, r.fl] as [string, number, number, number]]));
}

describe('copyModePatch', () => {
  it('shows the lines in view as a full surface with the cursor on copy mode\'s cursor', () => {
    const state = opened([[plain('one')], [plain('two')], [plain('three')], [plain('four')]], 2);
    const patch = copyModePatch(state);
    expect(patch).toMatchObject({ full: true, cols: 10, rows: 2, cursor: { x: 0, y: 1, visible: true } });
    expect(patch.lines.map((r) => cellsOf(r).map((c) => c[0]).join('').trimEnd())).toEqual(['three', 'four']);
    const up = copyModeStep(state, key('k')).state;
    expect(copyModePatch(up).cursor).toMatchObject({ x: 0, y: 0 });
  });

  it('keeps colours, links and wide cells, inverts the selection and marks matches', () => {
    let state = opened([[plain('ab', { fg: 1, link: 'http://x' }), plain('中', { w: 2 }), plain('cd')]], 1, 8);
    state = copyModeStep(state, key('l')).state; // on b
    state = copyModeStep(state, key('v')).state;
    state = copyModeStep(state, key('l')).state; // on 中
    state = { ...state, search: { text: 'cd', direction: 'forward', matches: [{ line: 0, col: 4, len: 2 }], truncated: false, waiting: false } };
    const row = copyModePatch(state).lines[0];
    const cells = cellsOf(row);
    expect(cells.slice(0, 5)).toEqual([
      ['a', 1, -1, 0],
      ['b', 1, -1, Attr.inverse],
      ['中', -1, -1, Attr.inverse],
      ['c', 0, 3, 0],
      ['d', 0, 3, 0],
    ]);
    expect(row.runs[0].link).toBe('http://x');
    expect(row.runs[2]).toMatchObject({ s: '中', w: 2 });
  });

  it('keeps underline styles and colours on a line it highlights', () => {
    const curly = withUnderlineStyle(Attr.underline, UnderlineStyle.curly);
    let state = opened([[plain('ab', { fl: curly, uc: 9 }), plain('c', { fl: curly, uc: 200 })]], 1, 8);
    state = copyModeStep(state, key('v')).state; // selects a
    const runs = copyModePatch(state).lines[0].runs;
    expect(runs.slice(0, 3)).toEqual([
      plain('a', { fl: curly | Attr.inverse, uc: 9 }),
      plain('b', { fl: curly, uc: 9 }),
      plain('c', { fl: curly, uc: 200 }),
    ]);
  });

  it('leaves rows that are not loaded blank', () => {
    const { state } = startCopyMode({ total: 50, cols: 10, height: 3, dropped: 0 });
    expect(copyModePatch(state).lines.every((r) => r.runs.length === 0)).toBe(true);
  });
});

describe('copyModeIndicator', () => {
  it('says where the cursor is, the search typed or found, and how to leave', () => {
    const state = opened([[plain('x')], [plain('y')]], 2);
    expect(copyModeIndicator(state)).toBe('copy · line 2 of 2 · q leaves');
    const typing = copyModeStep(copyModeStep(state, key('/')).state, key('y')).state;
    expect(copyModeIndicator(typing)).toBe('/y');
    const searching = copyModeStep(typing, { kind: 'key', event: { k: 'key', key: 'enter' } }).state;
    expect(copyModeIndicator(searching)).toBe('copy · line 2 of 2 · searching… · q leaves');
    const found = copyModeStep(searching, { kind: 'searchResult', total: 2, matches: [{ line: 1, col: 0, len: 1 }], truncated: false, dropped: 0 }).state;
    expect(copyModeIndicator(found)).toBe('copy · line 2 of 2 · match 1 of 1 · q leaves');
  });
});
