// Underline styles and colours (issue 28, item 8): a tab's `4:3` curly underline and `58` colour
// reach an outer terminal known to draw them as they are, and an outer terminal not known to
// draw them gets a plain underline, never a sequence it might misread.
import xtermHeadless from '@xterm/headless';
import { afterEach, describe, expect, it } from 'vitest';
import { e2e, PROMPT_SEEN, type E2E } from './harness.js';
import { PtyDriver, a1Argv } from '../helpers/pty.js';
import { extractRow } from '../../src/surface/extract.js';
import { RGB_FLAG, UnderlineStyle, underlineStyleOf, type Run } from '../../src/surface/types.js';

let t: E2E;
const drivers: PtyDriver[] = [];
afterEach(async () => {
  for (const d of drivers.splice(0)) d.dispose();
  await t?.teardown();
});

/** Variables that name the outer terminal's family; each test sets the ones it declares. */
const TERMINAL_FAMILY_VARS = ['TERM_PROGRAM', 'TERM_PROGRAM_VERSION', 'VTE_VERSION', 'TMUX', 'TMUX_PANE'];

function attachIn(outer: Record<string, string>): PtyDriver {
  const env = { ...t.env };
  for (const key of TERMINAL_FAMILY_VARS) delete env[key];
  const d = new PtyDriver({ argv: a1Argv(), env: { ...env, ...outer }, cwd: t.home.dir });
  drivers.push(d);
  return d;
}

/** What the client wrote, parsed by a fresh terminal: the runs of the screen row showing `text`. */
async function runsShowing(a1: PtyDriver, text: string): Promise<Run[]> {
  const term = new xtermHeadless.Terminal({ cols: a1.cols, rows: a1.rows, allowProposedApi: true });
  try {
    await new Promise<void>((resolve) => term.write(a1.rawOutput(), resolve));
    for (let y = 0; y < term.rows; y++) {
      const runs = extractRow(term, y).runs;
      if (runs.map((r) => r.s).join('').includes(text)) return runs;
    }
    throw new Error(`no row shows ${text}`);
  } finally {
    term.dispose();
  }
}

/** Prints a curly underline, then the same in red, in the tab; waits until the client shows it. */
async function printCurly(a1: PtyDriver): Promise<Run[]> {
  await a1.waitForText(PROMPT_SEEN);
  a1.write(`printf '\\e[4:3mcurly\\e[58:2::255:0:0mred\\e[0m|\\n'\r`);
  await a1.waitForText('curlyred|');
  return (await runsShowing(a1, 'curlyred|')).filter((r) => r.s === 'curly' || r.s === 'red' || r.s === 'curlyred');
}

describe('underline styles and colours from a tab', () => {
  it('reach an outer terminal known to draw them as a curly underline with its colour', async () => {
    t = e2e();
    const a1 = attachIn({ TERM_PROGRAM: 'WezTerm' });
    const runs = await printCurly(a1);
    expect(runs.map((r) => [r.s, underlineStyleOf(r.fl), r.uc])).toEqual([
      ['curly', UnderlineStyle.curly, undefined],
      ['red', UnderlineStyle.curly, RGB_FLAG | 0xff0000],
    ]);
    expect(a1.rawOutput()).toContain('58:2::255:0:0mred');
  });

  it('reach an outer terminal not known to draw them as a plain underline', async () => {
    t = e2e();
    const a1 = attachIn({});
    const runs = await printCurly(a1);
    expect(runs.map((r) => [r.s, underlineStyleOf(r.fl), r.uc])).toEqual([['curlyred', UnderlineStyle.single, undefined]]);
    // a1 writes underline styles and colours only in the colon form (`4:3`, `58:2::…`), and nothing else with a colon.
    const colonSgr = [...a1.rawOutput().matchAll(/\x1b\[[\d;:]*m/g)].filter((m) => m[0].includes(':'));
    expect(colonSgr).toEqual([]);
  });
});
