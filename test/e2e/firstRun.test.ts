// The first-run hint (issues 18, 28): on a profile's first launch one line names the main keys as
// this profile binds them, beside the strip or on its own row, never over the tab; each key drops
// out once used and the hint goes once all were, or at once with its own key (F12), for good,
// recorded in the profile's state directory. Once dismissed, F12 is the tab's again.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { e2e, KEY, PROMPT_SEEN, stateDir, waitForChildSize, waitForStrip, type E2E } from './harness.js';
import { HINT_DISMISSED_FILE, HINT_KEYS_USED_FILE } from '../../src/app/attach/firstRunHint.js';
import type { PtyDriver } from '../helpers/pty.js';
import { waitFor } from '../helpers/wait.js';

const F12 = '\x1b[24~';
const HINT = 'Alt+A new tab · Alt+. Alt+, switch · Alt+W close · Alt+E detach · Alt+; commands · F12 hides this';

let t: E2E;
afterEach(async () => {
  await t?.teardown();
});

const screen = (lines: string[]): string => lines.join('\n');

describe('the first-run hint', () => {
  it('shows on the first launch, goes for good with its own key, and is not shown on the next launch', async () => {
    t = e2e({}, { firstRunHint: true });
    const a1 = t.attach();
    await a1.waitForText(HINT);
    await waitForStrip(a1, ['agent'], 'agent');
    // Beside the strip, on the right, where it hides none of the tab.
    expect(a1.line(0).trimEnd().endsWith(` ${HINT}`)).toBe(true);
    a1.write(F12);
    await waitFor(() => !screen(a1.screenText()).includes('hides this'), { what: 'the hint gone after F12' });
    expect(fs.existsSync(path.join(stateDir(t), HINT_DISMISSED_FILE))).toBe(true);
    // F12 reached nothing: the shell's line is still empty, and F12 is now the tab's own key.
    a1.write('cat -v\r');
    await a1.waitForText(/^a1\$ cat -v$/m);
    a1.write(F12);
    a1.write('\r');
    await a1.waitForText('^[[24~');
    a1.write('\x04');
    await a1.waitForText(/^a1\$ ?$/m);
    a1.write('\x1be');
    expect((await a1.exited).exitCode).toBe(0);

    const again = t.attach();
    await again.waitForText(PROMPT_SEEN);
    // The hint would be drawn in the same frame as the strip: the strip is there, the hint is not.
    await waitForStrip(again, ['agent'], 'agent');
    await again.flush();
    expect(screen(again.screenText())).not.toContain('hides this');
  });

  it('names the keys as the profile binds them', async () => {
    t = e2e({}, { firstRunHint: true });
    fs.writeFileSync(path.join(t.home.dir, 'config', 'keybindings.json'), JSON.stringify({ newTab: 'alt+t', closeTab: 'alt+x' }), { mode: 0o600 });
    const a1 = t.attach();
    await a1.waitForText('F12 hides this');
    const text = screen(a1.screenText());
    expect(text).toContain('Alt+T new tab');
    expect(text).toContain('Alt+X close');
    expect(text).not.toContain('Alt+A new tab');
  });
});

/** A row of `n` copies of `c`, made by the shell so that the command line does not hold it. */
const fullRow = (c: string, n: number): string => `printf -v r '%0${n}d' 0; r=\${r//0/${c}}`;

/**
 * The tab's first row, drawn at screen row `top`, shows every one of its `cols` cells: a program's
 * cursor-addressed write, what the user types at a prompt there (the terminal's echo) and a raw
 * program's own echo.
 */
async function firstRowShows(a1: PtyDriver, top: number, cols: number): Promise<void> {
  const rowIs = (text: string, what: string) => a1.waitForScreen((lines) => lines[top] === text, undefined, what);
  // Says `ready-<what>` on the tab's second row once `setup` ran (the terminal is in the mode the
  // command left it in), with the cursor back at the first row's start.
  const ready = async (setup: string, what: string, then: string) => {
    a1.write(`clear; ${setup}printf '\\033[2;1H%s-%s\\033[1;1H' ready ${what}; ${then}\r`);
    await a1.waitForScreen((lines) => lines[top + 1] === `ready-${what}`, undefined, `ready for ${what}`);
  };
  a1.write(`${fullRow('P', cols)}; clear; printf '\\033[1;1H%s' "$r"; read -r _\r`);
  await rowIs('P'.repeat(cols), 'a printf to the tab\'s first row, whole');
  a1.write('\r');
  await a1.waitForText(PROMPT_SEEN);
  await ready('', 'echo', 'read -r _');
  a1.write('e'.repeat(cols - 1));
  await rowIs('e'.repeat(cols - 1), 'the terminal\'s echo on the tab\'s first row, whole');
  a1.write('\r');
  await a1.waitForText(PROMPT_SEEN);
  // The prompt after the raw program waits for Enter, so that it does not follow on that row.
  await ready('stty raw -echo; ', 'raw', `head -c ${cols - 1}; stty sane; read -r _`);
  a1.write('w'.repeat(cols - 1));
  await rowIs('w'.repeat(cols - 1), 'a raw program\'s own echo on the tab\'s first row, whole');
  a1.write('\r');
  await a1.waitForText(PROMPT_SEEN);
}

describe('the first-run hint never hides a cell of the tab (issue 28)', () => {
  it('sits beside the strip when it fits; else on its own row with the tab one row shorter, which gets the row back when the hint goes', async () => {
    t = e2e({}, { firstRunHint: true });
    const a1 = t.attach();
    await waitForStrip(a1, ['agent'], 'agent');
    await a1.waitForText(HINT);
    // Beside the strip, on the right: the tab has every row under the strip.
    expect(a1.line(0).trimEnd().endsWith(` ${HINT}`)).toBe(true);
    await waitForChildSize(a1, `${a1.rows - 1} ${a1.cols}`);
    await firstRowShows(a1, 1, a1.cols);

    // Too narrow for it beside the strip: its own row, the tab one row shorter.
    a1.resize(80, 40);
    await a1.waitForScreen((lines) => lines[1].startsWith(' Alt+A new tab') && lines[1].trimEnd().endsWith("…"), undefined, 'the hint on its own row, clipped');
    expect(a1.line(0)).not.toContain('Alt+A');
    await waitForChildSize(a1, '38 80');
    await firstRowShows(a1, 2, 80);
    expect(a1.line(1).startsWith(' Alt+A new tab')).toBe(true);

    a1.write(F12);
    await waitFor(() => !screen(a1.screenText()).includes('Alt+A new tab'), { what: 'the hint gone after F12' });
    await waitForChildSize(a1, '39 80');
    await firstRowShows(a1, 1, 80);
  });

  it('drops each key it names once used and goes by itself once all were, remembered across launches', async () => {
    t = e2e({}, { firstRunHint: true });
    const used = path.join(stateDir(t), HINT_KEYS_USED_FILE);
    const a1 = t.attach();
    await a1.waitForText(HINT);
    await a1.waitForText(PROMPT_SEEN);
    const hintIs = (driver: PtyDriver, text: string) =>
      driver.waitForScreen((lines) => lines.some((l) => l.trimEnd().endsWith(` ${text}`)) && !lines.some((l) => l.includes(`· ${text}`)), undefined, `the hint "${text}"`);
    a1.write(KEY.newTab);
    await waitForStrip(a1, ['agent', 'agent 2'], 'agent 2');
    await hintIs(a1, 'Alt+. Alt+, switch · Alt+W close · Alt+E detach · Alt+; commands · F12 hides this');
    a1.write(KEY.prevTab);
    await waitForStrip(a1, ['agent', 'agent 2'], 'agent');
    await hintIs(a1, 'Alt+W close · Alt+E detach · Alt+; commands · F12 hides this');
    a1.write(KEY.commandPrompt);
    await a1.waitForText(/│ \/? *│/);
    a1.write('\x1b');
    await a1.waitForScreen((lines) => !lines.some((l) => /│ \/? *│/.test(l)), undefined, 'the prompt closed');
    await hintIs(a1, 'Alt+W close · Alt+E detach · F12 hides this');
    a1.write(KEY.detach);
    expect((await a1.exited).exitCode).toBe(0);
    expect(fs.readFileSync(used, 'utf8').split('\n').filter(Boolean).sort()).toEqual(['commandPrompt', 'detach', 'newTab', 'prevTab']);

    const again = t.attach();
    await waitForStrip(again, ['agent', 'agent 2'], 'agent');
    await hintIs(again, 'Alt+W close · F12 hides this');
    again.write(KEY.closeTab);
    await waitForStrip(again, ['agent 2'], 'agent 2');
    await waitFor(() => !screen(again.screenText()).includes('hides this'), { what: 'the hint gone once its last key was used' });
    expect(fs.existsSync(path.join(stateDir(t), HINT_DISMISSED_FILE))).toBe(true);
    expect(fs.existsSync(used)).toBe(false);
  });
});
