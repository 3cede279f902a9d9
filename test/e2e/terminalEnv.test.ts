// The outer terminal's environment (issue 18): TERM=dumb (and an unset TERM) is refused with one
// sentence and a non-zero exit before anything is written to the terminal, as tmux does;
// NO_COLOR takes every colour out of a1's own UI (strip, notices) while attributes and the
// viewed chip's brackets still tell chips apart, and a tab's own colours pass through; chip
// numbers are an option.
import { afterEach, describe, expect, it } from 'vitest';
import { e2e, KEY, PROMPT_SEEN, waitForStrip, type E2E } from './harness.js';
import { PtyDriver, a1Argv } from '../helpers/pty.js';
import { DEFAULT_COLOR } from '../../src/surface/types.js';
import { waitFor } from '../helpers/wait.js';

let t: E2E;
const drivers: PtyDriver[] = [];
afterEach(async () => {
  for (const d of drivers.splice(0)) d.dispose();
  await t?.teardown();
});

/** `a1` in a PTY with the test's environment changed by `change`; `env(1)` in front sets TERM,
 *  which node-pty otherwise sets to the PTY's own terminal name. */
function attachWithEnv(change: (env: Record<string, string>) => void, termArgs: string[] = []): PtyDriver {
  const env = { ...t.env };
  change(env);
  const d = new PtyDriver({ argv: [...(termArgs.length > 0 ? ['env', ...termArgs] : []), ...a1Argv()], env, cwd: t.home.dir });
  drivers.push(d);
  return d;
}

/** SGR parameters that set a colour: 30-37/40-47, 90-97/100-107, and 38/48 (extended). 39 and 49
 *  (the default colours) set none. */
function colourParams(output: string): string[] {
  const found: string[] = [];
  for (const m of output.matchAll(/\x1b\[([\d;:]*)m/g)) {
    for (const p of m[1].split(/[;:]/)) if (/^(3[0-8]|4[0-8]|9[0-7]|10[0-7])$/.test(p)) found.push(m[0]);
  }
  return found;
}

describe('terminals a1 cannot draw on', () => {
  for (const [what, termArgs] of [
    ['TERM=dumb', ['TERM=dumb']],
    ['an unset TERM', ['-u', 'TERM']],
  ] as const) {
    it(`refuses ${what} with one sentence and a non-zero exit, writing nothing else to the terminal`, async () => {
      t = e2e();
      const a1 = attachWithEnv(() => undefined, [...termArgs]);
      let timer: NodeJS.Timeout | undefined;
      const exit = await Promise.race([
        a1.exited,
        new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`a1 did not exit; screen:\n${a1.screenText().join('\n')}`)), 20_000))),
      ]).finally(() => clearTimeout(timer));
      expect(exit.exitCode).not.toBe(0);
      const out = a1.rawOutput();
      // No escape sequence at all: no alternate screen, no modes, no clear.
      expect(out).not.toContain('\x1b');
      expect(out.trim().split('\n')).toHaveLength(1);
      expect(out.trim()).toMatch(/^a1: [^\n]*TERM[^\n]*\.$/);
      // Nothing was started for it either.
      const r = await t.run('tabs', '--json');
      expect(JSON.parse(r.stdout).tabs).toEqual([]);
    });
  }
});

describe('NO_COLOR', () => {
  it('draws the strip and the notices without colour, the viewed chip told apart by brackets, bold and underline; the tab keeps its colours', async () => {
    t = e2e({}, { firstRunHint: true });
    const a1 = attachWithEnv((env) => (env.NO_COLOR = '1'));
    await a1.waitForText(PROMPT_SEEN);
    a1.write(KEY.newTab);
    await waitForStrip(a1, ['agent', 'agent 2'], 'agent 2');
    await a1.waitForText('F12 hides this');
    await a1.waitForText(PROMPT_SEEN);
    const mark = a1.mark();
    a1.write(KEY.prevTab);
    await waitForStrip(a1, ['agent', 'agent 2'], 'agent');
    await a1.flush();
    const strip = a1.line(0);
    expect(strip.startsWith('[agent] agent 2  +')).toBe(true);
    for (let x = 0; x < a1.cols; x++) {
      const cell = a1.cell(x, 0);
      expect({ x, fg: cell.fg, bg: cell.bg }).toEqual({ x, fg: DEFAULT_COLOR, bg: DEFAULT_COLOR });
    }
    const viewed = a1.cell(1, 0);
    const other = a1.cell(9, 0);
    expect([viewed.bold, viewed.underline]).toEqual([true, true]);
    expect([other.bold, other.underline, other.inverse]).toEqual([false, false, false]);
    // The hint (drawn as a notice, beside the strip here) shows by inverse video instead of its
    // background colour.
    const at = strip.indexOf('F12 hides this');
    expect(a1.cell(at, 0)).toMatchObject({ inverse: true, fg: DEFAULT_COLOR, bg: DEFAULT_COLOR });
    // Every byte written since the switch (the strip redrawn, the other tab's surface): no colour.
    expect(colourParams(a1.rawOutput(mark))).toEqual([]);
    // The tab's own program output is its own: NO_COLOR is about a1's UI.
    a1.write("printf '\\033[31mred-text\\033[0m\\n'\r");
    const row = (await a1.waitForText(/^red-text$/m)).findIndex((l) => l === 'red-text');
    expect(a1.cell(0, row).fg).toBe(1);
  });

  it('draws the strip in colour without NO_COLOR (the check above can fail)', async () => {
    t = e2e();
    const a1 = t.attach();
    await a1.waitForText(PROMPT_SEEN);
    await waitForStrip(a1, ['agent'], 'agent');
    expect(a1.cell(1, 0).bg).not.toBe(DEFAULT_COLOR);
  });
});

describe('chip numbers', () => {
  it('start each chip with its position when chipNumbers is on, matching Alt+1…Alt+0', async () => {
    t = e2e({ chipNumbers: true });
    const a1 = t.attach();
    await a1.waitForText(PROMPT_SEEN);
    a1.write(KEY.newTab);
    await waitFor(() => a1.line(0).startsWith(' 1 agent [2 agent 2] +'), { what: 'numbered chips' }).catch((error: Error) => {
      throw new Error(`${error.message}; strip "${a1.line(0)}"`);
    });
    a1.write(KEY.jump1);
    await waitFor(() => a1.line(0).startsWith('[1 agent] 2 agent 2  +'), { what: 'chip 1 viewed after Alt+1' });
  });
});
