// The mouse on the strip (SPEC §8 "Mouse on the strip"): hover, a click views, `+` creates, a
// held or moved press drags with a `│` drop marker and reorders, right click opens Rename/Close,
// the `…` chip's menu lists every tab, and a click elsewhere closes a menu or the editor.
// Reports are SGR mouse sequences written to the client's input, as the outer terminal sends them.
import { describe, it, expect, afterEach } from 'vitest';
import {
  chipColumn,
  e2e,
  KEY,
  listing,
  probeViewed,
  PROMPT_SEEN,
  readStrip,
  sgrMouse,
  STRIP_ROW,
  stripPlaces,
  tabId,
  tabNames,
  waitForListing,
  waitForStrip,
  type E2E,
} from './harness.js';
import { PtyDriver, a1Argv } from '../helpers/pty.js';
import { isAlive } from '../helpers/procs.js';
import { waitFor } from '../helpers/wait.js';
import { escapeRegExp } from '../helpers/regex.js';

const ESC = '\x1b';
/** The drop marker the strip shows while a chip is dragged. */
const DROP_MARKER = '│';
/** A surface row well below the strip and any overlay box. */
const SURFACE_ROW = 30;

let t: E2E;
let extra: PtyDriver[] = [];
afterEach(async () => {
  for (const d of extra) d.dispose();
  extra = [];
  await t?.teardown();
});

/** A client in a terminal of `cols` columns (the harness's attach is always 120 wide). */
function attachSized(cols: number, rows: number): PtyDriver {
  const d = new PtyDriver({ argv: a1Argv(), env: t.env, cwd: t.home.dir, cols, rows });
  extra.push(d);
  return d;
}

/** A left click (press then release) at a 1-based column of the strip. */
function click(a1: PtyDriver, col: number, row = STRIP_ROW): void {
  a1.write(sgrMouse.leftPress(col, row) + sgrMouse.leftRelease(col, row));
}

function rightClick(a1: PtyDriver, col: number): void {
  a1.write(sgrMouse.rightPress(col, STRIP_ROW) + sgrMouse.rightRelease(col, STRIP_ROW));
}

/** Starts a1 and opens tabs until `names` are all there; returns their ids in order. */
async function withTabs(a1: PtyDriver, names: readonly string[]): Promise<string[]> {
  await a1.waitForText(PROMPT_SEEN);
  await waitForListing(t, names.slice(0, 1));
  for (let n = 2; n <= names.length; n++) {
    a1.write(KEY.newTab);
    await waitFor(async () => (await readStrip(a1)).viewed === names[n - 1], { what: `${names[n - 1]} viewed` });
  }
  const l = await waitForListing(t, names);
  return names.map((name) => tabId(l, name));
}

/** The row of the strip as text. */
async function stripText(a1: PtyDriver): Promise<string> {
  return (await readStrip(a1)).text;
}

/** Waits until some screen row below the strip matches `re`. */
function waitForBelowStrip(a1: PtyDriver, re: RegExp, what: string): Promise<string[]> {
  return a1.waitForScreen((lines) => lines.slice(1).some((l) => re.test(l)), undefined, what);
}

/** The menu's row for `label`: the label alone between the box's sides, maybe marked `•`. */
function menuRow(label: string, marked = false): RegExp {
  return new RegExp(`│ ${marked ? '•' : ' '} ${escapeRegExp(label)} +│`);
}

describe('mouse on the strip', () => {
  it('hovering a chip highlights it and moving away clears it', async () => {
    t = e2e();
    const a1 = t.attach();
    await withTabs(a1, ['agent', 'agent 2', 'agent 3']);
    await waitForStrip(a1, ['agent', 'agent 2', 'agent 3'], 'agent 3');
    const colA = await chipColumn(a1, 'agent');
    const colB = await chipColumn(a1, 'agent 2');
    await a1.flush();
    const plain = a1.cell(colA - 1, 0);
    // Both unviewed chips look the same before any hover.
    expect([a1.cell(colB - 1, 0).fg, a1.cell(colB - 1, 0).bg]).toEqual([plain.fg, plain.bg]);
    a1.write(sgrMouse.move(colA, STRIP_ROW));
    const lit = await waitFor(async () => {
      await a1.flush();
      const c = a1.cell(colA - 1, 0);
      return c.fg !== plain.fg || c.bg !== plain.bg ? c : null;
    }, { what: 'the hovered chip drawn in other colours' });
    // Only the hovered chip changed; the other unviewed chip keeps the plain colours.
    expect([a1.cell(colB - 1, 0).fg, a1.cell(colB - 1, 0).bg]).toEqual([plain.fg, plain.bg]);
    expect([lit.fg, lit.bg]).not.toEqual([plain.fg, plain.bg]);
    // Hovering moves with the pointer, and leaving the strip clears it.
    a1.write(sgrMouse.move(colB, STRIP_ROW));
    await waitFor(async () => {
      await a1.flush();
      const a = a1.cell(colA - 1, 0);
      const b = a1.cell(colB - 1, 0);
      return a.fg === plain.fg && a.bg === plain.bg && b.fg === lit.fg && b.bg === lit.bg;
    }, { what: 'the hover moved from the first chip to the second' });
    a1.write(sgrMouse.move(colB, SURFACE_ROW));
    await waitFor(async () => {
      await a1.flush();
      const b = a1.cell(colB - 1, 0);
      return b.fg === plain.fg && b.bg === plain.bg;
    }, { what: 'the hover cleared once the pointer left the strip' });
    // Hovering views nothing.
    expect((await readStrip(a1)).viewed).toBe('agent 3');
  });

  it('a left click on a chip views that tab', async () => {
    t = e2e();
    const a1 = t.attach();
    const all = ['agent', 'agent 2', 'agent 3'];
    const [first, second, third] = await withTabs(a1, all);
    click(a1, await chipColumn(a1, 'agent'));
    await waitForStrip(a1, all, 'agent');
    await probeViewed(a1, first);
    click(a1, await chipColumn(a1, 'agent 2'));
    await waitForStrip(a1, all, 'agent 2');
    await probeViewed(a1, second);
    click(a1, await chipColumn(a1, 'agent 3'));
    await waitForStrip(a1, all, 'agent 3');
    await probeViewed(a1, third);
    // A click moves nothing.
    expect(tabNames(await listing(t))).toEqual(all);
  });

  it('a left click on + opens a tab after the last and views it', async () => {
    t = e2e();
    const a1 = t.attach();
    await withTabs(a1, ['agent', 'agent 2']);
    click(a1, await chipColumn(a1, 'agent'));
    await waitForStrip(a1, ['agent', 'agent 2'], 'agent');
    const plus = (await stripPlaces(a1)).plus;
    expect(plus).not.toBeNull();
    click(a1, plus! + 1);
    await waitForStrip(a1, ['agent', 'agent 2', 'agent 3'], 'agent 3');
    const l = await waitForListing(t, ['agent', 'agent 2', 'agent 3']);
    await probeViewed(a1, tabId(l, 'agent 3'));
  });

  it('a press moved along the strip drags the chip with a │ marker, and the release reorders', async () => {
    t = e2e();
    const a1 = t.attach();
    const [first] = await withTabs(a1, ['agent', 'agent 2', 'agent 3']);
    const from = await chipColumn(a1, 'agent');
    a1.write(sgrMouse.leftPress(from, STRIP_ROW));
    a1.write(sgrMouse.leftDrag(from + 1, STRIP_ROW));
    await waitFor(async () => (await stripText(a1)).includes(DROP_MARKER), { what: 'the drop marker on the strip' });
    // Aim at the right half of the last chip: the marker goes after it.
    const last = (await stripPlaces(a1)).chips.find((c) => c.name.endsWith('agent 3'))!;
    a1.write(sgrMouse.leftDrag(last.x + last.w, STRIP_ROW));
    const marked = await waitFor(async () => {
      const text = await stripText(a1);
      return /agent 3 *│/.test(text) ? text : null;
    }, { what: 'the drop marker after the last chip' });
    // Nothing moved yet: the marker only shows where the chip would land.
    expect(tabNames(await listing(t))).toEqual(['agent', 'agent 2', 'agent 3']);
    a1.write(sgrMouse.leftRelease(marked.indexOf(DROP_MARKER) + 1, STRIP_ROW));
    const order = ['agent 2', 'agent 3', 'agent'];
    await waitForStrip(a1, order, 'agent');
    expect(await stripText(a1)).not.toContain(DROP_MARKER);
    expect(tabNames(await waitForListing(t, order))).toEqual(order);
    // The dragged chip was also the one pressed, so it is viewed and typed into.
    await probeViewed(a1, first);
  });

  it('a press held on a chip becomes a drag without moving; dropping at the front reorders', async () => {
    t = e2e();
    const a1 = t.attach();
    const ids = await withTabs(a1, ['agent', 'agent 2', 'agent 3']);
    const col = await chipColumn(a1, 'agent 3');
    a1.write(sgrMouse.leftPress(col, STRIP_ROW));
    // No motion at all: the hold alone shows the marker (before the held chip, where it is now).
    const held = await waitFor(async () => {
      const text = await stripText(a1);
      return /│ *\S* ?agent 3/.test(text) ? text : null;
    }, { what: 'the drop marker after holding the press' });
    expect(held).toContain(DROP_MARKER);
    const firstChip = (await stripPlaces(a1)).chips[0];
    // The left half of the first chip: the chip lands before it.
    a1.write(sgrMouse.leftDrag(firstChip.x + 1, STRIP_ROW));
    const marked = await waitFor(async () => {
      const text = await stripText(a1);
      const at = text.indexOf(DROP_MARKER);
      return at >= 0 && at < text.indexOf('agent') ? text : null;
    }, { what: 'the drop marker before the first chip' });
    a1.write(sgrMouse.leftRelease(marked.indexOf(DROP_MARKER) + 1, STRIP_ROW));
    const order = ['agent 3', 'agent', 'agent 2'];
    await waitForStrip(a1, order, 'agent 3');
    expect(tabNames(await waitForListing(t, order))).toEqual(order);
    await probeViewed(a1, ids[2]);
  });

  it('right click Rename opens the inline editor; a typed name and Enter rename the tab', async () => {
    t = e2e();
    const a1 = t.attach();
    const [first] = await withTabs(a1, ['agent', 'agent 2']);
    rightClick(a1, await chipColumn(a1, 'agent'));
    await waitForBelowStrip(a1, menuRow('Rename'), 'the chip menu with Rename');
    await waitForBelowStrip(a1, menuRow('Close'), 'the chip menu with Close');
    // Rename is first and highlighted: Enter picks it. The editor holds the old name; Ctrl+U empties it.
    a1.write('\r');
    await a1.waitForScreen((lines) => !lines.some((l) => menuRow('Rename').test(l)), undefined, 'the menu closed');
    a1.write('\x15');
    a1.write('api-fix');
    await waitFor(async () => (await stripText(a1)).includes('api-fix'), { what: 'the typed name in the strip editor' });
    // Not yet committed.
    expect(tabNames(await listing(t))).toEqual(['agent', 'agent 2']);
    a1.write('\r');
    await waitForStrip(a1, ['api-fix', 'agent 2'], 'agent 2');
    const l = await waitForListing(t, ['api-fix', 'agent 2']);
    expect(tabId(l, 'api-fix')).toBe(first);
    // The menu acted on the right-clicked chip; the viewed tab stays as it was.
    await probeViewed(a1, tabId(l, 'agent 2'));
  });

  it('right click Close closes an idle tab; Up/Down and a first letter move in the menu', async () => {
    t = e2e();
    const a1 = t.attach();
    const ids = await withTabs(a1, ['agent', 'agent 2', 'agent 3']);
    const idle = (await listing(t)).tabs.find((x) => x.id === ids[1])!;
    rightClick(a1, await chipColumn(a1, 'agent 2'));
    await waitForBelowStrip(a1, menuRow('Close'), 'the chip menu');
    // Down, Up and Down again land on Close; `c` from Close wraps back to Close.
    a1.write('\x1b[B\x1b[A\x1b[Bc\r');
    await waitForStrip(a1, ['agent', 'agent 3'], 'agent 3');
    await waitForListing(t, ['agent', 'agent 3']);
    await waitFor(() => !isAlive(idle.holderPid!) && !isAlive(idle.childPid!), { what: 'the closed tab’s holder and shell ended' });
    expect(a1.screenText().join('\n')).not.toContain('Stop "');
    await probeViewed(a1, ids[2]);
  });

  it('a first letter jumps in the chip menu: r picks Rename after moving to Close', async () => {
    t = e2e();
    const a1 = t.attach();
    await withTabs(a1, ['agent', 'agent 2']);
    rightClick(a1, await chipColumn(a1, 'agent 2'));
    await waitForBelowStrip(a1, menuRow('Rename'), 'the chip menu');
    a1.write('\x1b[B');
    a1.write('r\r');
    // Rename, not Close: the editor opens and the tab is still there.
    a1.write('\x15renamed-$((1+1))');
    await waitFor(async () => (await stripText(a1)).includes('renamed-$((1+1))'), { what: 'the rename editor holding the typed text' });
    expect(tabNames(await listing(t))).toEqual(['agent', 'agent 2']);
    a1.write(ESC);
    await waitForStrip(a1, ['agent', 'agent 2'], 'agent 2');
  });

  it('a click elsewhere closes the chip menu, and the editor, without acting', async () => {
    t = e2e();
    const a1 = t.attach();
    const ids = await withTabs(a1, ['agent', 'agent 2']);
    rightClick(a1, await chipColumn(a1, 'agent'));
    await waitForBelowStrip(a1, menuRow('Rename'), 'the chip menu');
    click(a1, 60, SURFACE_ROW);
    await a1.waitForScreen((lines) => !lines.some((l) => menuRow('Rename').test(l)), undefined, 'the menu closed by a click elsewhere');
    expect(tabNames(await listing(t))).toEqual(['agent', 'agent 2']);
    // F2 opens the editor; a click on the surface cancels it and keys reach the shell again.
    a1.write('\x1bOQ');
    a1.write('\x15zzz');
    await waitFor(async () => (await stripText(a1)).includes('zzz'), { what: 'the rename editor open' });
    click(a1, 60, SURFACE_ROW);
    await waitForStrip(a1, ['agent', 'agent 2'], 'agent 2');
    expect(tabNames(await listing(t))).toEqual(['agent', 'agent 2']);
    await probeViewed(a1, ids[1]);
  });

  it('at 40 columns with 6 tabs the … chip opens a menu of every tab, the viewed one marked; Enter views', async () => {
    t = e2e();
    const a1 = attachSized(40, 24);
    const names = ['agent', 'agent 2', 'agent 3', 'agent 4', 'agent 5', 'agent 6'];
    const ids = await withTabs(a1, names);
    const places = await stripPlaces(a1);
    expect(places.overflows).toHaveLength(1);
    expect(places.chips.length).toBeLessThan(names.length);
    expect(places.chips.map((c) => c.name)).toContain('agent 6');
    click(a1, places.overflows[0].x + 1);
    await waitForBelowStrip(a1, menuRow('agent 6', true), 'the overflow menu marking the viewed tab');
    const screen = a1.screenText().slice(1);
    for (const name of names) expect(screen.some((l) => menuRow(name, name === 'agent 6').test(l)), name).toBe(true);
    // Home goes to the first tab, Down to the second; Enter views it.
    a1.write('\x1b[H\x1b[B\r');
    await waitFor(async () => (await readStrip(a1)).viewed === 'agent 2', { what: 'agent 2 viewed from the overflow menu' });
    await a1.waitForScreen((lines) => !lines.some((l) => menuRow('agent 6').test(l)), undefined, 'the menu closed');
    await probeViewed(a1, ids[1]);
    expect(tabNames(await listing(t))).toEqual(names);
  });
});
