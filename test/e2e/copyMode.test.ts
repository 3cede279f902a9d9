// Copy mode (issue 8) with the real binary in a PTY: the wheel and Alt+K freeze this client's
// view on the tab's history while the tab keeps printing, `/` finds every planted match in
// order, `y` puts exactly the selection on the clipboard with one OSC 52, and a second client
// and the child never notice.
import fs from 'node:fs';
import path from 'node:path';
import { describe, it, expect, afterEach } from 'vitest';
import { e2e, KEY, PROMPT_SEEN, sgrMouse, waitForListing, type E2E } from './harness.js';
import type { PtyDriver } from '../helpers/pty.js';
import { waitFor } from '../helpers/wait.js';

const CTRL_U = '\x15';
/** SGR wheel reports (buttons 64 and 65) over the surface, as the outer terminal sends them. */
const WHEEL_UP = '\x1b[<64;20;20M';
const WHEEL_DOWN = '\x1b[<65;20;20M';
const INDICATOR = /copy · line \d+ of \d+ · q leaves/;
/** Columns of the surface left of the indicator (top right of a 120-column screen). */
const LEFT_COLS = 60;

let t: E2E;
afterEach(async () => {
  await t?.teardown();
});

async function started(a1: PtyDriver): Promise<void> {
  await a1.waitForText(PROMPT_SEEN);
  await waitForListing(t, ['agent']);
}

function waitForIndicator(a1: PtyDriver, re: RegExp = INDICATOR): Promise<string[]> {
  return a1.waitForScreen((lines) => lines.some((l) => re.test(l)), undefined, `indicator ${String(re)}`);
}

/** The screen below the strip, left of where the indicator and notices are drawn. */
async function leftSide(a1: PtyDriver): Promise<string[]> {
  await a1.flush();
  return a1.screenText().slice(1).map((l) => l.slice(0, LEFT_COLS));
}

/** The screen row the outer cursor is on, left of the indicator. */
async function cursorRow(a1: PtyDriver): Promise<string> {
  await a1.flush();
  return a1.line(a1.cursor().y).slice(0, LEFT_COLS).trimEnd();
}

function ticksOn(lines: readonly string[]): number[] {
  return lines.flatMap((l) => [...l.matchAll(/tick (\d+)/g)].map((m) => Number(m[1])));
}

describe('copy mode', () => {
  it('scrolls back 200 lines with the wheel; the view holds while the tab prints; q returns to live', async () => {
    t = e2e();
    const a1 = t.attach();
    await started(a1);
    const counter = path.join(t.home.dir, 'ticks');
    a1.write(`seq 1 300 | sed 's/^/old /'; i=0; while :; do i=$((i+1)); echo "tick $i"; echo $i > ${counter}; sleep 0.02; done\r`);
    const ticks = () => Number(fs.readFileSync(counter, 'utf8').trim() || 0);
    await waitFor(() => fs.existsSync(counter) && ticks() > 300, { what: '300 ticks printed' });

    const atEntry = ticks();
    a1.write(WHEEL_UP.repeat(67)); // 67 notches of 3 lines: 201 lines back
    await waitForIndicator(a1);
    // The view settles 201 lines back: its newest tick is far behind the tab's.
    const frozen = await waitFor(async () => {
      const lines = await leftSide(a1);
      const shown = ticksOn(lines);
      return shown.length > 0 && Math.max(...shown) < atEntry - 150 ? lines : null;
    }, { what: 'the view 200 lines back' });
    const since = ticks();
    await waitFor(() => ticks() >= since + 25, { what: '25 more ticks printed' });
    expect(await leftSide(a1)).toEqual(frozen);
    expect(a1.screenText().some((l) => INDICATOR.test(l))).toBe(true);

    a1.write('q');
    const later = ticks();
    await a1.waitForScreen((lines) => !lines.some((l) => INDICATOR.test(l)) && Math.max(0, ...ticksOn(lines)) >= later, undefined, 'the live view again');

    // The wheel down at the bottom of the history also returns to live.
    a1.write(WHEEL_UP);
    await waitForIndicator(a1);
    // The history grows as the tab prints, so the bottom may take more than one notch to reach.
    const after = ticks();
    await waitFor(async () => {
      a1.write(WHEEL_DOWN);
      await a1.flush();
      const lines = a1.screenText();
      return !lines.some((l) => INDICATOR.test(l)) && Math.max(0, ...ticksOn(lines)) >= after;
    }, { what: 'live after wheeling down', intervalMs: 100 });
  });

  it('on the alternate screen without mouse reporting the wheel sends the child arrow keys, three a notch', async () => {
    t = e2e();
    const a1 = t.attach();
    await started(a1);
    const keys = path.join(t.home.dir, 'keys');
    a1.write(`printf '\\033[?1049h'; cat -v > ${keys}\r`);
    // The client shows the child's alternate screen (blank) once it knows the child is on it.
    await a1.waitForScreen((lines) => lines.slice(1).every((l) => l === ''), undefined, 'the alternate screen');
    await waitFor(() => fs.existsSync(keys), { what: 'cat started' });
    a1.write(WHEEL_UP + WHEEL_DOWN + '\r');
    await waitFor(() => fs.readFileSync(keys, 'utf8').includes('\n'), { what: 'the keys written' });
    expect(fs.readFileSync(keys, 'utf8')).toBe('^[[A^[[A^[[A^[[B^[[B^[[B\n');
    expect(a1.screenText().some((l) => INDICATOR.test(l))).toBe(false);
  });

  it('/ finds every planted word in 10,000 lines, in order, with n', async () => {
    t = e2e({ scrollbackLines: 20_000 });
    const a1 = t.attach();
    await started(a1);
    // The word is built by awk, so the command line itself does not contain it.
    a1.write(`seq 1 10000 | awk '{ if ($1 % 997 == 0) print "line " $1 " NEE" "DLE" $1; else print "line " $1 }'\r`);
    await a1.waitForText(/^line 10000$/);
    await a1.waitForScreen((lines) => lines.some((l) => l.startsWith(PROMPT_SEEN) && l.trim() === PROMPT_SEEN), undefined, 'the prompt back');

    a1.write(KEY.copyMode);
    await waitForIndicator(a1);
    a1.write('/NEEDLE');
    await waitForIndicator(a1, /\/NEEDLE/);
    a1.write('\r');
    const planted = Array.from({ length: 10 }, (_, k) => 997 * (k + 1));
    for (let k = 0; k < planted.length; k++) {
      if (k > 0) a1.write('n');
      await waitForIndicator(a1, new RegExp(`match ${k + 1} of 10 `));
      // The match's lines may still be on their way from the holder.
      await waitFor(async () => (await cursorRow(a1)) === `line ${planted[k]} NEEDLE${planted[k]}`, { what: `the cursor on match ${k + 1}` });
    }
    // n past the last wraps to the first.
    a1.write('n');
    await waitForIndicator(a1, /match 1 of 10 /);
    await waitFor(async () => (await cursorRow(a1)) === 'line 997 NEEDLE997', { what: 'the cursor back on match 1' });
    a1.write('q');
    await a1.waitForScreen((lines) => !lines.some((l) => INDICATOR.test(l) || /match \d+ of/.test(l)), undefined, 'copy mode left');
  });

  it('a keyboard selection emits exactly one OSC 52 carrying exactly the selected text', async () => {
    t = e2e();
    const a1 = t.attach();
    await started(a1);
    a1.write(`printf 'alpha beta\\ngamma delta\\n'\r`);
    await a1.waitForText(/^gamma delta$/);
    await a1.waitForScreen((lines) => lines.filter((l) => l === PROMPT_SEEN).length > 0, undefined, 'the prompt back');

    a1.write(KEY.copyMode);
    await waitForIndicator(a1);
    const mark = a1.mark();
    // From the prompt: up to "alpha beta", to "beta", select to the end of "delta", copy.
    a1.write('kk0w');
    await waitFor(async () => (await cursorRow(a1)) === 'alpha beta' && a1.cursor().x === 6, { what: 'the cursor on beta' });
    a1.write('vje');
    await waitFor(async () => (await cursorRow(a1)) === 'gamma delta' && a1.cursor().x === 10, { what: 'the cursor at the end of delta' });
    a1.write('y');
    await a1.waitForScreen((lines) => !lines.some((l) => INDICATOR.test(l)), undefined, 'copy mode left after y');
    const sequences = [...a1.rawOutput(mark).matchAll(/\x1b\]52;c;([A-Za-z0-9+/=]*)\x07/g)];
    expect(sequences).toHaveLength(1);
    expect(Buffer.from(sequences[0][1], 'base64').toString('utf8')).toBe('beta\ngamma delta');
    expect(a1.rawOutput(mark).split('\x1b]52;').length).toBe(2);
  });

  it('a mouse drag over a tab that does not own the mouse emits one OSC 52 carrying exactly the dragged text', async () => {
    t = e2e();
    const a1 = t.attach();
    await started(a1);
    a1.write(`printf 'alpha beta\\ngamma delta\\n'\r`);
    await a1.waitForText(/^gamma delta$/);
    const screen = await a1.waitForScreen((lines) => lines.filter((l) => l === PROMPT_SEEN).length > 0, undefined, 'the prompt back');
    // SGR rows and columns are 1-based: "beta" starts at column 7, "delta" ends at column 11.
    const alphaRow = screen.indexOf('alpha beta') + 1;
    const gammaRow = screen.indexOf('gamma delta') + 1;
    const mark = a1.mark();
    a1.write(sgrMouse.leftPress(7, alphaRow) + sgrMouse.leftDrag(9, alphaRow) + sgrMouse.leftDrag(11, gammaRow) + sgrMouse.leftRelease(11, gammaRow));
    await waitFor(() => a1.rawOutput(mark).includes('\x1b]52;'), { what: 'an OSC 52 sequence' });
    await a1.waitForScreen((lines) => !lines.some((l) => INDICATOR.test(l)), undefined, 'copy mode left after the release');
    const sequences = [...a1.rawOutput(mark).matchAll(/\x1b\]52;c;([A-Za-z0-9+/=]*)\x07/g)];
    expect(sequences).toHaveLength(1);
    expect(Buffer.from(sequences[0][1], 'base64').toString('utf8')).toBe('beta\ngamma delta');
  });

  it('one client in copy mode changes nothing for another client or the child', async () => {
    t = e2e();
    const a = t.attach();
    await started(a);
    a.write(KEY.copyMode);
    await waitForIndicator(a);

    // b takes control (a, the first viewer, has it) and types until its keys arrive.
    const b = t.attach();
    await b.waitForText(PROMPT_SEEN);
    b.write(KEY.takeControl);
    await waitFor(async () => {
      b.write('x');
      await b.flush();
      return b.screenText().some((l) => l.startsWith(`${PROMPT_SEEN} x`));
    }, { what: 'b in control' });
    b.write(`${CTRL_U}echo "fro$((6*7))m-b"\r`);
    await b.waitForText(/^fro42m-b$/);
    expect(b.screenText().some((l) => INDICATOR.test(l))).toBe(false);
    // The child ran it at b's word while a stays on what it froze on, still in copy mode.
    await waitForIndicator(a);
    expect((await leftSide(a)).some((l) => l.includes('fro42m-b'))).toBe(false);

    a.write('q');
    await a.waitForText(/^fro42m-b$/);
    expect(a.screenText().some((l) => INDICATOR.test(l))).toBe(false);
  });
});
