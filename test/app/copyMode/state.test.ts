import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  COPY_MAX_LINES,
  COPY_PAGE_LINES,
  KEEP_LINES,
  PREFETCH_LINES,
  copyModeStep,
  atBottom,
  selectedRange,
  selectionText,
  startCopyMode,
  type CopyAction,
  type CopyEffect,
  type CopyModeState,
  type CopyStep,
  type HistoryPageData,
  type Match,
} from '../../../src/app/copyMode/state.js';
import type { InputEvent } from '../../../src/input/events.js';
import type { Row, Run } from '../../../src/surface/types.js';

/** A row as the holder sends it: ASCII in runs, each wide character a run of its own. */
function rowOf(y: number, text: string): Row {
  const runs: Run[] = [];
  for (const ch of text.replace(/ +$/, '')) {
    if (ch === '中') runs.push({ s: ch, fg: -1, bg: -1, fl: 0, w: 2 });
    else if (runs.length > 0 && runs[runs.length - 1].w === undefined) runs[runs.length - 1].s += ch;
    else runs.push({ s: ch, fg: -1, bg: -1, fl: 0 });
  }
  return { y, runs };
}

/** Serves pages of `lines` as the holder would, counting what it was asked for. */
class FakeHolder {
  requests: { from: number; count: number }[] = [];
  constructor(
    public lines: string[],
    public wrapped: ReadonlySet<number> = new Set(),
    public dropped = 0,
  ) {}

  page(from: number, count: number): HistoryPageData {
    this.requests.push({ from, count });
    const start = Math.max(0, Math.min(from, this.lines.length));
    const end = Math.min(this.lines.length, start + Math.min(count, 200));
    const lines: Row[] = [];
    for (let i = start; i < end; i++) lines.push(rowOf(i, this.lines[i]));
    const wrapped = [...this.wrapped].filter((i) => i >= start && i < end);
    return { total: this.lines.length, from: start, lines, wrapped, dropped: this.dropped };
  }
}

interface Driven {
  state: CopyModeState;
  /** Every effect but the fetches the fake holder answered. */
  effects: CopyEffect[];
}

/** Applies the step's effects: fetches are answered at once (and their effects in turn). */
function serve(holder: FakeHolder, step: CopyStep, effects: CopyEffect[] = []): Driven {
  let state = step.state;
  const queue = [...step.effects];
  while (queue.length > 0) {
    const e = queue.shift()!;
    if (e.kind !== 'fetch') {
      effects.push(e);
      continue;
    }
    const next = copyModeStep(state, { kind: 'page', page: holder.page(e.from, e.count) });
    state = next.state;
    queue.push(...next.effects);
  }
  return { state, effects };
}

function run(holder: FakeHolder, start: Driven, actions: CopyAction[]): Driven {
  let d = start;
  for (const a of actions) d = serve(holder, copyModeStep(d.state, a), d.effects);
  return d;
}

function open(holder: FakeHolder, height = 5, cols = 20): Driven {
  return serve(holder, startCopyMode({ total: holder.lines.length, cols, height, dropped: holder.dropped }));
}

const text = (s: string, mods?: { ctrl?: boolean; alt?: boolean }): CopyAction => ({ kind: 'key', event: { k: 'text', s, mods } });
const named = (key: 'up' | 'down' | 'left' | 'right' | 'pageup' | 'pagedown' | 'home' | 'end' | 'enter' | 'escape' | 'space' | 'backspace'): CopyAction => ({
  kind: 'key',
  event: { k: 'key', key },
});
const keys = (s: string): CopyAction[] => [...s].map((ch) => text(ch));
const ctrl = (ch: string) => text(ch, { ctrl: true });
const alt = (ch: string) => text(ch, { alt: true });

function invariantsHold(state: CopyModeState): void {
  expect(state.cursor.line).toBeGreaterThanOrEqual(0);
  expect(state.cursor.line).toBeLessThan(Math.max(1, state.total));
  expect(state.cursor.col).toBeGreaterThanOrEqual(0);
  expect(state.cursor.col).toBeLessThan(state.cols);
  expect(state.top).toBeGreaterThanOrEqual(0);
  expect(state.top).toBeLessThanOrEqual(Math.max(0, state.total - state.height));
  expect(state.cursor.line).toBeGreaterThanOrEqual(state.top);
  expect(state.cursor.line).toBeLessThan(state.top + state.height);
  const w = state.window;
  expect(w.rows.length).toBe(w.wrapped.length);
  expect(w.from).toBeGreaterThanOrEqual(0);
  expect(w.from + w.rows.length).toBeLessThanOrEqual(state.total);
  w.rows.forEach((row, i) => expect(row.y).toBe(w.from + i));
  if (!state.copying) expect(w.rows.length).toBeLessThanOrEqual(state.height + 2 * KEEP_LINES);
}

describe('startCopyMode', () => {
  it('opens on the last screen with the cursor on the last line and asks for the view first', () => {
    const holder = new FakeHolder(Array.from({ length: 1000 }, (_, i) => `l${i}`));
    const step = startCopyMode({ total: 1000, cols: 20, height: 5, dropped: 0 });
    expect(step.state).toMatchObject({ top: 995, cursor: { line: 999, col: 0 }, pending: { from: 995, count: 5 } });
    expect(step.effects).toEqual([{ kind: 'fetch', from: 995, count: 5 }]);
    const d = serve(holder, step);
    // Then the margin above the view, one page at a time, and nothing more.
    expect(holder.requests).toEqual([
      { from: 995, count: 5 },
      { from: 995 - PREFETCH_LINES, count: PREFETCH_LINES },
    ]);
    expect(d.state.window.from).toBe(995 - PREFETCH_LINES);
    expect(d.state.pending).toBeNull();
  });
});

describe('keys typed before the lines arrive', () => {
  /** Applies actions without answering fetches: the pages are still on their way. */
  function unanswered(step: CopyStep, actions: CopyAction[]): { state: CopyModeState; effects: CopyEffect[] } {
    let state = step.state;
    const effects = [...step.effects];
    for (const a of actions) {
      const next = copyModeStep(state, a);
      state = next.state;
      effects.push(...next.effects);
    }
    return { state, effects };
  }

  it('wait for the cursor\'s line and then run in order, as on loaded lines', () => {
    const doc = ['$ printf', 'alpha beta', 'gamma delta', '$ '];
    const holder = new FakeHolder(doc);
    const start = startCopyMode({ total: 4, cols: 20, height: 4, dropped: 0, cursor: { line: 3, col: 2 } });
    const early = unanswered(start, keys('kk0wvje'));
    // Nothing moved yet: a word motion on no line would go nowhere.
    expect(early.state.cursor).toEqual({ line: 3, col: 2 });
    expect(early.state.queued).toHaveLength(7);
    const fetch = early.effects.find((e) => e.kind === 'fetch')!;
    if (fetch.kind !== 'fetch') throw new Error('no fetch');
    const d = serve(holder, copyModeStep(early.state, { kind: 'page', page: holder.page(fetch.from, fetch.count) }));
    expect(d.state.queued).toEqual([]);
    expect(d.state.cursor).toEqual({ line: 2, col: 10 });
    expect(d.state.selection?.anchor).toEqual({ line: 1, col: 6 });
    const copied = run(holder, d, [text('y')]);
    expect(copied.effects).toEqual([{ kind: 'copy', text: 'beta\ngamma delta' }, { kind: 'exit' }]);
  });

  it('q leaves at once, dropping what waits, unless a waiting / makes it search text', () => {
    const start = startCopyMode({ total: 4, cols: 20, height: 4, dropped: 0 });
    const left = unanswered(start, [...keys('kw'), text('q')]);
    expect(left.state.done).toBe(true);
    expect(left.state.queued).toEqual([]);
    expect(left.effects.at(-1)).toEqual({ kind: 'exit' });
    const searching = unanswered(start, keys('k/q'));
    expect(searching.state.done).toBe(false);
    expect(searching.state.queued).toHaveLength(3);
  });
});

describe('motions', () => {
  const doc = ['foo bar.baz  qux', '', '  end', 'x'];

  function at(line: number, col: number, actions: CopyAction[]) {
    const holder = new FakeHolder(doc);
    const d = open(holder, 4, 20);
    const placed = run(holder, d, [text('g'), ...Array<CopyAction>(line).fill(text('j')), ...Array<CopyAction>(col).fill(text('l'))]);
    expect(placed.state.cursor).toEqual({ line, col });
    return run(holder, placed, actions).state.cursor;
  }

  it('moves by characters and lines with arrows, vi and emacs keys, staying in bounds', () => {
    expect(at(0, 0, [text('l'), named('right'), ctrl('f')])).toEqual({ line: 0, col: 3 });
    expect(at(0, 3, [text('h'), named('left'), ctrl('b'), text('h'), text('h')])).toEqual({ line: 0, col: 0 });
    expect(at(0, 0, [text('j'), named('down'), ctrl('n'), text('j'), text('j')])).toEqual({ line: 3, col: 0 });
    expect(at(3, 0, [text('k'), named('up'), ctrl('p'), text('k')])).toEqual({ line: 0, col: 0 });
    expect(at(0, 0, Array<CopyAction>(30).fill(text('l')))).toEqual({ line: 0, col: 19 });
  });

  it('goes to line starts and ends, and to the first and last lines', () => {
    expect(at(0, 5, [text('$')])).toEqual({ line: 0, col: 15 });
    expect(at(0, 5, [named('end')])).toEqual({ line: 0, col: 15 });
    expect(at(0, 5, [ctrl('e')])).toEqual({ line: 0, col: 15 });
    expect(at(1, 0, [text('$')])).toEqual({ line: 1, col: 0 });
    expect(at(0, 5, [text('0')])).toEqual({ line: 0, col: 0 });
    expect(at(0, 5, [named('home')])).toEqual({ line: 0, col: 0 });
    expect(at(0, 5, [ctrl('a')])).toEqual({ line: 0, col: 0 });
    expect(at(2, 3, [text('g')])).toEqual({ line: 0, col: 0 });
    expect(at(0, 3, [text('G')])).toEqual({ line: 3, col: 0 });
  });

  it('moves by words as vi and emacs do, across lines', () => {
    expect(at(0, 0, [text('w')])).toEqual({ line: 0, col: 4 });
    expect(at(0, 4, [text('w')])).toEqual({ line: 0, col: 7 });
    expect(at(0, 7, [text('w')])).toEqual({ line: 0, col: 8 });
    expect(at(0, 8, [text('w')])).toEqual({ line: 0, col: 13 });
    expect(at(0, 13, [text('w')])).toEqual({ line: 2, col: 2 });
    expect(at(0, 0, [text('e')])).toEqual({ line: 0, col: 2 });
    expect(at(0, 2, [text('e')])).toEqual({ line: 0, col: 6 });
    expect(at(0, 13, [text('e')])).toEqual({ line: 0, col: 15 });
    expect(at(0, 15, [text('e')])).toEqual({ line: 2, col: 4 });
    expect(at(0, 8, [text('b')])).toEqual({ line: 0, col: 7 });
    expect(at(0, 7, [text('b')])).toEqual({ line: 0, col: 4 });
    expect(at(2, 2, [text('b')])).toEqual({ line: 0, col: 13 });
    expect(at(0, 0, [alt('f')])).toEqual({ line: 0, col: 3 });
    expect(at(0, 3, [alt('f')])).toEqual({ line: 0, col: 7 });
    expect(at(0, 8, [alt('b')])).toEqual({ line: 0, col: 4 });
    expect(at(3, 0, [text('w')])).toEqual({ line: 3, col: 1 });
  });

  it('pages by the view height and keeps the view on the cursor', () => {
    const holder = new FakeHolder(Array.from({ length: 100 }, (_, i) => `l${i}`));
    let d = open(holder, 10);
    expect(d.state).toMatchObject({ top: 90, cursor: { line: 99 } });
    d = run(holder, d, [named('pageup')]);
    expect(d.state).toMatchObject({ top: 80, cursor: { line: 89 } });
    d = run(holder, d, [text('g')]);
    expect(d.state).toMatchObject({ top: 0, cursor: { line: 0 } });
    d = run(holder, d, [named('pageup')]);
    expect(d.state).toMatchObject({ top: 0, cursor: { line: 0 } });
    d = run(holder, d, [named('pagedown'), named('pagedown')]);
    expect(d.state).toMatchObject({ top: 20, cursor: { line: 20 } });
    d = run(holder, d, [text('G'), named('pagedown')]);
    expect(d.state).toMatchObject({ top: 90, cursor: { line: 99 } });
  });

  const motionKeys: CopyAction[] = [
    ...keys('hjklwbe0$gGvV'),
    ...(['up', 'down', 'left', 'right', 'pageup', 'pagedown', 'home', 'end', 'space'] as const).map(named),
    ...['f', 'b', 'n', 'p', 'a', 'e'].map(ctrl),
    alt('f'),
    alt('b'),
  ];
  const lineArb = fc.array(fc.constantFrom('a', 'b', ' ', '.', '中', '_'), { maxLength: 14 }).map((a) => a.join('').replace(/ +$/, ''));

  it('keeps the cursor, the view and the loaded window in bounds under any keys (property)', () => {
    fc.assert(
      fc.property(
        fc.array(lineArb, { minLength: 1, maxLength: 60 }),
        fc.integer({ min: 1, max: 12 }),
        fc.array(fc.constantFrom(...motionKeys), { maxLength: 40 }),
        (lines, height, actions) => {
          const holder = new FakeHolder(lines);
          let d = open(holder, height, 30);
          invariantsHold(d.state);
          for (const a of actions) {
            d = run(holder, d, [a]);
            invariantsHold(d.state);
          }
          expect(d.effects).toEqual([]);
        },
      ),
    );
  });

  it('keeps the loaded window bounded while roaming a long history (property)', () => {
    const holder = new FakeHolder(Array.from({ length: 5000 }, (_, i) => `line ${i}`));
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...keys('gGjk'), named('pageup'), named('pagedown')), { maxLength: 60 }), (actions) => {
        let d = open(holder, 24, 40);
        for (const a of actions) {
          d = run(holder, d, [a]);
          invariantsHold(d.state);
          // Every line in view is loaded once the pages are in.
          for (let line = d.state.top; line < d.state.top + d.state.height; line++) {
            expect(d.state.window.rows[line - d.state.window.from]?.runs[0]?.s).toBe(`line ${line}`);
          }
        }
      }),
    );
    expect(Math.max(...holder.requests.map((r) => r.count))).toBeLessThanOrEqual(COPY_PAGE_LINES);
  });
});

/** The selected text, from the lines themselves: what the state's text must equal. */
function expectedSelection(lines: string[], anchor: { line: number; col: number }, cursor: { line: number; col: number }, lineWise: boolean): string {
  const [a, b] = anchor.line < cursor.line || (anchor.line === cursor.line && anchor.col <= cursor.col) ? [anchor, cursor] : [cursor, anchor];
  if (lineWise) return lines.slice(a.line, b.line + 1).join('\n');
  if (a.line === b.line) return lines[a.line].slice(a.col, b.col + 1);
  return [lines[a.line].slice(a.col), ...lines.slice(a.line + 1, b.line), lines[b.line].slice(0, b.col + 1)].join('\n');
}

describe('scroll (mouse wheel)', () => {
  it('keeps the lines ahead loaded a page at a time, never a sliver per notch', () => {
    const holder = new FakeHolder(Array.from({ length: 10_000 }, (_, i) => `l${i}`));
    let d = open(holder, 39);
    holder.requests = [];
    for (let notch = 0; notch < 600; notch++) {
      d = run(holder, d, [{ kind: 'scroll', lines: -3 }]);
      // The view is always loaded before the wheel reaches it.
      for (let line = d.state.top; line < d.state.top + 39; line++) expect(line >= d.state.window.from && line < d.state.window.from + d.state.window.rows.length).toBe(true);
    }
    expect(holder.requests.length).toBeLessThanOrEqual(Math.ceil(1800 / (PREFETCH_LINES / 2)) + 1);
    expect(holder.requests.every((r) => r.count === COPY_PAGE_LINES)).toBe(true);
  });

  it('moves the view, keeps the cursor on it, stops at the edges and says when it is at the bottom', () => {
    const holder = new FakeHolder(Array.from({ length: 100 }, (_, i) => `l${i}`));
    const d = open(holder, 5);
    expect(atBottom(d.state)).toBe(true);
    const back = run(holder, d, [{ kind: 'scroll', lines: -3 }]);
    expect(back.state.top).toBe(92);
    expect(back.state.cursor.line).toBe(96);
    expect(atBottom(back.state)).toBe(false);
    invariantsHold(back.state);
    const far = run(holder, back, [{ kind: 'scroll', lines: -1000 }]);
    expect(far.state.top).toBe(0);
    expect(far.state.cursor.line).toBe(4);
    invariantsHold(far.state);
    expect(far.state.window.from).toBe(0);
    const down = run(holder, far, [{ kind: 'scroll', lines: 1000 }]);
    expect(down.state.top).toBe(95);
    expect(atBottom(down.state)).toBe(true);
    invariantsHold(down.state);
    expect(down.effects).toEqual([]);
  });
});

describe('pointer (mouse selection)', () => {
  it('a press places the cursor, a drag selects from it, a release copies the dragged text and leaves', () => {
    const holder = new FakeHolder(['zero', 'alpha beta', 'gamma delta', 'last']);
    const d = open(holder, 4, 20);
    const pressed = run(holder, d, [{ kind: 'pointer', phase: 'press', row: 1, col: 6 }]);
    expect(pressed.state.cursor).toEqual({ line: 1, col: 6 });
    expect(pressed.state.selection).toBeNull();
    // A release with nothing dragged copies nothing.
    expect(run(holder, pressed, [{ kind: 'pointer', phase: 'release', row: 1, col: 6 }]).effects).toEqual([]);
    const done = run(holder, pressed, [
      { kind: 'pointer', phase: 'drag', row: 2, col: 3 },
      { kind: 'pointer', phase: 'drag', row: 2, col: 10 },
      { kind: 'pointer', phase: 'release', row: 2, col: 10 },
    ]);
    expect(done.effects).toEqual([{ kind: 'copy', text: 'beta\ngamma delta' }, { kind: 'exit' }]);
    expect(done.state.done).toBe(true);
  });
});

describe('selection and copy', () => {
  it('copies the selected slice of the lines, char-wise or line-wise, and leaves (property)', () => {
    const lineArb = fc.array(fc.constantFrom('a', 'b', ' ', '.', 'x'), { maxLength: 16 }).map((a) => a.join('').replace(/ +$/, ''));
    const moves = [...keys('hjklwbe0$'), named('pageup'), named('pagedown')];
    fc.assert(
      fc.property(
        fc.array(lineArb, { minLength: 1, maxLength: 40 }),
        fc.array(fc.constantFrom(...moves), { maxLength: 15 }),
        fc.array(fc.constantFrom(...moves), { maxLength: 15 }),
        fc.constantFrom('v', 'V', 'space'),
        fc.constantFrom('y', 'enter'),
        (lines, before, during, select, copy) => {
          const holder = new FakeHolder(lines);
          let d = run(holder, open(holder, 6, 20), before);
          d = run(holder, d, [select === 'space' ? named('space') : text(select), ...during]);
          const { selection, cursor } = d.state;
          expect(selection).not.toBeNull();
          const expected = expectedSelection(lines, selection!.anchor, cursor, selection!.lineWise);
          expect(selectionText(d.state)).toBe(expected);
          d = run(holder, d, [copy === 'y' ? text('y') : named('enter')]);
          expect(d.effects).toEqual([{ kind: 'copy', text: expected }, { kind: 'exit' }]);
          expect(d.state.done).toBe(true);
        },
      ),
    );
  });

  it('toggles the selection with v and space, switches to lines with V, and copies nothing without one', () => {
    const holder = new FakeHolder(['abc', 'def']);
    let d = open(holder);
    d = run(holder, d, [text('v')]);
    expect(d.state.selection).toEqual({ anchor: { line: 1, col: 0 }, lineWise: false });
    d = run(holder, d, [text('V')]);
    expect(d.state.selection).toEqual({ anchor: { line: 1, col: 0 }, lineWise: true });
    d = run(holder, d, [text('V')]);
    expect(d.state.selection).toBeNull();
    d = run(holder, d, [named('space'), named('space')]);
    expect(d.state.selection).toBeNull();
    d = run(holder, d, [text('y')]);
    expect(d.effects).toEqual([]);
    expect(d.state.done).toBe(false);
  });

  it('tells which cells of each line the selection covers, either way round', () => {
    const holder = new FakeHolder(['abcdef', 'ghijkl', 'mnopqr']);
    const forward = run(holder, open(holder, 3, 10), [text('g'), text('l'), text('v'), text('j'), text('j'), text('l')]);
    expect([0, 1, 2].map((line) => selectedRange(forward.state, line))).toEqual([
      { from: 1, to: 10 },
      { from: 0, to: 10 },
      { from: 0, to: 3 },
    ]);
    const backward = run(holder, open(holder, 3, 10), [text('l'), text('l'), text('v'), text('k'), text('h')]);
    expect([0, 1, 2].map((line) => selectedRange(backward.state, line))).toEqual([null, { from: 1, to: 10 }, { from: 0, to: 3 }]);
    const lines = run(holder, backward, [text('V')]);
    expect([0, 1, 2].map((line) => selectedRange(lines.state, line))).toEqual([null, { from: 0, to: 10 }, { from: 0, to: 10 }]);
    expect(selectedRange(run(holder, lines, [text('V')]).state, 1)).toBeNull();
  });

  it('joins soft-wrapped lines without a line break', () => {
    const holder = new FakeHolder(['abcde', 'fg', 'h'], new Set([1]));
    const d = run(holder, open(holder, 3, 5), [text('g'), text('V'), text('G'), text('y')]);
    expect(d.effects).toEqual([{ kind: 'copy', text: 'abcdefg\nh' }, { kind: 'exit' }]);
  });

  it('loads a selection longer than the window page by page before copying it', () => {
    const lines = Array.from({ length: 3000 }, (_, i) => `line ${i}`);
    const holder = new FakeHolder(lines);
    let d = open(holder, 10);
    d = run(holder, d, [text('$'), text('v'), text('g')]);
    // Roaming to the top let the bottom of the selection go out of the window.
    expect(d.state.window.from + d.state.window.rows.length).toBeLessThan(3000);
    // Unanswered pages: the copy waits, and keys cannot change the selection meanwhile.
    let step = copyModeStep(d.state, text('y'));
    expect(step.effects).toEqual([{ kind: 'fetch', from: expect.any(Number), count: expect.any(Number) }]);
    expect(step.state.copying).toBe(true);
    const blocked = copyModeStep(step.state, text('j'));
    expect(blocked.state).toBe(step.state);
    // Answered one by one, the pages end in one copy of the whole selection.
    const effects: CopyEffect[] = [];
    let state = step.state;
    let pending = step.effects;
    let pages = 0;
    while (pending.length > 0) {
      const fetch = pending.find((e) => e.kind === 'fetch');
      effects.push(...pending.filter((e) => e.kind !== 'fetch'));
      if (!fetch || fetch.kind !== 'fetch') break;
      step = copyModeStep(state, { kind: 'page', page: holder.page(fetch.from, fetch.count) });
      state = step.state;
      pending = step.effects;
      pages++;
    }
    expect(pages).toBeLessThan(3000 / COPY_PAGE_LINES + 5);
    expect(effects).toEqual([{ kind: 'copy', text: lines.join('\n') }, { kind: 'exit' }]);
  });

  it('refuses a selection of more lines than OSC 52 can carry, before fetching it', () => {
    const holder = new FakeHolder(Array.from({ length: COPY_MAX_LINES + 10 }, (_, i) => `l${i}`));
    const { state } = run(holder, open(holder), [text('v'), text('g')]);
    const asked = holder.requests.length;
    const step = copyModeStep(state, text('y'));
    expect(step.effects).toEqual([{ kind: 'notice', text: expect.stringContaining('too large') }]);
    expect(step.state.copying).toBe(false);
    // Only the view and its margins were ever asked for, never the selection.
    expect(asked).toBeLessThanOrEqual(4);
  });

  it('leaves with q or Esc, and ignores everything after', () => {
    for (const leave of [text('q'), named('escape')]) {
      const holder = new FakeHolder(['a']);
      const d = run(holder, open(holder), [leave]);
      expect(d.effects).toEqual([{ kind: 'exit' }]);
      expect(copyModeStep(d.state, text('j'))).toEqual({ state: d.state, effects: [] });
    }
  });
});

describe('search', () => {
  const lines = ['one needle', 'two', 'needle needle', 'three', 'four needle'];
  const all: Match[] = [
    { line: 0, col: 4, len: 6 },
    { line: 2, col: 0, len: 6 },
    { line: 2, col: 7, len: 6 },
    { line: 4, col: 5, len: 6 },
  ];

  function searched(prefix: '/' | '?', setup: CopyAction[] = []) {
    const holder = new FakeHolder(lines);
    let d = run(holder, open(holder, 5, 20), [...setup, text(prefix), ...keys('needle'), named('enter')]);
    expect(d.effects).toEqual([{ kind: 'search', text: 'needle' }]);
    expect(d.state.search).toMatchObject({ text: 'needle', waiting: true });
    d.effects = [];
    // The holder answers in scan order; the state keeps reading order.
    d = run(holder, d, [{ kind: 'searchResult', total: lines.length, matches: [...all].reverse(), truncated: false, dropped: 0 }]);
    expect(d.state.search?.matches).toEqual(all);
    return { holder, d };
  }

  it('/ jumps to the next match after the cursor; n and N step through them, wrapping', () => {
    const { holder, d } = searched('/', [text('g')]);
    expect(d.state.cursor).toEqual({ line: 0, col: 4 });
    const pos = (acts: CopyAction[]) => run(holder, d, acts).state.cursor;
    expect(pos([text('n')])).toEqual({ line: 2, col: 0 });
    expect(pos([text('n'), text('n')])).toEqual({ line: 2, col: 7 });
    expect(pos([text('n'), text('n'), text('n'), text('n')])).toEqual({ line: 0, col: 4 });
    expect(pos([text('N')])).toEqual({ line: 4, col: 5 });
    const wrapped = run(holder, { state: d.state, effects: [] }, [text('N')]);
    expect(wrapped.effects).toEqual([{ kind: 'notice', text: 'Search wrapped to the bottom.' }]);
  });

  it('? searches backward from the cursor; n keeps going backward', () => {
    const { holder, d } = searched('?');
    expect(d.state.cursor).toEqual({ line: 2, col: 7 });
    expect(run(holder, d, [text('n')]).state.cursor).toEqual({ line: 2, col: 0 });
    expect(run(holder, d, [text('N')]).state.cursor).toEqual({ line: 4, col: 5 });
  });

  it('edits the search text, cancels with Esc, repeats the last search on an empty one, and says when nothing matched', () => {
    const holder = new FakeHolder(lines);
    let d = run(holder, open(holder), [text('/'), ...keys('nx'), named('backspace'), named('escape')]);
    expect(d.state.prompt).toBeNull();
    expect(d.effects).toEqual([]);
    expect(d.state.done).toBe(false);
    d = run(holder, d, [text('/'), ...keys('zzz'), named('enter'), { kind: 'searchResult', total: 5, matches: [], truncated: false, dropped: 0 }]);
    expect(d.effects).toEqual([{ kind: 'search', text: 'zzz' }, { kind: 'notice', text: 'No match.' }]);
    d = run(holder, { state: d.state, effects: [] }, [text('?'), named('enter')]);
    expect(d.effects).toEqual([{ kind: 'search', text: 'zzz' }]);
  });
});

describe('dropped lines', () => {
  it('keeps the cursor, the view and the matches on their text when the scrollback drops lines', () => {
    const holder = new FakeHolder(Array.from({ length: 500 }, (_, i) => `line ${i}`));
    let d = open(holder, 10);
    d = run(holder, d, [named('pageup'), named('pageup'), text('v'), text('k')]);
    expect(d.state.cursor.line).toBe(478);
    expect(d.state.top).toBe(470);
    // The tab printed 30 lines into a full scrollback: the holder's line numbers moved up by 30.
    holder.lines = Array.from({ length: 500 }, (_, i) => `line ${i + 30}`);
    holder.dropped = 30;
    d = run(holder, d, [{ kind: 'searchResult', total: 500, matches: [{ line: 448, col: 0, len: 4 }], truncated: false, dropped: 30 }]);
    expect(d.state.top).toBe(440);
    expect(d.state.selection?.anchor.line).toBe(449);
    d = run(holder, d, [text('j')]);
    expect(d.state.cursor.line).toBe(449);
    for (let line = d.state.top; line < d.state.top + 10; line++) {
      expect(d.state.window.rows[line - d.state.window.from].runs[0].s).toBe(`line ${line + 30}`);
    }
  });
});
