// The page paints a tab's surface into xterm.js from patches: a full patch then diffs must leave
// the page's terminal showing exactly the holder's cells (text, colours, attributes, cursor).
import { describe, expect, it } from 'vitest';
import { applyPatch, patchToAnsi, sgrOf } from '../../src/web/page/ansi.js';
import { extractRow, extractSurface } from '../../src/surface/extract.js';
import { ModeTracker } from '../../src/surface/modes.js';
import { Attr, DEFAULT_MODES, RGB_FLAG, UnderlineStyle, underlineStyleOf, withUnderlineStyle, type Row, type SurfacePatch } from '../../src/surface/types.js';
import { cursorOf, makeTerminal, readCells, write, type XTerm } from '../surface/headless.js';

function patch(full: boolean, lines: Row[], over: Partial<SurfacePatch> = {}): SurfacePatch {
  return {
    full,
    cols: 20,
    rows: 5,
    lines,
    cursor: { x: 0, y: 0, visible: true, shape: 'block', blink: false },
    modes: { ...DEFAULT_MODES },
    title: '',
    ...over,
  };
}

function paint(term: XTerm, p: SurfacePatch): Promise<void> {
  return new Promise((resolve) => applyPatch(term, p, resolve));
}

function rowText(term: XTerm, y: number): string {
  return term.buffer.active.getLine(term.buffer.active.viewportY + y)!.translateToString(true);
}

describe('patchToAnsi', () => {
  it('a full patch then a diff reproduce rows, colours and attributes in a headless xterm', async () => {
    // The page's terminal starts at another size, with stale text, as after viewing another tab.
    const page = makeTerminal(30, 8, 0);
    await write(page, 'stale text everywhere\r\nmore stale');
    const full = patch(true, [
      { y: 0, runs: [{ s: '$ ls', fg: -1, bg: -1, fl: Attr.bold }] },
      { y: 1, runs: [{ s: 'red', fg: 1, bg: -1, fl: 0 }, { s: ' ', fg: -1, bg: -1, fl: 0 }, { s: 'rgb', fg: RGB_FLAG | 0x112233, bg: 200, fl: Attr.italic | Attr.underline }] },
      { y: 2, runs: [{ s: '界', fg: -1, bg: -1, fl: 0, w: 2 }, { s: 'x', fg: -1, bg: RGB_FLAG | 0xff0000, fl: Attr.inverse | Attr.strikethrough }] },
      { y: 3, runs: [{ s: 'dim', fg: 8, bg: -1, fl: Attr.dim | Attr.overline | Attr.blink }] },
      { y: 4, runs: [] },
    ], { cursor: { x: 4, y: 0, visible: true, shape: 'bar', blink: true } });
    await paint(page, full);
    expect([page.cols, page.rows]).toEqual([20, 5]);
    expect([0, 1, 2, 3, 4].map((y) => rowText(page, y))).toEqual(['$ ls', 'red rgb', '界x', 'dim', '']);
    const cells = readCells(page);
    expect(cells[0][0]).toMatchObject({ ch: '$', fg: 'default', bg: 'default', flags: 'bold' });
    expect(cells[1][0]).toMatchObject({ ch: 'r', fg: 'p1', bg: 'default', flags: '' });
    expect(cells[1][4]).toMatchObject({ ch: 'r', fg: `rgb${0x112233}`, bg: 'p200', flags: 'italic,underline' });
    expect(cells[2][0]).toMatchObject({ ch: '界', w: 2 });
    expect(cells[2][2]).toMatchObject({ ch: 'x', bg: `rgb${0xff0000}`, flags: 'inverse,strike' });
    expect(cells[3][0]).toMatchObject({ ch: 'd', fg: 'p8', flags: 'dim,blink,overline' });
    // The pen never leaks past a row's text.
    expect(cells[1][7]).toMatchObject({ ch: ' ', fg: 'default', bg: 'default', flags: '' });
    expect(cursorOf(page)).toEqual({ x: 4, y: 0 });

    // A diff rewrites only its rows: row 1 shrinks (its old tail is erased), row 3 is untouched.
    const diff = patch(false, [
      { y: 1, runs: [{ s: 'ok', fg: 2, bg: -1, fl: 0 }] },
      { y: 4, runs: [{ s: '$ ', fg: -1, bg: -1, fl: 0 }] },
    ], { cursor: { x: 2, y: 4, visible: false, shape: 'block', blink: false } });
    await paint(page, diff);
    expect([0, 1, 2, 3, 4].map((y) => rowText(page, y))).toEqual(['$ ls', 'ok', '界x', 'dim', '$ ']);
    const after = readCells(page);
    expect(after[1][0]).toMatchObject({ ch: 'o', fg: 'p2', flags: '' });
    expect(after[1][4]).toMatchObject({ ch: ' ', fg: 'default', bg: 'default', flags: '' });
    expect(after[3][0]).toMatchObject({ ch: 'd', fg: 'p8', flags: 'dim,blink,overline' });
    expect(cursorOf(page)).toEqual({ x: 2, y: 4 });
  });

  it('a holder terminal and the page agree cell for cell, through a full patch and diffs', async () => {
    const holder = makeTerminal(24, 6, 0);
    const tracker = new ModeTracker(holder);
    const page = makeTerminal(80, 24, 0);
    await write(holder, '\x1b[1;31mbold red\x1b[0m plain\r\n\x1b[38;2;10;20;30;48;5;17mtrue\x1b[0m \x1b[4;3munder\x1b[0m\r\n');
    // A full last column (the pending wrap must not eat the row's last cell), then wide and combined cells.
    await write(holder, `${'0123456789'.repeat(2)}wxyz\x1b[3;1H\r\n中文 e\u0301 \x1b[7mrev\x1b[0m\r\n\x1b[2;9mgone\x1b[0m`);
    await paint(page, extractSurface(holder, tracker, { full: true }));
    expect(readCells(page)).toEqual(readCells(holder));
    expect(cursorOf(page)).toEqual(cursorOf(holder));

    await write(holder, '\x1b[1;1H\x1b[2K\x1b[32mnew first\x1b[0m\x1b[5;3H\x1b[44m  \x1b[0m');
    await paint(page, extractSurface(holder, tracker, { full: false, rows: [0, 4] }));
    expect(readCells(page)).toEqual(readCells(holder));
    expect(cursorOf(page)).toEqual(cursorOf(holder));
  });

  it('carries underline styles and colours to the page, which xterm.js draws', async () => {
    const holder = makeTerminal(30, 2, 0);
    const tracker = new ModeTracker(holder);
    const page = makeTerminal(30, 2, 0);
    await write(holder, '\x1b[4:3mcurly\x1b[58:2::255:0:0mred\x1b[0m \x1b[4:2;58;5;9mdbl\x1b[4:4;59mdot\x1b[4:5mdash\x1b[4mone\x1b[0m');
    await paint(page, extractSurface(holder, tracker, { full: true }));
    expect(extractRow(page, 0)).toEqual(extractRow(holder, 0));
    expect(extractRow(page, 0).runs.map((r) => [underlineStyleOf(r.fl), r.uc])).toEqual([
      [UnderlineStyle.curly, undefined],
      [UnderlineStyle.curly, RGB_FLAG | 0xff0000],
      [0, undefined],
      [UnderlineStyle.double, 9],
      [UnderlineStyle.dotted, undefined],
      [UnderlineStyle.dashed, undefined],
      [UnderlineStyle.single, undefined],
    ]);
    expect(sgrOf({ fg: -1, bg: -1, fl: withUnderlineStyle(Attr.underline, UnderlineStyle.curly), uc: RGB_FLAG | 0xff0000 })).toBe('\x1b[0;4;4:3;58:2::255:0:0m');
  });

  it('resizes the terminal to the patch before painting', async () => {
    const page = makeTerminal(10, 3, 0);
    await paint(page, patch(true, [{ y: 0, runs: [{ s: 'x'.repeat(20), fg: -1, bg: -1, fl: 0 }] }]));
    expect([page.cols, page.rows]).toEqual([20, 5]);
    expect(rowText(page, 0)).toBe('x'.repeat(20));
    expect(rowText(page, 1)).toBe('');
  });

  it('never writes a control character from a cell, and says where the cursor is and how it looks', () => {
    const out = patchToAnsi(patch(false, [{ y: 2, runs: [{ s: 'a\x1b[2Jb\x07', fg: -1, bg: -1, fl: 0 }] }], {
      cursor: { x: 3, y: 2, visible: false, shape: 'underline', blink: true },
    }));
    expect(out).toBe('\x1b[3;1H\x1b[0ma [2Jb \x1b[0m\x1b[K\x1b[3;4H\x1b[?25l\x1b[3 q');
    expect(patchToAnsi(patch(true, [], { cursor: { x: 0, y: 0, visible: true, shape: 'block', blink: false, defaultStyle: true } })))
      .toBe('\x1b[0m\x1b[H\x1b[2J\x1b[1;1H\x1b[?25h\x1b[0 q');
  });

  it('SGR: palette, truecolour and every flag', () => {
    expect(sgrOf({ fg: -1, bg: -1, fl: 0 })).toBe('\x1b[0m');
    expect(sgrOf({ fg: 196, bg: RGB_FLAG | 0x0a0b0c, fl: Attr.bold | Attr.overline })).toBe('\x1b[0;1;53;38;5;196;48;2;10;11;12m');
    expect(sgrOf({ fg: -1, bg: -1, fl: 511 })).toBe('\x1b[0;1;2;3;4;5;7;8;9;53m');
  });
});
