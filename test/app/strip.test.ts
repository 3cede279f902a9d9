import fc from 'fast-check';
import { propertyRuns } from '../helpers/runs.js';
import { describe, expect, it } from 'vitest';
import stringWidth from 'string-width';
import { CHIP_MAX_COLUMNS } from '../../src/app/strip/layout.js';
import { EDITOR_MAX_COLUMNS, EDITOR_MIN_COLUMNS, editorView, editorWidth } from '../../src/app/strip/editor.js';
import { GLYPHS, GLYPH_FRAMES, SPINNER_FRAMES, glyphText, type Glyph } from '../../src/status/glyphs.js';
import {
  DEFAULT_EMPTY_HINT, dropIndexAt, hitTest, layoutStrip, mostUrgentGlyph, type StripInput, type StripItem, type StripLayout, type StripTab,
} from '../../src/app/strip/layout.js';
import { renderStripRoles, renderStripText } from '../../src/app/strip/render.js';
import { clipToWidth, textWidth } from '../../src/app/strip/width.js';

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const graphemes = (s: string): string[] => [...segmenter.segment(s)].map((g) => g.segment);

const tab = (id: string, name = id, glyph: Glyph = 'none'): StripTab => ({ id, name, glyph });
const agents = (n: number): StripTab[] => Array.from({ length: n }, (_, i) => tab(`t${i}`, `agent ${i}`));

function strip(over: Partial<StripInput>): StripLayout {
  return layoutStrip({ cols: 80, tabs: [], viewed: null, hovered: null, drag: null, rename: null, spinnerFrame: 0, ...over });
}

const chips = (l: StripLayout) => l.items.filter((i): i is Extract<StripItem, { kind: 'chip' }> => i.kind === 'chip');
const find = <K extends StripItem['kind']>(l: StripLayout, kind: K) =>
  l.items.filter((i): i is Extract<StripItem, { kind: K }> => i.kind === kind);
const chipOf = (l: StripLayout, id: string) => l.items.find((i) => (i.kind === 'chip' || i.kind === 'editor') && i.tabId === id);

/** Ten tabs as issue 28 saw them, wide enough together that a 120-column strip viewing the
 *  tenth hides the first three. */
const ISSUE_TAB_NAMES = [
  'web-frontend', 'payments-api', 'api-tests', 'auth-service-v2', 'billing-worker', 'search-indexer', 'ci-pipeline-fix', 'docs-update', 'migrate-db', 'infra-terraform',
];

/** `+` (3), three overflow chips with a glyph (5 each) and the smallest chip worth showing (4). */
const WIDE_ENOUGH_FOR_EVERY_OVERFLOW = 22;

/** What must hold for every layout: one row, nothing overlapping, never wider than the terminal. */
function checkInvariants(l: StripLayout, input: StripInput): void {
  let end = 0;
  for (const item of l.items) {
    expect(item.x).toBeGreaterThanOrEqual(end);
    expect(item.w).toBeGreaterThan(0);
    expect(stringWidth(item.text)).toBe(item.w);
    expect(item.text).not.toMatch(/[\n\r\x1b]/);
    end = item.x + item.w;
  }
  expect(end).toBeLessThanOrEqual(l.cols);
  expect(stringWidth(renderStripText(l))).toBe(l.cols);
  expect([...renderStripRoles(l)]).toHaveLength(l.cols);
  if (l.cols > 0) {
    expect(find(l, 'plus')).toHaveLength(1);
    expect(l.items[l.items.length - 1].kind === 'plus' || l.items[l.items.length - 1].kind === 'hint').toBe(true);
  }
  // Every tab is either shown (as a chip or the editor) or listed by an overflow chip, once.
  const shown = l.items.flatMap((i) => (i.kind === 'chip' || i.kind === 'editor' ? [i.tabId] : []));
  const overflows = find(l, 'overflow');
  const hidden = overflows.flatMap((o) => o.hiddenTabIds);
  expect(overflows.length).toBeLessThanOrEqual(3);
  expect(new Set(overflows.map((o) => o.first)).size).toBe(overflows.length);
  const indexOf = (id: string) => input.tabs.findIndex((t) => t.id === id);
  for (const o of overflows) {
    expect(o.hiddenTabIds.length).toBeGreaterThan(0);
    // It carries the most urgent glyph it hides: `?` over `✗` over `✓`, and nothing else.
    const glyphs = o.hiddenTabIds.map((id) => input.tabs[indexOf(id)].glyph);
    const urgent = (['needs-input', 'error', 'done'] as const).find((g) => glyphs.includes(g)) ?? null;
    expect(o.glyph).toBe(urgent);
    expect(o.text).toBe(urgent ? ` ${glyphText(urgent, 0)} … ` : ' … ');
    expect(o.text.slice(o.glyphAt, o.glyphAt + o.glyphText.length)).toBe(urgent ? glyphText(urgent, 0) : '');
    // Its menu starts on one of its tabs: the one with that glyph when there is one.
    expect(o.hiddenTabIds).toContain(o.focusTabId);
    if (urgent) expect(input.tabs[indexOf(o.focusTabId)].glyph).toBe(urgent);
    expect(o.first).toBe(indexOf(o.hiddenTabIds[0]));
  }
  // `+` (3), an overflow chip with a glyph (5) and the smallest chip worth showing (4) fit in 12.
  if (hidden.length > 0 || l.cols >= 12) {
    expect([...shown, ...hidden].sort()).toEqual(input.tabs.map((t) => t.id).sort());
  }
  // Shown chips keep the tabs' order.
  const indices = l.items.flatMap((i) => (i.kind === 'chip' || i.kind === 'editor' ? [i.index] : []));
  expect(indices).toEqual([...indices].sort((a, b) => a - b));
  // Wide enough for an overflow chip per run of hidden tabs, each sits where its tabs are: after
  // every shown chip left of them and before every one right of them.
  if (l.cols >= WIDE_ENOUGH_FOR_EVERY_OVERFLOW) {
    const order = l.items.flatMap((i) =>
      i.kind === 'chip' || i.kind === 'editor' ? [[i.index, i.index]] : i.kind === 'overflow' ? [i.hiddenTabIds.map(indexOf)] : [],
    );
    for (let k = 1; k < order.length; k++) expect(Math.min(...order[k])).toBeGreaterThan(Math.max(...order[k - 1]));
  }
  if (input.viewed && input.tabs.some((t) => t.id === input.viewed) && l.cols >= 4) expect(shown).toContain(input.viewed);
  for (const c of chips(l)) expect(c.w).toBeLessThanOrEqual(CHIP_MAX_COLUMNS);
  if (l.cursor) {
    const editor = find(l, 'editor')[0];
    expect(l.cursor.x).toBeGreaterThanOrEqual(editor.x);
    expect(l.cursor.x).toBeLessThan(editor.x + editor.w);
  }
}

describe('width', () => {
  it('agrees with string-width, and clips within the width at grapheme boundaries (property)', () => {
    const text = fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.constantFrom('漢字', '👩‍👩‍👧', 'e\u0301', '🇫🇷', '\u200d', 'a\tb'));
    fc.assert(
      fc.property(text, fc.integer({ min: -1, max: 30 }), (s, w) => {
        expect(textWidth(s)).toBe(stringWidth(s));
        const c = clipToWidth(s, w);
        if (w < 1) expect(c).toBe('');
        else if (stringWidth(s) <= w) expect(c).toBe(s);
        else {
          expect(stringWidth(c)).toBeLessThanOrEqual(w);
          expect(c.endsWith('…')).toBe(true);
          const kept = graphemes(c.slice(0, -1));
          expect(kept).toEqual(graphemes(s).slice(0, kept.length));
        }
      }),
      { numRuns: propertyRuns(300) },
    );
  });
});

describe('glyphs', () => {
  it('are one column wide in every frame, and unresponsive and stalled differ from every other glyph', () => {
    for (const g of GLYPHS) for (const f of GLYPH_FRAMES[g]) expect(stringWidth(f)).toBe(1);
    const still = (g: Glyph) => glyphText(g, 0);
    const others = GLYPHS.filter((g) => g !== 'unresponsive' && g !== 'stalled').map(still);
    expect(others).not.toContain(still('unresponsive'));
    expect(others).not.toContain(still('stalled'));
    expect(still('unresponsive')).not.toBe(still('stalled'));
    expect(others).not.toContain('…');
  });

  it('spin through the frames for working and starting, and show nothing for none', () => {
    expect(glyphText('none', 3)).toBe('');
    expect(glyphText('working', 0)).toBe(SPINNER_FRAMES[0]);
    expect(glyphText('working', 1)).toBe(SPINNER_FRAMES[1]);
    expect(glyphText('working', SPINNER_FRAMES.length + 2)).toBe(SPINNER_FRAMES[2]);
    expect(glyphText('starting', 4)).toBe(SPINNER_FRAMES[4]);
    expect(glyphText('working', Number.NaN)).toBe(SPINNER_FRAMES[0]);
    expect(glyphText('needs-input', 7)).toBe('?');
  });
});

describe('chips', () => {
  it('read ` [glyph ]name `', () => {
    const l = strip({ tabs: [tab('a', 'agent'), tab('b', 'build', 'done')], viewed: 'a' });
    expect(chips(l).map((c) => c.text)).toEqual(['[agent]', ' ✓ build ']);
    expect(chips(l).map((c) => c.glyphText)).toEqual(['', '✓']);
    expect(renderStripText(l).trimEnd()).toBe('[agent] ✓ build  +');
  });

  it('keep the chip width while the spinner turns', () => {
    const widths = [0, 1, 2, 3, 9].map((f) => chips(strip({ tabs: [tab('a', 'agent', 'working')], spinnerFrame: f }))[0].w);
    expect(new Set(widths).size).toBe(1);
  });

  it('clip names by display width at a grapheme boundary: CJK, emoji, combining marks, ZWJ sequences, flags', () => {
    const names = ['a'.repeat(40), '漢字'.repeat(15), 'a漢字'.repeat(10), '👩‍👩‍👧'.repeat(12), 'e\u0301'.repeat(30), 'x🇫🇷'.repeat(10), '👍🏽'.repeat(12)];
    for (const glyph of ['none', 'error'] as const) {
      for (const name of names) {
        const c = chips(strip({ tabs: [tab('a', name, glyph)], viewed: 'a' }))[0];
        expect(c.w).toBeLessThanOrEqual(CHIP_MAX_COLUMNS);
        expect(c.w).toBeGreaterThanOrEqual(CHIP_MAX_COLUMNS - 1); // at most one column lost to a wide character
        const prefix = glyph === 'none' ? '[' : '[✗ ';
        expect(c.text.startsWith(prefix)).toBe(true);
        expect(c.text.endsWith('…]')).toBe(true);
        const kept = graphemes(c.text.slice(prefix.length, -2));
        expect(kept).toEqual(graphemes(name).slice(0, kept.length));
        expect(kept.length).toBeGreaterThan(0);
      }
    }
  });

  it('keep names that fit whole', () => {
    for (const name of ['漢字', '👩‍👩‍👧 team', 'cafe\u0301', '🇫🇷']) {
      expect(chips(strip({ tabs: [tab('a', name)] }))[0].text).toBe(` ${name} `);
    }
  });

  it('strip control characters from names', () => {
    expect(chips(strip({ tabs: [tab('a', 'ev\x1b[31mil\x07')] }))[0].text).toBe(' ev[31mil ');
  });

  it('mark the viewed and the hovered chip; the viewed chip stays viewed under the pointer', () => {
    const tabs = agents(3);
    const l = strip({ tabs, viewed: 't0', hovered: { kind: 'chip', tabId: 't1' } });
    expect(chips(l).map((c) => c.role)).toEqual(['viewed', 'hovered', 'other']);
    expect(chips(strip({ tabs, viewed: 't0', hovered: { kind: 'chip', tabId: 't0' } })).map((c) => c.role)).toEqual(['viewed', 'other', 'other']);
    expect(find(strip({ tabs, hovered: { kind: 'plus' } }), 'plus')[0].hovered).toBe(true);
    expect(find(strip({ tabs }), 'plus')[0].hovered).toBe(false);
  });
});

describe('no tabs', () => {
  it('shows `+` and the hint, clipped to fit', () => {
    const l = strip({ cols: 60 });
    expect(l.items.map((i) => i.kind)).toEqual(['plus', 'hint']);
    expect(renderStripText(l).trimEnd()).toBe(` + ${DEFAULT_EMPTY_HINT}`);
    const narrow = strip({ cols: 12 });
    expect(renderStripText(narrow)).toBe(' +   no tab…');
    expect(renderStripText(strip({ cols: 30, emptyHint: ' Ctrl+T opens one' }))).toBe(' +  Ctrl+T opens one'.padEnd(30));
    expect(strip({ cols: 3 }).items.map((i) => i.kind)).toEqual(['plus']);
  });
});

describe('overflow', () => {
  it('keeps the viewed chip and its nearest neighbours, with a `…` chip on each side that hides tabs', () => {
    const tabs = agents(10);
    // 40 columns: `+` and two `…` take 9, each chip 9: the viewed chip and one neighbour each side.
    const l = strip({ cols: 40, tabs, viewed: 't5' });
    expect(chips(l).map((c) => c.tabId)).toEqual(['t4', 't5', 't6']);
    expect(l.items.map((i) => i.kind)).toEqual(['overflow', 'chip', 'chip', 'chip', 'overflow', 'plus']);
    expect(find(l, 'overflow').map((o) => o.hiddenTabIds)).toEqual([['t0', 't1', 't2', 't3'], ['t7', 't8', 't9']]);
    expect(renderStripText(l).trimEnd()).toBe(' …  agent 4 [agent 5] agent 6  …  +');
    // At the ends, the room goes to the only side there is, and so does the one `…` chip.
    const first = strip({ cols: 40, tabs, viewed: 't0' });
    expect(chips(first).map((c) => c.tabId)).toEqual(['t0', 't1', 't2']);
    expect(first.items.map((i) => i.kind)).toEqual(['chip', 'chip', 'chip', 'overflow', 'plus']);
    const last = strip({ cols: 40, tabs, viewed: 't9' });
    expect(chips(last).map((c) => c.tabId)).toEqual(['t7', 't8', 't9']);
    expect(last.items.map((i) => i.kind)).toEqual(['overflow', 'chip', 'chip', 'chip', 'plus']);
  });

  it('shows a hidden tab that needs you on its side: ten tabs viewing the tenth, the third at `?` (issue 28)', () => {
    const names = ISSUE_TAB_NAMES;
    const tabs = names.map((n) => tab(n, n, n === 'api-tests' ? 'needs-input' : 'none'));
    const l = strip({ cols: 120, tabs, viewed: 'infra-terraform' });
    const [overflow] = find(l, 'overflow');
    expect(l.items[0]).toBe(overflow);
    expect(overflow).toMatchObject({ text: ' ? … ', glyph: 'needs-input', glyphText: '?', glyphAt: 1, focusTabId: 'api-tests' });
    expect(overflow.hiddenTabIds).toContain('api-tests');
    expect(renderStripText(l).trimEnd()).toMatch(/^ \? … {2}auth-service-v2 .* docs-update {2}migrate-db \[infra-terraform\] \+$/);
  });

  it('carries the most urgent glyph it hides: `?` over `✗` over `✓`; working, starting and the rest carry none', () => {
    const glyphOf = (hidden: Glyph[]) => {
      const tabs = [...hidden.map((g, i) => tab(`h${i}`, `hidden ${i}`, g)), tab('v', 'viewed')];
      return find(strip({ cols: 20, tabs, viewed: 'v' }), 'overflow')[0].text;
    };
    expect(glyphOf(['done', 'error', 'needs-input', 'working'])).toBe(' ? … ');
    expect(glyphOf(['done', 'error', 'working'])).toBe(' ✗ … ');
    expect(glyphOf(['done', 'none', 'stalled'])).toBe(' ✓ … ');
    expect(glyphOf(['working', 'starting', 'asleep', 'unresponsive', 'stalled', 'none'])).toBe(' … ');
    expect(mostUrgentGlyph(['none', 'done', 'needs-input', 'error'])).toBe('needs-input');
    expect(mostUrgentGlyph([])).toBeNull();
  });

  it('starts its menu on the most urgent tab it hides, else on the hidden tab next to the shown ones', () => {
    const tabs = agents(10);
    const plain = find(strip({ cols: 40, tabs, viewed: 't5' }), 'overflow');
    expect(plain.map((o) => o.focusTabId)).toEqual(['t3', 't7']);
    const marked = tabs.map((t) => (t.id === 't1' ? { ...t, glyph: 'error' as const } : t.id === 't8' ? { ...t, glyph: 'done' as const } : t));
    expect(find(strip({ cols: 40, tabs: marked, viewed: 't5' }), 'overflow').map((o) => [o.focusTabId, o.text])).toEqual([['t1', ' ✗ … '], ['t8', ' ✓ … ']]);
  });

  it('puts one `…` chip between the viewed chip and a rename editor further away', () => {
    const l = strip({ cols: 50, tabs: agents(10), viewed: 't1', rename: { tabId: 't8', text: 'other', cursor: 5, error: null } });
    const hidden = find(l, 'overflow').map((o) => o.hiddenTabIds.map((id) => Number(id.slice(1))));
    for (const run of hidden) expect(run).toEqual(Array.from({ length: run.length }, (_, k) => run[0] + k));
    const kinds = l.items.map((i) => (i.kind === 'chip' ? i.tabId : i.kind === 'editor' ? `edit ${i.tabId}` : i.kind));
    expect(kinds.indexOf('edit t8')).toBeGreaterThan(kinds.indexOf('t1'));
    expect(kinds.slice(kinds.indexOf('t1'), kinds.indexOf('edit t8'))).toContain('overflow');
  });

  it('shows no `…` chip when everything fits', () => {
    const l = strip({ cols: 80, tabs: agents(5), viewed: 't4' });
    expect(find(l, 'overflow')).toHaveLength(0);
    expect(chips(l)).toHaveLength(5);
  });

  it('clips the viewed chip itself when even it does not fit, and never adds an empty `…` chip', () => {
    const l = strip({ cols: 12, tabs: [tab('a', 'a long tab name')], viewed: 'a' });
    expect(renderStripText(l)).toBe('[a long…] + ');
    expect(find(l, 'overflow')).toHaveLength(0);
  });

  it('gives the glyph and then the padding up before the name in a very narrow strip', () => {
    const tabs = [tab('a', 'agent', 'error'), tab('b')];
    expect(renderStripText(strip({ cols: 13, tabs, viewed: 'a' }))).toBe('[✗ ag…] …  + ');
    expect(renderStripText(strip({ cols: 10, tabs, viewed: 'a' }))).toBe('[a…] …  + ');
    expect(renderStripText(strip({ cols: 7, tabs, viewed: 'a' }))).toBe('[a…] + ');
    expect(renderStripText(strip({ cols: 5, tabs, viewed: 'a' }))).toBe('a… + ');
    expect(renderStripText(strip({ cols: 4, tabs, viewed: 'a' }))).toBe('… + ');
    expect(chips(strip({ cols: 13, tabs, viewed: 'a' }))[0].glyphText).toBe('✗');
    // A dropped glyph is not coloured as one, even when the name starts with the same character.
    expect(chips(strip({ cols: 10, tabs: [tab('a', '!!!!!', 'unresponsive'), tab('b')], viewed: 'a' }))[0]).toMatchObject({ text: '[!…]', glyphText: '' });
  });

  it('never exceeds the width, down to a single column where only `+` remains', () => {
    const tabs = [tab('a', '漢字の名前', 'working'), tab('b', '👩‍👩‍👧', 'done'), tab('c', 'e\u0301e\u0301')];
    for (let cols = 0; cols <= 40; cols++) {
      for (const viewed of ['a', 'b', 'c']) {
        const input: StripInput = { cols, tabs, viewed, hovered: null, drag: { tabId: 'a', dropIndex: 2 }, rename: null, spinnerFrame: 0 };
        checkInvariants(layoutStrip(input), input);
      }
    }
    expect(renderStripText(strip({ cols: 1, tabs, viewed: 'a' }))).toBe('+');
    expect(renderStripText(strip({ cols: 2, tabs, viewed: 'a' }))).toBe('+ ');
    expect(renderStripText(strip({ cols: 3, tabs, viewed: 'a' }))).toBe(' + ');
    expect(strip({ cols: 0, tabs, viewed: 'a' }).items).toEqual([]);
  });

  it('holds for any tabs, width, pointer, drag and editor (property)', () => {
    const names = fc.constantFrom('agent', 'a', '', '漢字の名前がとても長いタブです', '👩‍👩‍👧‍👦 family', 'e\u0301\u0301 mark', '🇫🇷🇩🇪', 'x'.repeat(64), '\u200d');
    const glyph = fc.constantFrom(...GLYPHS);
    const input = fc
      .record({
        cols: fc.integer({ min: 0, max: 160 }),
        tabs: fc.array(fc.tuple(names, glyph), { maxLength: 25 }),
        viewedAt: fc.integer({ min: -1, max: 25 }),
        hoverAt: fc.integer({ min: -3, max: 25 }),
        dragAt: fc.option(fc.integer({ min: 0, max: 26 })),
        rename: fc.option(fc.record({ at: fc.integer({ min: 0, max: 25 }), text: names, cursor: fc.integer({ min: -2, max: 70 }) })),
        spinnerFrame: fc.nat(),
      })
      .map(({ cols, tabs, viewedAt, hoverAt, dragAt, rename, spinnerFrame }): StripInput => {
        const list = tabs.map(([name, g], i) => tab(`t${i}`, name, g));
        const id = (i: number) => list[i]?.id ?? null;
        return {
          cols,
          tabs: list,
          viewed: id(viewedAt),
          hovered: hoverAt === -2 ? { kind: 'plus' } : hoverAt === -3 ? { kind: 'overflow', first: 0 } : id(hoverAt) ? { kind: 'chip', tabId: id(hoverAt)! } : null,
          drag: dragAt !== null && list.length > 0 ? { tabId: list[0].id, dropIndex: dragAt } : null,
          rename: rename && id(rename.at) ? { tabId: id(rename.at)!, text: rename.text, cursor: rename.cursor, error: null } : null,
          spinnerFrame,
        };
      });
    fc.assert(
      fc.property(input, (i) => {
        const l = layoutStrip(i);
        checkInvariants(l, i);
        for (let x = -1; x <= l.cols; x++) {
          const d = dropIndexAt(l, x);
          expect(d).toBeGreaterThanOrEqual(0);
          expect(d).toBeLessThanOrEqual(i.tabs.length);
        }
      }),
      { numRuns: propertyRuns(400) },
    );
  });
});

describe('hit testing', () => {
  it('names the chip, `…` or `+` under every column, and nothing elsewhere', () => {
    const tabs = agents(10);
    const l = strip({ cols: 40, tabs, viewed: 't5', drag: { tabId: 't5', dropIndex: 5 } });
    for (const item of l.items) {
      for (let x = item.x; x < item.x + item.w; x++) {
        const t = hitTest(l, x);
        if (item.kind === 'chip') expect(t).toEqual({ kind: 'chip', tabId: item.tabId });
        else if (item.kind === 'overflow') expect(t).toEqual({ kind: 'overflow', first: item.first });
        else if (item.kind === 'plus') expect(t).toEqual({ kind: 'plus' });
        else expect(t).toBeNull();
      }
    }
    const plus = find(l, 'plus')[0];
    expect(hitTest(l, plus.x + plus.w)).toBeNull();
    expect(hitTest(l, -1)).toBeNull();
    expect(hitTest(l, 1000)).toBeNull();
    expect(hitTest(strip({ cols: 40 }), 10)).toBeNull(); // the hint is not a target
  });

  it('treats the rename editor as its tab', () => {
    const l = strip({ tabs: agents(2), viewed: 't1', rename: { tabId: 't1', text: 'new', cursor: 3, error: null } });
    const editor = find(l, 'editor')[0];
    expect(hitTest(l, editor.x + 2)).toEqual({ kind: 'chip', tabId: 't1' });
  });
});

describe('drag to reorder', () => {
  it('draws `│` before the tab at the drop index, or after the last', () => {
    const tabs = agents(3);
    const text = (dropIndex: number) => renderStripText(strip({ cols: 40, tabs, viewed: 't0', drag: { tabId: 't0', dropIndex } })).trimEnd();
    expect(text(0)).toBe('│[agent 0] agent 1  agent 2  +');
    expect(text(1)).toBe('[agent 0]│ agent 1  agent 2  +');
    expect(text(3)).toBe('[agent 0] agent 1  agent 2 │ +');
    expect(text(99)).toBe(text(3));
  });

  it('puts the marker before the item that holds the drop index when tabs are hidden', () => {
    const l = strip({ cols: 44, tabs: agents(10), viewed: 't5', drag: { tabId: 't5', dropIndex: 8 } });
    expect(renderStripText(l).trimEnd()).toBe(' …  agent 4 [agent 5] agent 6 │ …  +');
    expect(find(l, 'drop')[0].index).toBe(8);
  });

  it('maps a drop column to an index: left half before the chip, right half after it, `+` and beyond the end', () => {
    const tabs = agents(3);
    const l = strip({ cols: 40, tabs, viewed: 't0' });
    const [a, b, c] = chips(l);
    expect(dropIndexAt(l, a.x)).toBe(0);
    expect(dropIndexAt(l, a.x + 3)).toBe(0);
    expect(dropIndexAt(l, a.x + a.w - 1)).toBe(1);
    expect(dropIndexAt(l, b.x)).toBe(1);
    expect(dropIndexAt(l, b.x + b.w - 1)).toBe(2);
    expect(dropIndexAt(l, c.x + c.w - 1)).toBe(3);
    expect(dropIndexAt(l, find(l, 'plus')[0].x)).toBe(3);
    expect(dropIndexAt(l, 39)).toBe(3);
    expect(dropIndexAt(l, -5)).toBe(0);
  });

  it('keeps the index under the marker, and indexes hidden-tab layouts by the full order', () => {
    const l = strip({ cols: 40, tabs: agents(10), viewed: 't5', drag: { tabId: 't5', dropIndex: 5 } });
    const marker = find(l, 'drop')[0];
    expect(dropIndexAt(l, marker.x)).toBe(5);
    const first = chips(l)[0];
    expect(first.tabId).toBe('t4');
    expect(dropIndexAt(l, first.x)).toBe(4);
    // An overflow chip's left half is before the tabs it hides, its right half after them.
    const [left, right] = find(l, 'overflow');
    expect([dropIndexAt(l, left.x), dropIndexAt(l, left.x + left.w - 1)]).toEqual([0, 4]);
    expect([dropIndexAt(l, right.x), dropIndexAt(l, right.x + right.w - 1)]).toEqual([7, 10]);
  });
});

describe('rename editor', () => {
  const edit = (text: string, cursor: number, over: Partial<StripInput> = {}) =>
    strip({ tabs: agents(3), viewed: 't1', rename: { tabId: 't1', text, cursor, error: 'Names cannot be empty.' }, ...over });

  it('replaces the chip with the text being edited, and exposes the cursor column', () => {
    const l = edit('renamed', 3);
    const editor = find(l, 'editor')[0];
    expect(chips(l).map((c) => c.tabId)).toEqual(['t0', 't2']);
    expect(editor.text).toBe(' renamed'.padEnd(EDITOR_MIN_COLUMNS));
    expect(l.cursor).toEqual({ x: editor.x + 1 + 3 });
    expect(renderStripText(l)).not.toContain('empty');
  });

  it('grows with the text up to the cap, and scrolls to keep the cursor visible', () => {
    expect(editorWidth('')).toBe(EDITOR_MIN_COLUMNS);
    expect(editorWidth('a'.repeat(25))).toBe(27);
    expect(editorWidth('a'.repeat(64))).toBe(EDITOR_MAX_COLUMNS);
    const long = 'abcdefghij'.repeat(6);
    const atEnd = edit(long, long.length);
    const editor = find(atEnd, 'editor')[0];
    expect(editor.w).toBe(EDITOR_MAX_COLUMNS);
    expect(editor.text).toBe(` ${long.slice(long.length - (EDITOR_MAX_COLUMNS - 2))} `);
    expect(atEnd.cursor).toEqual({ x: editor.x + EDITOR_MAX_COLUMNS - 1 });
    const atStart = edit(long, 0);
    expect(find(atStart, 'editor')[0].text).toBe(` ${long.slice(0, EDITOR_MAX_COLUMNS - 2)} `);
    expect(atStart.cursor).toEqual({ x: editor.x + 1 });
  });

  it('keeps wide graphemes whole and puts the cursor on grapheme boundaries', () => {
    // Cursor after the second of 30 CJK characters in a 12-column editor: no scrolling needed.
    expect(editorView('漢'.repeat(30), 2, 12)).toEqual({ text: ` ${'漢'.repeat(5)} `, cursorX: 5 });
    // At the end of the text, the window scrolls just enough.
    expect(editorView('a漢字漢字漢字', 13, 8)).toEqual({ text: ' 字漢字 ', cursorX: 7 });
    // A wide character that only half fits is not drawn: a blank takes its place.
    expect(editorView('漢漢', 0, 5)).toEqual({ text: ' 漢  ', cursorX: 1 });
    // An offset inside a ZWJ sequence counts as before it.
    const family = '👩‍👩‍👧';
    expect(editorView(`a${family}b`, 3, 10).cursorX).toBe(2);
    expect(editorView(`a${family}b`, 1 + family.length, 10).cursorX).toBe(4);
    // A combining mark travels with its letter.
    expect(editorView('e\u0301e\u0301e\u0301', 3, 10)).toEqual({ text: ' e\u0301e\u0301e\u0301      ', cursorX: 2 });
    // Cursor on a wide grapheme that must stay visible whole.
    const v = editorView('abcdef漢', 6, 6);
    expect(v.text).toBe(' ef漢 ');
    expect(v.cursorX).toBe(3);
    for (let w = 0; w <= 4; w++) expect(stringWidth(editorView('漢字', 1, w).text)).toBe(w);
  });

  it('stays on screen for a tab other than the viewed one, and survives a narrow strip', () => {
    const l = strip({ cols: 50, tabs: agents(10), viewed: 't1', rename: { tabId: 't8', text: 'other', cursor: 5, error: null } });
    expect(chips(l).some((c) => c.tabId === 't1')).toBe(true);
    expect(find(l, 'editor')[0].tabId).toBe('t8');
    const narrow = edit('some long new name', 5, { cols: 9 });
    const editor = find(narrow, 'editor')[0];
    expect(editor.w).toBe(6);
    expect(narrow.cursor!.x).toBeLessThan(editor.x + editor.w);
  });
});

describe('strip snapshots', () => {
  /** Each case as the text line and the role line between bars (so trailing blanks survive), with a
   *  caret line for the editor's cursor. */
  function show(cases: [string, StripInput][]): string {
    return cases
      .map(([title, input]) => {
        const l = layoutStrip(input);
        const lines = [`${title} (cols ${input.cols})`, `|${renderStripText(l)}|`, `|${renderStripRoles(l)}|`];
        if (l.cursor) lines.push(` ${' '.repeat(l.cursor.x)}^ cursor`);
        return lines.join('\n');
      })
      .join('\n\n') + '\n';
  }
  const base = (over: Partial<StripInput>): StripInput => ({ cols: 80, tabs: [], viewed: null, hovered: null, drag: null, rename: null, spinnerFrame: 0, ...over });

  it('one tab', async () => {
    await expect(show([
      ['viewed', base({ tabs: [tab('a', 'agent')], viewed: 'a' })],
      ['narrow', base({ cols: 8, tabs: [tab('a', 'agent')], viewed: 'a' })],
      ['no tabs', base({ cols: 50 })],
    ])).toMatchFileSnapshot('../../snapshots/strip/one-tab.txt');
  });

  it('many tabs with overflow', async () => {
    const tabs = agents(14);
    await expect(show([120, 80, 40, 20, 10, 6].map((cols) => [`viewed agent 7`, base({ cols, tabs, viewed: 't7' })]))).toMatchFileSnapshot(
      '../../snapshots/strip/overflow.txt',
    );
  });

  it('wide names', async () => {
    const tabs = [
      tab('a', '漢字の名前がとても長いタブです'), tab('b', '👩‍👩‍👧 family of emoji', 'working'), tab('c', 'cafe\u0301 combining marks'),
      tab('d', '🇫🇷🇩🇪🇯🇵🇧🇷🇮🇳🇨🇦🇲🇽🇰🇷🇮🇹🇪🇸', 'done'), tab('e', 'short'),
    ];
    await expect(show([
      ['all fit', base({ cols: 100, tabs, viewed: 'a' })],
      ['overflow', base({ cols: 50, tabs, viewed: 'b' })],
    ])).toMatchFileSnapshot('../../snapshots/strip/wide-names.txt');
  });

  it('every status glyph', async () => {
    const tabs = GLYPHS.map((g) => tab(g, g, g));
    await expect(show([
      ['frame 0', base({ cols: 140, tabs, viewed: 'none' })],
      ['frame 1', base({ cols: 140, tabs, viewed: 'none', spinnerFrame: 1 })],
    ])).toMatchFileSnapshot('../../snapshots/strip/glyphs.txt');
  });

  it('hover', async () => {
    const tabs = agents(4);
    await expect(show([
      ['hover agent 2', base({ cols: 60, tabs, viewed: 't0', hovered: { kind: 'chip', tabId: 't2' } })],
      ['hover the viewed chip', base({ cols: 60, tabs, viewed: 't0', hovered: { kind: 'chip', tabId: 't0' } })],
    ])).toMatchFileSnapshot('../../snapshots/strip/hover.txt');
  });

  it('rename editor', async () => {
    const tabs = agents(4);
    const rename = (text: string, cursor: number, tabId = 't1') => ({ tabId, text, cursor, error: null });
    const long = 'a much longer name than any chip would ever show';
    await expect(show([
      ['short name, cursor at end', base({ tabs, viewed: 't1', rename: rename('build', 5) })],
      ['empty', base({ tabs, viewed: 't1', rename: rename('', 0) })],
      ['long name, cursor at end', base({ tabs, viewed: 't1', rename: rename(long, long.length) })],
      ['long name, cursor at start', base({ tabs, viewed: 't1', rename: rename(long, 0) })],
      ['CJK, cursor in the middle', base({ tabs, viewed: 't1', rename: rename('漢字の名前', 2) })],
      ['editing an unviewed tab', base({ tabs, viewed: 't0', rename: rename('other', 5, 't3') })],
    ])).toMatchFileSnapshot('../../snapshots/strip/rename.txt');
  });

  it('drag with the drop marker', async () => {
    const tabs = agents(4);
    const drag = (dropIndex: number) => ({ tabId: 't1', dropIndex });
    await expect(show([
      ['drop at 0', base({ cols: 60, tabs, viewed: 't1', drag: drag(0) })],
      ['drop at 3', base({ cols: 60, tabs, viewed: 't1', drag: drag(3) })],
      ['drop at the end', base({ cols: 60, tabs, viewed: 't1', drag: drag(4) })],
      ['drop with overflow', base({ cols: 40, tabs: agents(12), viewed: 't6', drag: drag(7) })],
    ])).toMatchFileSnapshot('../../snapshots/strip/drag.txt');
  });
});

describe('the viewed marker and chip numbers', () => {
  it('marks the viewed chip with brackets at the width it has when not viewed, so switching never moves the strip', () => {
    const tabs = [tab('a', 'agent', 'working'), tab('b', 'build', 'done'), tab('c', 'a long name for a tab')];
    const layouts = ['a', 'b', 'c'].map((viewed) => strip({ tabs, viewed }));
    const places = layouts.map((l) => chips(l).map((c) => [c.x, c.w]));
    expect(places[1]).toEqual(places[0]);
    expect(places[2]).toEqual(places[0]);
    expect(chips(layouts[1]).map((c) => c.text)).toEqual([' ⠋ agent ', '[✓ build]', ' a long name for a… ']);
    expect(chips(layouts[1])[1]).toMatchObject({ glyphText: '✓', glyphAt: 1 });
  });

  it('starts each chip with its 1-based position when numbers are on, glyph after the number', () => {
    const tabs = [tab('a', 'bash'), tab('b', 'claude', 'done'), ...agents(9).slice(1).map((t, i) => ({ ...t, id: `x${i}` }))];
    const l = strip({ cols: 200, tabs, viewed: 'a', numbers: true });
    const texts = chips(l).map((c) => c.text);
    expect(texts.slice(0, 2)).toEqual(['[1 bash]', ' 2 ✓ claude ']);
    expect(texts[9]).toBe(' 10 agent 8 ');
    expect(chips(l)[1]).toMatchObject({ glyphText: '✓', glyphAt: 3 });
    expect(chips(strip({ tabs, viewed: 'a' }))[0].text).toBe('[bash]');
  });

  it('keeps the number before the glyph when a numbered chip is clipped', () => {
    const tabs = [tab('a', 'agent', 'error'), tab('b')];
    expect(renderStripText(strip({ cols: 15, tabs, viewed: 'a', numbers: true }))).toBe('[1 ✗ ag…] …  + ');
    expect(renderStripText(strip({ cols: 12, tabs, viewed: 'a', numbers: true }))).toBe('[1 a…] …  + ');
  });

  it('says how to open a tab and how to leave when there is none', () => {
    expect(renderStripText(strip({ cols: 60, tabs: [] })).trimEnd()).toBe(' +   no tabs · Alt+A or + opens one · Alt+E detaches');
    expect(renderStripText(strip({ cols: 30, tabs: [], emptyHint: '  hint' })).trimEnd()).toBe(' +   hint');
  });
});
