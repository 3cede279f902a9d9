import { afterEach, describe, expect, it } from 'vitest';
import { extractCursor, extractRow, extractRowViaCellApi, extractSurface } from '../../src/surface/extract.js';
import { ModeTracker } from '../../src/surface/modes.js';
import { Attr, RGB_FLAG, UnderlineStyle, underlineStyleOf, withUnderlineStyle, type Run } from '../../src/surface/types.js';
import { makeTerminal, write, type XTerm } from './headless.js';

const open: XTerm[] = [];

function term(cols = 20, rows = 4, scrollback = 100): XTerm {
  const t = makeTerminal(cols, rows, scrollback);
  open.push(t);
  return t;
}

afterEach(() => {
  for (const t of open.splice(0)) t.dispose();
});

const plain = (s: string): Run => ({ s, fg: -1, bg: -1, fl: 0 });

describe('extractRow', () => {
  it('merges equal attributes into runs and trims the default blanks that end a row', async () => {
    const t = term();
    await write(t, 'ab \x1b[1mcd\x1b[0m  e   ');
    expect(extractRow(t, 0)).toEqual({ y: 0, runs: [plain('ab '), { s: 'cd', fg: -1, bg: -1, fl: Attr.bold }, plain('  e')] });
    expect(extractRow(t, 1)).toEqual({ y: 1, runs: [] });
  });

  it('keeps blanks that carry attributes', async () => {
    const t = term();
    await write(t, 'x\x1b[44m  \x1b[0m \x1b[4m \x1b[0m');
    expect(extractRow(t, 0).runs).toEqual([plain('x'), { s: '  ', fg: -1, bg: 4, fl: 0 }, plain(' '), { s: ' ', fg: -1, bg: -1, fl: Attr.underline }]);
  });

  it('reads palette, 256 and truecolour foreground and background', async () => {
    const t = term();
    await write(t, '\x1b[31ma\x1b[95mb\x1b[38;5;200mc\x1b[38;2;1;2;3md\x1b[39;42me\x1b[48;5;17mf\x1b[48;2;255;128;0mg');
    expect(extractRow(t, 0).runs).toEqual([
      { s: 'a', fg: 1, bg: -1, fl: 0 },
      { s: 'b', fg: 13, bg: -1, fl: 0 },
      { s: 'c', fg: 200, bg: -1, fl: 0 },
      { s: 'd', fg: RGB_FLAG | 0x010203, bg: -1, fl: 0 },
      { s: 'e', fg: -1, bg: 2, fl: 0 },
      { s: 'f', fg: -1, bg: 17, fl: 0 },
      { s: 'g', fg: -1, bg: RGB_FLAG | 0xff8000, fl: 0 },
    ]);
  });

  it('reads every attribute flag', async () => {
    const t = term(30);
    const sgr = [1, 2, 3, 4, 7, 9, 5, 8, 53];
    const flags: number[] = [Attr.bold, Attr.dim, Attr.italic, Attr.underline, Attr.inverse, Attr.strikethrough, Attr.blink, Attr.invisible, Attr.overline];
    await write(t, sgr.map((p) => `\x1b[0;${p}mx`).join('') + `\x1b[0;${sgr.join(';')}my`);
    const runs = extractRow(t, 0).runs;
    expect(runs.map((r) => r.fl)).toEqual([...flags, flags.reduce((a, b) => a | b)]);
  });

  it('gives wide characters and clusters a run of their own, skipping continuations', async () => {
    const t = term(24);
    await write(t, 'a中b👍e\u0301f\u{1F468}\u200d\u{1F469}');
    expect(extractRow(t, 0).runs).toEqual([
      plain('a'),
      { ...plain('中'), w: 2 },
      plain('b'),
      { ...plain('👍'), w: 2 },
      { ...plain('e\u0301'), w: 1 },
      plain('f'),
      { ...plain('\u{1F468}\u200d'), w: 2 },
      { ...plain('\u{1F469}'), w: 2 },
    ]);
  });

  it('keeps a lone zero-width code point as a one-column cell so later columns stay aligned', async () => {
    const t = term();
    // An escape between base and mark keeps xterm from joining them: the mark takes a column.
    await write(t, 'ab\x1b[1m\u0301c');
    const runs = extractRow(t, 0).runs;
    expect(runs).toEqual([plain('ab'), { s: '\u0301', fg: -1, bg: -1, fl: Attr.bold, w: 1 }, { s: 'c', fg: -1, bg: -1, fl: Attr.bold }]);
  });

  it('merges astral single code points of width one', async () => {
    const t = term();
    await write(t, '\u{1D400}\u{1D401}');
    expect(extractRow(t, 0).runs).toEqual([plain('\u{1D400}\u{1D401}')]);
  });

  it('carries OSC 8 hyperlinks', async () => {
    const t = term(30);
    await write(t, 'see \x1b]8;id=1;https://example.com/a\x1b\\here\x1b]8;;\x1b\\ and \x1b]8;;file:///b\x07x\x1b]8;;\x07.');
    expect(extractRow(t, 0).runs).toEqual([
      plain('see '),
      { ...plain('here'), link: 'https://example.com/a' },
      plain(' and '),
      { ...plain('x'), link: 'file:///b' },
      plain('.'),
    ]);
  });

  it('keeps a linked cell underlined only when the child underlined it', async () => {
    const t = term(30);
    await write(t, '\x1b]8;;http://u\x07a\x1b[4mb\x1b[24mc\x1b]8;;\x07\x1b[4md');
    expect(extractRow(t, 0).runs).toEqual([
      { ...plain('a'), link: 'http://u' },
      { s: 'b', fg: -1, bg: -1, fl: Attr.underline, link: 'http://u' },
      { ...plain('c'), link: 'http://u' },
      { s: 'd', fg: -1, bg: -1, fl: Attr.underline },
    ]);
  });

  it('carries the underline style (SGR 4:N) in the flags and the underline colour (SGR 58)', async () => {
    const t = term(30);
    await write(t, '\x1b[4ma\x1b[4:2mb\x1b[4:3mc\x1b[4:4md\x1b[4:5me\x1b[4:1mf\x1b[4:0mg\x1b[24;21mh\x1b[0m');
    expect(extractRow(t, 0).runs.map((r) => r.fl)).toEqual([
      Attr.underline,
      withUnderlineStyle(Attr.underline, UnderlineStyle.double),
      withUnderlineStyle(Attr.underline, UnderlineStyle.curly),
      withUnderlineStyle(Attr.underline, UnderlineStyle.dotted),
      withUnderlineStyle(Attr.underline, UnderlineStyle.dashed),
      Attr.underline,
      0,
      // SGR 21 is xterm.js's double underline.
      withUnderlineStyle(Attr.underline, UnderlineStyle.double),
    ]);
    expect(extractRow(t, 0).runs.map((r) => underlineStyleOf(r.fl))).toEqual([1, 2, 3, 4, 5, 1, 0, 2]);
  });

  it('reads the underline colour of underlined cells: 256, truecolour, reset by 59', async () => {
    const t = term(30);
    await write(t, '\x1b[58;5;9mx\x1b[4:3ma\x1b[58:2::255:0:0mb\x1b[58;2;1;2;3mc\x1b[58:5:200md\x1b[59me\x1b[0m');
    const curly = withUnderlineStyle(Attr.underline, UnderlineStyle.curly);
    expect(extractRow(t, 0).runs).toEqual([
      plain('x'),
      { s: 'a', fg: -1, bg: -1, fl: curly, uc: 9 },
      { s: 'b', fg: -1, bg: -1, fl: curly, uc: RGB_FLAG | 0xff0000 },
      { s: 'c', fg: -1, bg: -1, fl: curly, uc: RGB_FLAG | 0x010203 },
      { s: 'd', fg: -1, bg: -1, fl: curly, uc: 200 },
      { s: 'e', fg: -1, bg: -1, fl: curly },
    ]);
  });

  it('keeps a linked cell\'s own underline style, not the dashes xterm.js draws links with', async () => {
    const t = term(30);
    await write(t, '\x1b]8;;http://u\x07a\x1b[4:4;58;5;2mb\x1b]8;;\x07\x1b[0m');
    expect(extractRow(t, 0).runs).toEqual([
      { ...plain('a'), link: 'http://u' },
      { s: 'b', fg: -1, bg: -1, fl: withUnderlineStyle(Attr.underline, UnderlineStyle.dotted), uc: 2, link: 'http://u' },
    ]);
  });

  it('reads the viewport, not the scrollback', async () => {
    const t = term(10, 3);
    await write(t, 'one\r\ntwo\r\nthree\r\nfour');
    expect([0, 1, 2].map((y) => extractRow(t, y).runs.map((r) => r.s).join(''))).toEqual(['two', 'three', 'four']);
  });
});

describe('extractRow reading raw cells', () => {
  it('gives exactly what the public cell API gives, for every kind of cell', async () => {
    const t = term(40, 12);
    await write(
      t,
      [
        'plain text with  gaps   ',
        '\x1b[31mred\x1b[32mgreen\x1b[0m \x1b[1;38;5;200mbold256\x1b[22m still256\x1b[0m',
        '\x1b[38;2;1;2;3mrgb\x1b[48;2;9;8;7mon rgb\x1b[0m\x1b[44m   \x1b[0m',
        'a中b👍e\u0301f\u{1F468}\u200d\u{1F469}g\u{1D400}\u{1D401}h',
        '\x1b]8;;http://u\x07link\x1b[4mu\x1b[24mx\x1b]8;;\x07 after \x1b[4:3mcurly\x1b[4:0m \x1b[58;5;3m\x1b[4mcol\x1b[0m',
        '\x1b[2;3;7;9;5;8;53mflags\x1b[0m\x1b[7m \x1b[27m \x1b[1mB\x1b[0mb',
        'tail \x1b[41m \x1b[0m   \x1b]8;;http://a\x07ab\x1b]8;;http://b\x07cd\x1b]8;;\x07e',
        '\x1b[33m' + 'y'.repeat(45),
      ].join('\r\n'),
    );
    // The raw words this path reads exist in the pinned xterm.js (else the comparison proves nothing).
    expect((t.buffer.active.getLine(0) as unknown as { _line: { _data: unknown } })._line._data).toBeInstanceOf(Uint32Array);
    for (let y = 0; y < t.rows; y++) expect(extractRow(t, y)).toEqual(extractRowViaCellApi(t, y));
  });
});

describe('extractCursor and extractSurface', () => {
  it('reports the cursor with the tracked style, clamping a pending wrap to the last column', async () => {
    const t = term(5, 3);
    const tracker = new ModeTracker(t);
    await write(t, '\r\nabcde\x1b[5 q\x1b[?25l');
    expect(extractCursor(t, tracker)).toEqual({ x: 4, y: 1, visible: false, shape: 'bar', blink: true });
    await write(t, '\x1b[0 q\x1b[?25h\x1b[3;2H');
    expect(extractCursor(t, tracker)).toEqual({ x: 1, y: 2, visible: true, shape: 'block', blink: false, defaultStyle: true });
    tracker.dispose();
  });

  it('extracts a full surface or only the rows asked for', async () => {
    const t = term(10, 4);
    const tracker = new ModeTracker(t);
    await write(t, '\x1b]2;T\x07\x1b[?2004hr0\r\nr1\r\nr2');
    const full = extractSurface(t, tracker, { full: true });
    expect(full).toMatchObject({ full: true, cols: 10, rows: 4, title: 'T', modes: { bracketedPaste: true }, cursor: { x: 2, y: 2 } });
    expect(full.lines.map((l) => [l.y, l.runs.map((r) => r.s).join('')])).toEqual([
      [0, 'r0'],
      [1, 'r1'],
      [2, 'r2'],
      [3, ''],
    ]);
    const some = extractSurface(t, tracker, { full: false, rows: [2, 0, 9, -1] });
    expect(some.full).toBe(false);
    expect(some.lines.map((l) => l.y)).toEqual([2, 0]);
    tracker.dispose();
  });
});
