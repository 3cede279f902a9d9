// Mouse reports a1 takes for itself never reach a tab (issue 18): a fast click on a chip that is
// not viewed (press and release in one read) views it and leaves no drag behind, and reports over
// the tab area reach the child only when the child asked for mouse reporting.
import { describe, it, expect, afterEach } from 'vitest';
import { chipColumn, e2e, KEY, PROMPT_SEEN, readStrip, sgrMouse, STRIP_ROW, tabNames, listing, waitForListing, waitForStrip, type E2E } from './harness.js';
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
    await catMark(a1);
    expect(surfaceText(a1)).not.toContain('^[');
    expect((await readStrip(a1)).text).not.toContain(DROP_MARKER);
    expect(tabNames(await listing(t))).toEqual(['agent', 'agent 2']);
    a1.write(KEY.nextTab);
    await waitForStrip(a1, ['agent', 'agent 2'], 'agent 2');
    await catMark(a1);
    expect(surfaceText(a1)).not.toContain('^[');
  });
});
