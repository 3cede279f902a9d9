import fc from 'fast-check';
import { propertyRuns } from '../helpers/runs.js';
import { afterEach, describe, expect, it } from 'vitest';
import { ansiToCells } from '../../src/app/ansiLayer.js';
import { Compositor } from '../../src/app/compositor.js';
import { changedRows } from '../../src/surface/diff.js';
import { extractRow, extractSurface } from '../../src/surface/extract.js';
import { ModeTracker } from '../../src/surface/modes.js';
import { Attr, RGB_FLAG, UnderlineStyle, underlineStyleOf, type Cursor, type Run, type SurfacePatch } from '../../src/surface/types.js';
import { LEGACY_MODES as modes } from '../helpers/modes.js';
import { cursorOf, makeTerminal, readCells, write, type XTerm } from '../surface/headless.js';

type Disposable = { dispose(): void };

const disposables: Disposable[] = [];
afterEach(() => {
  for (const d of disposables.splice(0)) d.dispose();
});

/**
 * Each property run owns its terminals and disposes only those: a run that outlives its test
 * (vitest does not stop a test that timed out) must not dispose the next test's terminals.
 */
async function withOwnTerminals(run: (owner: Disposable[]) => Promise<void>): Promise<void> {
  const owner: Disposable[] = [];
  try {
    await run(owner);
  } finally {
    for (const d of owner) d.dispose();
  }
}

/** 150 runs of up to a dozen frames, each a few xterm writes that wait for a timer: about 5 s on
 * an idle machine, and over 30 s (the default timeout) on a busy 2-core one. */
const PROPERTY_TIMEOUT_MS = 180_000;

function terminal(cols: number, rows: number, owner = disposables): { term: XTerm; tracker: ModeTracker } {
  const term = makeTerminal(cols, rows);
  const tracker = new ModeTracker(term);
  owner.push(tracker, term);
  return { term, tracker };
}

/** The holder side (a source terminal) and the client side (a compositor writing into a
 * second terminal that stands in for the user's). */
class Pipeline {
  readonly src: { term: XTerm; tracker: ModeTracker };
  readonly dst: { term: XTerm; tracker: ModeTracker };
  readonly compositor: Compositor;
  private sent: SurfacePatch['lines'] | null = null;

  constructor(
    readonly cols: number,
    readonly rows: number,
    owner = disposables,
    /** The user's terminal draws underline styles and colours (xterm.js does). */
    private readonly styledUnderlines = false,
  ) {
    this.src = terminal(cols, rows, owner);
    this.dst = terminal(cols, rows, owner);
    this.compositor = new Compositor(cols, rows, styledUnderlines);
  }

  /** Feeds the child's bytes, sends a patch (full the first time) and renders it. */
  async frame(bytes: string): Promise<{ out: string; changed: number[] }> {
    await write(this.src.term, bytes);
    const all = extractSurface(this.src.term, this.src.tracker, { full: true });
    const changed = changedRows(this.sent, all.lines);
    const patch = this.sent === null ? all : extractSurface(this.src.term, this.src.tracker, { full: false, rows: changed });
    this.sent = all.lines;
    this.compositor.setSurface(patch, 0);
    const out = this.compositor.render();
    await write(this.dst.term, out);
    return { out, changed };
  }

  expectSame(): void {
    expect(readCells(this.dst.term)).toEqual(readCells(this.src.term));
    // Extraction reads what the cell view does not: underline styles and colours.
    if (this.styledUnderlines) for (let y = 0; y < this.rows; y++) expect(extractRow(this.dst.term, y)).toEqual(extractRow(this.src.term, y));
    const s = this.src.tracker;
    const d = this.dst.tracker;
    expect(d.cursorVisible).toBe(s.cursorVisible);
    if (s.cursorVisible) {
      const at = cursorOf(this.src.term);
      expect(cursorOf(this.dst.term)).toEqual({ x: Math.min(at.x, this.cols - 1), y: at.y });
      expect(d.cursorDefaultStyle).toBe(s.cursorDefaultStyle);
      if (!s.cursorDefaultStyle) expect([d.cursorShape, d.cursorBlink]).toEqual([s.cursorShape, s.cursorBlink]);
    }
  }
}

/** Rows `out` writes to: a terminal filled with a sentinel keeps it on every other row. */
async function rowsWritten(out: string, cols: number, rows: number, owner = disposables): Promise<number[]> {
  const { term } = terminal(cols, rows, owner);
  await write(term, Array.from({ length: rows }, () => '#'.repeat(cols)).join('\r\n'));
  await write(term, out);
  return readCells(term)
    .map((row, y) => (row.every((c) => c.ch === '#') ? -1 : y))
    .filter((y) => y >= 0);
}

const cursorAt = (x: number, y: number, over: Partial<Cursor> = {}): Cursor => ({ x, y, visible: true, shape: 'block', blink: false, ...over });

/** Plain text rows; the CJK characters used here become wide cells, as extraction makes them. */
function textPatch(cols: number, lines: string[], cursor = cursorAt(0, 0)): SurfacePatch {
  const runsOf = (line: string): Run[] =>
    (line.match(/[\u4e00-\u9fff]|[^\u4e00-\u9fff]+/g) ?? []).map((s) => (/[\u4e00-\u9fff]/.test(s) ? { s, fg: -1, bg: -1, fl: 0, w: 2 } : { s, fg: -1, bg: -1, fl: 0 }));
  return {
    full: true,
    cols,
    rows: lines.length,
    lines: lines.map((s, y) => ({ y, runs: runsOf(s) })),
    cursor,
    modes,
    title: '',
  };
}

async function screenOf(out: string, cols: number, rows: number): Promise<string[]> {
  const { term } = terminal(cols, rows);
  await write(term, out);
  return readCells(term).map((r) => r.map((c) => c.ch).join(''));
}

describe('Compositor round trip through a second terminal', () => {
  it('reproduces colours, styles, wide characters, clusters, links and the cursor', async () => {
    const p = new Pipeline(24, 8);
    await p.frame(
      'plain \x1b[1mbold\x1b[0m \x1b[3mital\x1b[23m \x1b[4munder\x1b[24m \x1b[7minv\x1b[0m\r\n' +
        '\x1b[2mdim\x1b[22m \x1b[9mstrike\x1b[29m \x1b[53mover\x1b[55m \x1b[5mbl\x1b[8mx\x1b[0m\r\n' +
        '\x1b[31mred\x1b[91mbright\x1b[38;5;208m256\x1b[38;2;1;128;255mtrue\x1b[0m\r\n' +
        '\x1b[44mbg\x1b[48;5;99m256\x1b[48;2;250;5;5mrgb\x1b[K\x1b[0m\r\n' +
        '中文 字 👍 e\u0301 \u{1F468}\u200d\u{1F469} \u{1F1FA}\u{1F1F8} \u2764\ufe0f\r\n' +
        'ab\x1b[1m\u0301c\x1b[0m \x1b]8;;https://example.com\x1b\\link\x1b]8;;\x1b\\ \x1b[4m\x1b]8;;http://u\x07ul\x1b]8;;\x07\x1b[0m\r\n' +
        '\x1b[1;31;42m wide 中 \x1b[0m\r\n' +
        '\x1b[5 q\x1b[8;4H',
    );
    p.expectSame();
  });

  it('repaints only the rows that changed in a later frame', async () => {
    const p = new Pipeline(20, 6);
    await p.frame('row0\r\nrow1 \x1b[32mgreen\x1b[0m\r\nrow2 中\r\nrow3\r\nrow4');
    p.expectSame();
    const { out, changed } = await p.frame('\x1b[2;6H\x1b[35mmagenta\x1b[0m\x1b[5;1H\x1b[2Kfour');
    expect(changed).toEqual([1, 4]);
    p.expectSame();
    expect(await rowsWritten(out, p.cols, p.rows)).toEqual([1, 4]);
  });

  it('hides the cursor while painting and shows it after, wrapped in synchronized output', async () => {
    const p = new Pipeline(10, 3);
    const { out } = await p.frame('hi');
    expect(out.startsWith('\x1b[?2026h\x1b[?25l')).toBe(true);
    expect(out.endsWith('\x1b[?25h\x1b[?2026l')).toBe(true);
    p.expectSame();
    const hidden = await p.frame('\x1b[?25l');
    expect(hidden.out).toBe('\x1b[?2026h\x1b[?25l\x1b[?2026l');
    p.expectSame();
    expect((await p.frame('')).out).toBe('');
  });

  it('carries underline styles and colours to a terminal that draws them', async () => {
    const p = new Pipeline(40, 3, disposables, true);
    const { out } = await p.frame(
      '\x1b[4:3mcurly\x1b[58:2::255:0:0mred\x1b[0m \x1b[4:2;58;5;9mdbl\x1b[4:4mdot\x1b[4:5;59mdash\x1b[4mone\x1b[0m\r\n' +
        '\x1b]8;;http://u\x07\x1b[4:3;58;5;2mlink\x1b]8;;\x07\x1b[0m \x1b[4:3m中\x1b[0m',
    );
    p.expectSame();
    expect(out).toContain('\x1b[4:3mcurly\x1b[58:2::255:0:0mred');
    const row = extractRow(p.dst.term, 0).runs;
    expect(row.map((r) => [r.s, underlineStyleOf(r.fl), r.uc])).toEqual([
      ['curly', UnderlineStyle.curly, undefined],
      ['red', UnderlineStyle.curly, RGB_FLAG | 0xff0000],
      [' ', 0, undefined],
      ['dbl', UnderlineStyle.double, 9],
      ['dot', UnderlineStyle.dotted, 9],
      ['dash', UnderlineStyle.dashed, undefined],
      ['one', UnderlineStyle.single, undefined],
    ]);
    const later = await p.frame('\x1b[1;1H\x1b[4:4mX');
    p.expectSame();
    expect(later.out).toContain('\x1b[4:4mX');
  });

  it('draws a patch\'s unknown underline style as plain and an out-of-range underline colour as the text\'s', () => {
    const c = new Compositor(4, 1, true);
    const runs: Run[] = [
      { s: 'a', fg: -1, bg: -1, fl: Attr.underline | (7 << 9), uc: -5 },
      { s: 'b', fg: -1, bg: -1, fl: Attr.underline | (6 << 9), uc: 0x7fffffff },
      { s: 'c', fg: -1, bg: -1, fl: 3 << 9, uc: 1 },
    ];
    c.setSurface({ ...textPatch(4, ['']), lines: [{ y: 0, runs }], cursor: cursorAt(0, 0, { visible: false }) }, 0);
    expect(c.render()).toContain('\x1b[4mab\x1b[mc');
  });

  it('draws every underline plain and in the text colour on a terminal not known to draw styles', async () => {
    const p = new Pipeline(30, 2);
    const { out } = await p.frame('\x1b[4:3mcurly\x1b[58:2::255:0:0mred\x1b[4:2;58;5;9mdbl\x1b[0m plain');
    p.expectSame();
    expect(out).toContain('\x1b[4mcurlyred');
    expect(out).not.toMatch(/\x1b\[[\d;:]*(4:|58|59)/);
    expect(extractRow(p.dst.term, 0).runs).toEqual([
      { s: 'curlyreddbl', fg: -1, bg: -1, fl: Attr.underline },
      { s: ' plain', fg: -1, bg: -1, fl: 0 },
    ]);
  });

  it('agrees with the source on random output, frame after frame', async () => {
    const word = fc.constantFrom('a', 'xyz', ' ', '  ', '~!', '中', '字符', '👍', '🎉', 'e\u0301', 'a\u0308\u0301', '\u{1F468}\u200d\u{1F469}', '\u{1F1FA}\u{1F1F8}', '\u2764\ufe0f', 'ｱ', '\u0301');
    const sgr = fc
      .array(
        fc.oneof(
          fc.constantFrom('0', '1', '2', '3', '4', '5', '7', '8', '9', '53', '22', '23', '24', '27', '29', '39', '49', '55', '4:0', '4:1', '4:2', '4:3', '4:4', '4:5', '59'),
          fc.integer({ min: 30, max: 37 }).map(String),
          fc.integer({ min: 90, max: 97 }).map(String),
          fc.integer({ min: 40, max: 47 }).map(String),
          fc.integer({ min: 100, max: 107 }).map(String),
          fc.integer({ min: 0, max: 255 }).map((n) => `38;5;${n}`),
          fc.integer({ min: 0, max: 255 }).map((n) => `48;5;${n}`),
          fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255)).map(([r, g, b]) => `38;2;${r};${g};${b}`),
          fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255)).map(([r, g, b]) => `48;2;${r};${g};${b}`),
          fc.integer({ min: 0, max: 255 }).map((n) => `58;5;${n}`),
          fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255)).map(([r, g, b]) => `58:2::${r}:${g}:${b}`),
        ),
        { minLength: 1, maxLength: 3 },
      )
      .map((ps) => `\x1b[${ps.join(';')}m`);
    const control = fc.oneof(
      fc.constantFrom('\r\n', '\r', '\n', '\x1b[K', '\x1b[1K', '\x1b[2K', '\x1b[J', '\x1b[?25l', '\x1b[?25h', '\x1b[3 q', '\x1b[0 q', '\x1b[6 q'),
      fc.tuple(fc.integer({ min: 1, max: 7 }), fc.integer({ min: 1, max: 17 })).map(([r, c]) => `\x1b[${r};${c}H`),
      fc.constantFrom('\x1b]8;;http://a\x07', '\x1b]8;;https://b/c\x1b\\', '\x1b]8;;\x07'),
    );
    const stream = fc.array(fc.oneof({ weight: 3, arbitrary: word }, { weight: 2, arbitrary: sgr }, { weight: 2, arbitrary: control }), { maxLength: 50 }).map((a) => a.join(''));
    await fc.assert(
      fc.asyncProperty(fc.array(stream, { minLength: 1, maxLength: 3 }), (frames) =>
        withOwnTerminals(async (owner) => {
          const p = new Pipeline(16, 6, owner, true);
          for (const bytes of frames) {
            const { out, changed } = await p.frame(bytes);
            p.expectSame();
            const touched = await rowsWritten(out, p.cols, p.rows, owner);
            for (const y of touched) expect(changed).toContain(y);
          }
        }),
      ),
      { numRuns: propertyRuns(150) },
    );
  }, PROPERTY_TIMEOUT_MS);
});

describe('Compositor incremental rendering', () => {
  it('leaves the terminal as a fresh full render of the same state would, whatever the sequence', async () => {
    const cols = 12;
    const rows = 6;
    const run = fc.oneof(
      fc.record({ s: fc.constantFrom('a', 'bc', ' d ', 'xyz!'), fg: fc.constantFrom(-1, 2, 200, 0x1000000 | 0x123456), bg: fc.constantFrom(-1, 5), fl: fc.constantFrom(0, 1, 12) }),
      fc.record({ s: fc.constantFrom('中', '字'), fg: fc.constantFrom(-1, 3), bg: fc.constant(-1), fl: fc.constant(0), w: fc.constant(2) }),
    );
    const line = fc.array(run, { maxLength: 5 });
    const cursor = fc.record({ x: fc.integer({ min: 0, max: cols - 1 }), y: fc.integer({ min: 0, max: rows - 1 }), visible: fc.boolean(), shape: fc.constantFrom('block' as const, 'bar' as const), blink: fc.boolean() });
    const op = fc.oneof(
      fc.record({ k: fc.constant('surface' as const), full: fc.boolean(), ys: fc.uniqueArray(fc.integer({ min: 0, max: rows - 2 }), { maxLength: 4 }), lines: fc.array(line, { minLength: 4, maxLength: 4 }), cursor, yOffset: fc.constantFrom(0, 1) }),
      fc.record({
        k: fc.constant('layer' as const),
        id: fc.constantFrom('strip', 'menu'),
        rect: fc.option(fc.record({ x: fc.integer({ min: -1, max: cols - 2 }), y: fc.integer({ min: 0, max: rows - 1 }), w: fc.integer({ min: 0, max: 6 }), h: fc.integer({ min: 0, max: 3 }) })),
        frame: fc.constantFrom('', 'MENU', '\x1b[7mab\x1b[0m\n字c', ' 中 x\n\x1b[31mred'),
      }),
      fc.record({ k: fc.constant('cursor' as const), c: fc.option(cursor) }),
      fc.constant({ k: 'invalidate' as const }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 12 }), (ops) =>
        withOwnTerminals(async (owner) => {
          const live = new Compositor(cols, rows);
          const liveTerm = terminal(cols, rows, owner);
          // The state a fresh compositor is rebuilt from after each step.
          const surface: Run[][] = Array.from({ length: rows - 1 }, () => []);
          let surfaceCursor: Cursor = cursorAt(0, 0);
          let yOffset = 0;
          const layers = new Map<string, { rect: { x: number; y: number; w: number; h: number }; frame: string }>();
          let override: Cursor | null = null;
          live.setSurface({ full: true, cols, rows: rows - 1, lines: [], cursor: surfaceCursor, modes, title: '' }, yOffset);
          for (const o of ops) {
            if (o.k === 'surface') {
              // A full patch may leave rows out: they are blank.
              if (o.full) surface.fill([]);
              const ys = o.ys;
              ys.forEach((y, k) => (surface[y] = o.lines[k % o.lines.length]));
              surfaceCursor = o.cursor;
              yOffset = o.yOffset;
              const lines = ys.map((y) => ({ y, runs: surface[y] }));
              live.setSurface({ full: o.full, cols, rows: rows - 1, lines, cursor: o.cursor, modes, title: '' }, o.yOffset);
            } else if (o.k === 'layer') {
              if (o.rect === null) layers.delete(o.id);
              else layers.set(o.id, { rect: o.rect, frame: o.frame });
              live.setLayer(o.id, o.rect, o.rect === null ? undefined : ansiToCells(o.frame, Math.max(0, o.rect.w), Math.max(0, o.rect.h)));
            } else if (o.k === 'cursor') {
              override = o.c;
              live.setCursor(o.c);
            } else {
              live.invalidate();
            }
            await write(liveTerm.term, live.render());

            const fresh = new Compositor(cols, rows);
            fresh.setSurface({ full: true, cols, rows: rows - 1, lines: surface.map((runs, y) => ({ y, runs })), cursor: surfaceCursor, modes, title: '' }, yOffset);
            for (const [id, l] of layers) fresh.setLayer(id, l.rect, ansiToCells(l.frame, Math.max(0, l.rect.w), Math.max(0, l.rect.h)));
            fresh.setCursor(override);
            const freshTerm = terminal(cols, rows, owner);
            await write(freshTerm.term, fresh.render());

            expect(readCells(liveTerm.term)).toEqual(readCells(freshTerm.term));
            expect(liveTerm.tracker.cursorVisible).toBe(freshTerm.tracker.cursorVisible);
            if (freshTerm.tracker.cursorVisible) {
              expect(cursorOf(liveTerm.term)).toEqual(cursorOf(freshTerm.term));
              expect([liveTerm.tracker.cursorShape, liveTerm.tracker.cursorBlink]).toEqual([freshTerm.tracker.cursorShape, freshTerm.tracker.cursorBlink]);
            }
          }
        }),
      ),
      { numRuns: propertyRuns(150) },
    );
  }, PROPERTY_TIMEOUT_MS);
});

describe('Compositor', () => {
  it('returns nothing when nothing changed, and everything after invalidate', async () => {
    const c = new Compositor(6, 2);
    c.setSurface(textPatch(6, ['abc', 'de']), 0);
    const first = c.render();
    expect(await screenOf(first, 6, 2)).toEqual(['abc   ', 'de    ']);
    expect(c.render()).toBe('');
    c.setSurface(textPatch(6, ['abc', 'de']), 0);
    expect(c.render()).toBe('');
    c.invalidate();
    const again = c.render();
    expect(again).not.toBe('');
    // A full repaint is self-contained: it draws the same screen over any garbage.
    expect(await screenOf('garbage!\r\nmore junk' + again, 6, 2)).toEqual(['abc   ', 'de    ']);
  });

  it('clears what a row no longer has with an erase at the default pen', async () => {
    const c = new Compositor(8, 1);
    c.setSurface({ ...textPatch(8, ['abcdefgh']), lines: [{ y: 0, runs: [{ s: 'abcdefgh', fg: -1, bg: 4, fl: 0 }] }] }, 0);
    const first = c.render();
    c.setSurface({ ...textPatch(8, ['ab']), full: false }, 0);
    const second = c.render();
    expect(second).toContain('\x1b[K');
    const { term } = terminal(8, 1);
    await write(term, first + second);
    expect(readCells(term)[0].map((cell) => [cell.ch, cell.bg])).toEqual([
      ['a', 'default'],
      ['b', 'default'],
      ...Array.from({ length: 6 }, () => [' ', 'default']),
    ]);
  });

  it('writes minimal SGR transitions', () => {
    const c = new Compositor(4, 1);
    c.setSurface(
      {
        ...textPatch(4, ['']),
        lines: [
          {
            y: 0,
            runs: [
              { s: 'a', fg: 1, bg: -1, fl: 1 },
              { s: 'b', fg: 1, bg: -1, fl: 1 | 4 },
              { s: 'c', fg: 1, bg: -1, fl: 4 },
              { s: 'd', fg: -1, bg: -1, fl: 0 },
            ],
          },
        ],
        cursor: cursorAt(0, 0, { visible: false }),
      },
      0,
    );
    const out = c.render();
    expect(out).toContain('\x1b[1;31ma\x1b[3mb\x1b[22mc\x1b[md');
  });

  it('places the surface at its offset, under layers, and blanks rows beyond it', async () => {
    const c = new Compositor(10, 5);
    c.setSurface(textPatch(10, ['s0 中文', 's1', 's2', 's3 long line'], cursorAt(1, 1)), 1);
    c.setLayer('strip', { x: 0, y: 0, w: 10, h: 1 }, ansiToCells('\x1b[7m tab \x1b[0m +', 10, 1));
    c.setLayer('menu', { x: 4, y: 1, w: 4, h: 2 }, ansiToCells('MENU\n字x', 4, 2));
    const out = c.render();
    // The wide character the menu cuts in half shows as a blank.
    expect(await screenOf(out, 10, 5)).toEqual([' tab  +   ', 's0  MENU  ', 's1  字x   ', 's2        ', 's3 long li']);
    const { term } = terminal(10, 5);
    await write(term, out);
    expect(cursorOf(term)).toEqual({ x: 1, y: 2 });
    // Removing a layer shows the surface beneath it again, and only its rows are written.
    c.setLayer('menu', null);
    const after = c.render();
    expect(await rowsWritten(after, 10, 5)).toEqual([1, 2]);
    expect(await screenOf(out + after, 10, 5)).toEqual([' tab  +   ', 's0 中文   ', 's1        ', 's2        ', 's3 long li']);
  });

  it('hides the child cursor under a layer and lets an override place it', async () => {
    const c = new Compositor(10, 3);
    c.setSurface(textPatch(10, ['abc', 'def'], cursorAt(2, 0)), 1);
    c.setLayer('popup', { x: 0, y: 1, w: 5, h: 1 }, ansiToCells('popup', 5, 1));
    const { term, tracker } = terminal(10, 3);
    await write(term, c.render());
    expect(tracker.cursorVisible).toBe(false);
    c.setCursor(cursorAt(4, 1, { shape: 'bar', blink: true }));
    await write(term, c.render());
    expect([tracker.cursorVisible, tracker.cursorShape, tracker.cursorBlink, cursorOf(term)]).toEqual([true, 'bar', true, { x: 4, y: 1 }]);
    c.setCursor(null);
    c.setLayer('popup', null);
    await write(term, c.render());
    expect([tracker.cursorVisible, tracker.cursorShape, tracker.cursorBlink, cursorOf(term)]).toEqual([true, 'block', false, { x: 2, y: 1 }]);
    // A child that chose no style gets the outer terminal's own.
    c.setSurface(textPatch(10, ['abc', 'def'], cursorAt(2, 0, { defaultStyle: true })), 1);
    const out = c.render();
    expect(out).toContain('\x1b[0 q');
    await write(term, out);
    expect(tracker.cursorDefaultStyle).toBe(true);
  });

  it('moves a layer keeping its cells, and a new layer without cells is blank', async () => {
    const c = new Compositor(6, 2);
    c.setSurface(textPatch(6, ['zzzzzz', 'zzzzzz'], cursorAt(0, 0, { visible: false })), 0);
    c.setLayer('a', { x: 0, y: 0, w: 2, h: 1 }, ansiToCells('AB', 2, 1));
    c.setLayer('b', { x: 4, y: 1, w: 2, h: 1 });
    let out = c.render();
    c.setLayer('a', { x: 2, y: 1, w: 2, h: 1 });
    out += c.render();
    expect(await screenOf(out, 6, 2)).toEqual(['zzzzzz', 'zzAB  ']);
  });

  it('repaints everything after a resize, clipping the surface to the screen', async () => {
    const c = new Compositor(6, 2);
    c.setSurface(textPatch(6, ['abcdef', 'ghijkl']), 0);
    c.render();
    c.resize(4, 3);
    const out = c.render();
    expect(await screenOf(out, 4, 3)).toEqual(['abcd', 'ghij', '    ']);
    c.setSurface(textPatch(8, ['12345678', 'x', 'y', 'z']), 0);
    expect(await screenOf(out + c.render(), 4, 3)).toEqual(['1234', 'x   ', 'y   ']);
  });

  it('never lets control characters from a patch reach the terminal', () => {
    const c = new Compositor(12, 1);
    c.setSurface(
      {
        ...textPatch(12, ['']),
        lines: [{ y: 0, runs: [{ s: 'a\x1b[2Jb\x07', fg: -1, bg: -1, fl: 0 }, { s: 'c', fg: -1, bg: -1, fl: 0, link: 'http://x\x1b\\\x07y' }] }],
      },
      0,
    );
    const out = c.render();
    expect(out).toContain('a?[2Jb?');
    expect(out).toContain('\x1b]8;;http://x\\y\x1b\\c');
    expect(out).not.toContain('\x07');
  });

  it('freezes the surface and shows a picture instead while patches apply underneath, then shows them', async () => {
    const c = new Compositor(6, 3);
    const { term } = terminal(6, 3);
    const screen = async () => {
      await write(term, c.render());
      return readCells(term).map((r) => r.map((x) => x.ch).join(''));
    };
    c.setSurface(textPatch(6, ['one', 'two', 'three'], cursorAt(1, 2)), 0);
    expect(await screen()).toEqual(['one   ', 'two   ', 'three ']);
    c.freezeSurface();
    c.setSurface({ ...textPatch(6, ['', 'TWO', ''], cursorAt(0, 0)), full: false, lines: [{ y: 1, runs: [{ s: 'TWO', fg: -1, bg: -1, fl: 0 }] }] }, 0);
    expect(await screen()).toEqual(['one   ', 'two   ', 'three ']);
    expect(cursorOf(term)).toEqual({ x: 1, y: 2 });
    c.showInstead(textPatch(6, ['hist a', 'hist b'], cursorAt(3, 1)));
    expect(await screen()).toEqual(['hist a', 'hist b', '      ']);
    expect(cursorOf(term)).toEqual({ x: 3, y: 1 });
    // The diff that arrived meanwhile is on the live surface shown again.
    c.showInstead(null);
    expect(await screen()).toEqual(['one   ', 'TWO   ', 'three ']);
    expect(cursorOf(term)).toEqual({ x: 0, y: 0 });
  });

  it('shows an empty screen without a surface', async () => {
    const c = new Compositor(4, 2);
    c.setSurface(textPatch(4, ['abcd', 'efgh']), 0);
    const out = c.render();
    c.clearSurface();
    const { term, tracker } = terminal(4, 2);
    await write(term, out + c.render());
    expect(readCells(term).map((r) => r.map((x) => x.ch).join(''))).toEqual(['    ', '    ']);
    expect(tracker.cursorVisible).toBe(false);
  });
});
