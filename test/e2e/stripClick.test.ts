// Mouse reports a1 takes for itself never reach a tab (issue 18): a fast click on a chip that is
// not viewed (press and release in one read) views it and leaves no drag behind, and reports over
// the tab area reach the child only when the child asked for mouse reporting. A right click opens
// the chip's menu at that chip (issue 28).
import { describe, it, expect, afterEach } from 'vitest';
import { chipColumn, e2e, KEY, PROMPT_SEEN, readStrip, sgrMouse, STRIP_ROW, stripPlaces, tabNames, listing, waitForListing, waitForStrip, type E2E } from './harness.js';
import type { PtyDriver } from '../helpers/pty.js';
import { waitFor } from '../helpers/wait.js';

/** The drop marker the strip shows while a chip is dragged. */
const DROP_MARKER = '│';
const SURFACE_ROW = 30;

let t: E2E;
afterEach(async () => {
  await t?.teardown();
});

let marks = 0;
/** Types a line the tab's `cat -v` echoes back, and waits for the echo: everything sent to the
 * tab before it has been read by `cat`. */
async function catMark(a1: PtyDriver): Promise<string> {
  const mark = `mark-${++marks}-end`;
  a1.write(`${mark}\r`);
  await a1.waitForScreen((lines) => lines.filter((l) => l.includes(mark)).length >= 2, undefined, `cat -v echoing ${mark}`);
  return mark;
}

/** The screen below the strip, as text. */
function surfaceText(a1: PtyDriver): string {
  return a1.screenText().slice(1).join('\n');
}

/** Runs `cat -v` in the viewed tab (after `setup`) and waits until it reads. */
async function runCat(a1: PtyDriver, setup: string): Promise<void> {
  a1.write(`clear; ${setup}echo cat-$((6*7)); cat -v\r`);
  await a1.waitForText('cat-42');
  await catMark(a1);
}

/** Starts a1 with two tabs, each running `cat -v` (after `setup`, if given); the second is viewed. */
async function twoCatTabs(setup = ''): Promise<PtyDriver> {
  const a1 = t.attach();
  await a1.waitForText(PROMPT_SEEN);
  await waitForListing(t, ['agent']);
  await runCat(a1, setup);
  a1.write(KEY.newTab);
  await waitForStrip(a1, ['agent', 'agent 2'], 'agent 2');
  await a1.waitForText(PROMPT_SEEN);
  await runCat(a1, setup);
  return a1;
}

/** Nothing a1 took for itself reached the viewed tab's `cat -v`: it shows no escape (`^[`). */
async function catSawNoEscape(a1: PtyDriver): Promise<void> {
  await catMark(a1);
  expect(surfaceText(a1)).not.toContain('^[');
}

/** Holds a left press on the chip called `name` until the drop marker shows. */
async function holdChip(a1: PtyDriver, name: string): Promise<void> {
  a1.write(sgrMouse.leftPress(await chipColumn(a1, name), STRIP_ROW));
  await waitFor(async () => (await readStrip(a1)).text.includes(DROP_MARKER), { what: 'the drop marker of a held press' });
}

describe('a fast click on the strip', () => {
  it('press and release in one read on an unviewed chip view it, leave no marker, and send the tab nothing', async () => {
    t = e2e();
    const a1 = await twoCatTabs();
    const col = await chipColumn(a1, 'agent');
    a1.write(sgrMouse.leftPress(col, STRIP_ROW) + sgrMouse.leftRelease(col, STRIP_ROW));
    await waitForStrip(a1, ['agent', 'agent 2'], 'agent');
    await catMark(a1);
    // Past the hold that would start a drag: still no marker.
    await new Promise((r) => setTimeout(r, 600));
    expect((await readStrip(a1)).text).not.toContain(DROP_MARKER);
    // A release elsewhere (on the strip, then on the surface) moves nothing and reaches no tab.
    const other = await chipColumn(a1, 'agent 2');
    a1.write(sgrMouse.leftRelease(other + 6, STRIP_ROW));
    a1.write(sgrMouse.leftRelease(20, SURFACE_ROW));
    await catSawNoEscape(a1);
    expect((await readStrip(a1)).text).not.toContain(DROP_MARKER);
    expect(tabNames(await listing(t))).toEqual(['agent', 'agent 2']);
    a1.write(KEY.nextTab);
    await waitForStrip(a1, ['agent', 'agent 2'], 'agent 2');
    await catSawNoEscape(a1);
  });

  it('a held press whose release was lost (motion with no button) ends without moving anything', async () => {
    t = e2e();
    const a1 = await twoCatTabs();
    await holdChip(a1, 'agent');
    // The button was let go outside the window: the next report is motion with no button held.
    a1.write(sgrMouse.move(60, SURFACE_ROW));
    await waitFor(async () => !(await readStrip(a1)).text.includes(DROP_MARKER), { what: 'the drop marker gone' });
    // A release far to the right moves nothing.
    a1.write(sgrMouse.leftRelease(100, STRIP_ROW));
    await catSawNoEscape(a1);
    expect(tabNames(await listing(t))).toEqual(['agent', 'agent 2']);
    expect((await readStrip(a1)).viewed).toBe('agent');
  });

  it('a press off the strip while a press is held cancels it: nothing moves and no chip is viewed by it', async () => {
    t = e2e();
    const a1 = await twoCatTabs();
    await holdChip(a1, 'agent');
    // A click on the tab area, in the column of the other chip.
    const other = await chipColumn(a1, 'agent 2');
    a1.write(sgrMouse.leftPress(other, SURFACE_ROW) + sgrMouse.leftRelease(other, SURFACE_ROW));
    await waitFor(async () => !(await readStrip(a1)).text.includes(DROP_MARKER), { what: 'the drop marker gone' });
    await catSawNoEscape(a1);
    expect((await readStrip(a1)).viewed).toBe('agent');
    expect(tabNames(await listing(t))).toEqual(['agent', 'agent 2']);
  });
});

describe('mouse reports and the tab', () => {
  it('a tab that asked for no mouse gets no report: not clicks, not the wheel, not reports a1 cannot read', async () => {
    t = e2e();
    const a1 = await twoCatTabs();
    a1.write(sgrMouse.leftPress(10, SURFACE_ROW) + sgrMouse.leftRelease(10, SURFACE_ROW));
    a1.write(sgrMouse.rightPress(10, SURFACE_ROW) + sgrMouse.rightRelease(10, SURFACE_ROW));
    a1.write(`\x1b[<65;10;${SURFACE_ROW}M`);
    await catSawNoEscape(a1);
    // A horizontal wheel, extra buttons, a wheel's release: no event of a1's, and still a1's.
    a1.write(`\x1b[<66;10;${SURFACE_ROW}M\x1b[<67;10;${SURFACE_ROW}M\x1b[<128;10;${SURFACE_ROW}M\x1b[<129;10;${SURFACE_ROW}m`);
    a1.write(`\x1b[<66;10;${STRIP_ROW}M\x1b[<64;10;${STRIP_ROW}m`);
    await catSawNoEscape(a1);
  });

  it('reports over the tab area reach the child only when it asked for the mouse, in its encoding; strip reports never', async () => {
    t = e2e();
    // Each tab's cat -v asked for clicks (1000) in SGR encoding (1006).
    const a1 = await twoCatTabs("printf '\\033[?1000h\\033[?1006h'; ");
    // Clicks and the wheel on the strip are a1's.
    a1.write(sgrMouse.leftPress(100, STRIP_ROW) + sgrMouse.leftRelease(100, STRIP_ROW));
    a1.write(`\x1b[<64;100;${STRIP_ROW}M\x1b[<65;100;${STRIP_ROW}M`);
    await catSawNoEscape(a1);
    a1.write(sgrMouse.leftPress(10, SURFACE_ROW) + sgrMouse.leftRelease(10, SURFACE_ROW));
    // Surface rows start under the strip: the child sees its own row numbers.
    await a1.waitForText(`^[[<0;10;${SURFACE_ROW - 1}M^[[<0;10;${SURFACE_ROW - 1}m`);
    await catMark(a1);
  });
});

describe('a right click on a chip', () => {
  it('opens the chip menu with its top-left corner at the clicked chip\'s column', async () => {
    t = e2e();
    const a1 = await twoCatTabs();
    a1.write(KEY.newTab);
    await waitForStrip(a1, ['agent', 'agent 2', 'agent 3'], 'agent 3');
    // Started: no glyph before a name, so a chip starts one column before its name.
    await waitFor(async () => (await readStrip(a1)).text.trimEnd() === ' agent  agent 2 [agent 3] +', { what: 'the third tab started' });
    for (const name of ['agent 2', 'agent 3']) {
      const chip = (await stripPlaces(a1)).chips.find((c) => c.name === name)!;
      const col = await chipColumn(a1, name);
      a1.write(sgrMouse.rightPress(col, STRIP_ROW) + sgrMouse.rightRelease(col, STRIP_ROW));
      const lines = await a1.waitForScreen((s) => s.some((l) => /│ +Rename +│/.test(l)), undefined, `the menu of ${name}`);
      // The box starts one row under the strip, at the chip's first column (its padding or bracket).
      const top = lines.findIndex((l, y) => y > 0 && l.includes('╭'));
      expect(top).toBe(2);
      expect(lines[top].indexOf('╭'), lines.slice(0, 6).join('\n')).toBe(chip.x - 1);
      a1.write('\x1b');
      await a1.waitForScreen((s) => !s.some((l) => /│ +Rename +│/.test(l)), undefined, 'the menu closed');
    }
  });
});
