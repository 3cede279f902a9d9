import fc from 'fast-check';
import { propertyRuns } from '../helpers/runs.js';
import { afterEach, describe, expect, it } from 'vitest';
import { ansiToCells } from '../../src/app/ansiLayer.js';
import { BLANK, type CellGrid } from '../../src/app/cells.js';
import { Attr, RGB_FLAG } from '../../src/surface/types.js';
import { makeTerminal, readCells, write, type CellView, type XTerm } from '../surface/headless.js';

const text = (g: CellGrid, y: number): string => Array.from({ length: g.cols }, (_, x) => g.ch[g.index(x, y)] || '·').join('');
const widths = (g: CellGrid, y: number): string => Array.from({ length: g.cols }, (_, x) => g.width[g.index(x, y)]).join('');

const terms: XTerm[] = [];
afterEach(() => {
  for (const t of terms.splice(0)) t.dispose();
});

describe('ansiToCells', () => {
  it('lays lines out as rows, padding with blanks and clipping to the size', () => {
    const g = ansiToCells('ab\ncdefgh\nij\nkl', 5, 3);
    expect([text(g, 0), text(g, 1), text(g, 2)]).toEqual(['ab   ', 'cdefg', 'ij   ']);
  });

  it('reads SGR styles and colours', () => {
    const g = ansiToCells(
      '\x1b[1;3;4ma\x1b[22;2mb\x1b[0;7;9;53mc\x1b[27;29;55;5;8md\x1b[0m' +
        '\x1b[31me\x1b[96mf\x1b[38;5;123mg\x1b[38;2;10;20;30mh\x1b[39;44mi\x1b[104mj\x1b[48;5;9mk\x1b[48;2;1;2;3ml\x1b[49mm',
      13,
      1,
    );
    const cells = Array.from({ length: 13 }, (_, x) => g.get(x, 0));
    expect(cells.map((c) => c.fl)).toEqual([
      Attr.bold | Attr.italic | Attr.underline,
      Attr.dim | Attr.italic | Attr.underline,
      Attr.inverse | Attr.strikethrough | Attr.overline,
      Attr.blink | Attr.invisible,
      0, 0, 0, 0, 0, 0, 0, 0, 0,
    ]);
    expect(cells.map((c) => c.fg)).toEqual([-1, -1, -1, -1, 1, 14, 123, RGB_FLAG | 0x0a141e, -1, -1, -1, -1, -1]);
    expect(cells.map((c) => c.bg)).toEqual([-1, -1, -1, -1, -1, -1, -1, -1, 4, 12, 9, RGB_FLAG | 0x010203, -1]);
  });

  it('reads colon sub-parameters and ignores malformed colours', () => {
    const g = ansiToCells('\x1b[4:3;38:2::1:2:3ma\x1b[4:0;48:5:200mb\x1b[38;5;999mc\x1b[38;7md\x1b[;1me', 5, 1);
    expect(g.get(0, 0)).toMatchObject({ fl: Attr.underline, fg: RGB_FLAG | 0x010203 });
    expect(g.get(1, 0)).toMatchObject({ fl: 0, bg: 200 });
    expect(g.get(2, 0).fg).toBe(RGB_FLAG | 0x010203);
    expect(g.get(3, 0).fg).toBe(RGB_FLAG | 0x010203);
    expect(g.get(4, 0)).toMatchObject({ fl: Attr.bold, fg: -1, bg: -1 });
  });

  it('keeps styles across lines, as a terminal would', () => {
    const g = ansiToCells('\x1b[32ma\nb\x1b[0m\nc', 2, 2);
    expect([g.get(0, 0).fg, g.get(0, 1).fg]).toEqual([2, 2]);
    const h = ansiToCells('x\n\x1b[33m\ny', 2, 1);
    expect(h.get(0, 0).fg).toBe(-1);
  });

  it('measures CJK, emoji and combining marks per grapheme', () => {
    const g = ansiToCells('中a👍e\u0301\u{1F468}\u200d\u{1F469}\u200d\u{1F467}|\u{1F1FA}\u{1F1F8}', 12, 1);
    expect(text(g, 0)).toBe('中·a👍·e\u0301\u{1F468}\u200d\u{1F469}\u200d\u{1F467}·|\u{1F1FA}\u{1F1F8}· ');
    expect(widths(g, 0)).toBe('201201201201');
  });

  it('blanks a wide character that would straddle the right edge and drops zero-width strays', () => {
    const g = ansiToCells('abc中\n\u200bx', 4, 2);
    expect([text(g, 0), widths(g, 0)]).toEqual(['abc ', '1111']);
    expect(text(g, 1)).toBe('x   ');
  });

  it('carries OSC 8 links, closed by an empty target', () => {
    const g = ansiToCells('\x1b]8;;http://a\x1b\\ab\x1b]8;;\x1b\\c\x1b]8;id=2;http://b\x07d\x1b]8;;\x07', 4, 1);
    expect([0, 1, 2, 3].map((x) => g.get(x, 0).link)).toEqual(['http://a', 'http://a', undefined, 'http://b']);
  });

  it('drops other escapes and controls, and expands tabs', () => {
    const g = ansiToCells('\x1b[2Ka\x1b7\x1b]0;title\x07b\r\x07\tc\x1b[', 12, 1);
    expect(text(g, 0)).toBe('ab      c   ');
    expect(ansiToCells('\x1b]8;;http://x', 2, 1).get(0, 0)).toEqual(BLANK);
  });

  it('agrees with a terminal on random styled text', async () => {
    const cols = 12;
    const rows = 3;
    const sgr = fc
      .array(fc.constantFrom('0', '1', '2', '3', '4', '7', '9', '22', '23', '24', '27', '29', '31', '92', '39', '45', '103', '49', '38;5;77', '48;2;9;8;7'), { minLength: 1, maxLength: 3 })
      .map((ps) => `\x1b[${ps.join(';')}m`);
    const piece = fc.oneof(sgr, fc.constantFrom('a', 'Z', ' ', '~', '中', '字', 'é', 'e\u0301', '\n'));
    await fc.assert(
      fc.asyncProperty(fc.array(piece, { maxLength: 30 }), async (pieces) => {
        // Keep within the grid: a terminal would wrap or scroll where a layer clips.
        const lines = pieces.join('').split('\n').slice(0, rows);
        const frame = lines.map((l) => clipToWidth(l, cols)).join('\n');
        const term = makeTerminal(cols, rows);
        terms.push(term);
        await write(term, frame.replaceAll('\n', '\r\n'));
        expect(viewOf(ansiToCells(frame, cols, rows))).toEqual(readCells(term));
      }),
      { numRuns: propertyRuns(60) },
    );
  });
});

/** Keeps escapes but at most `cols` columns of text (the pieces here are 1 or 2 wide). */
function clipToWidth(line: string, cols: number): string {
  let out = '';
  let width = 0;
  for (const m of line.matchAll(/\x1b\[[0-9;]*m|e\u0301|./gsu)) {
    const t = m[0];
    if (t.startsWith('\x1b')) out += t;
    else {
      const w = /[中字]/.test(t) ? 2 : 1;
      if (width + w > cols) break;
      width += w;
      out += t;
    }
  }
  return out;
}

function colorView(c: number): string {
  if (c === -1) return 'default';
  return c >= RGB_FLAG ? `rgb${c & 0xffffff}` : `p${c}`;
}

function viewOf(g: CellGrid): CellView[][] {
  const names: Array<[number, string]> = [
    [Attr.bold, 'bold'],
    [Attr.dim, 'dim'],
    [Attr.italic, 'italic'],
    [Attr.underline, 'underline'],
    [Attr.inverse, 'inverse'],
    [Attr.strikethrough, 'strike'],
    [Attr.blink, 'blink'],
    [Attr.invisible, 'invisible'],
    [Attr.overline, 'overline'],
  ];
  return Array.from({ length: g.rows }, (_, y) =>
    Array.from({ length: g.cols }, (_, x) => {
      const c = g.get(x, y);
      return {
        ch: c.ch,
        w: c.w,
        fg: colorView(c.fg),
        bg: colorView(c.bg),
        flags: names
          .filter(([bit]) => c.fl & bit)
          .map(([, n]) => n)
          .join(','),
      };
    }),
  );
}
