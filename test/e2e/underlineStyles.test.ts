// Underline styles and colours (issue 28, item 8): a tab's `4:3` curly underline and `58` colour
// reach an outer terminal known to draw them as they are, and an outer terminal not known to
// draw them gets a plain underline, never a sequence it might misread.
import xtermHeadless from '@xterm/headless';
import { afterEach, describe, expect, it } from 'vitest';
import { e2e, PROMPT_SEEN, type E2E } from './harness.js';
import { PtyDriver, a1Argv } from '../helpers/pty.js';
import { RGB_FLAG } from '../../src/surface/types.js';

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

/** A cell as xterm.js keeps it: its underline style and colour are outside the public cell API. */
interface StyledCell {
  getChars(): string;
  getUnderlineStyle(): number;
  isUnderlineColorDefault(): boolean;
  isUnderlineColorRGB(): boolean;
  getUnderlineColor(): number;
}

/** What the client wrote, parsed by a fresh terminal: each cell of the screen row showing `text`,
 *  from its start, as [text, SGR 4:N style, underline colour (RGB, palette index or 'default')]. */
async function cellsShowing(a1: PtyDriver, text: string): Promise<[string, number, number | 'default'][]> {
  const term = new xtermHeadless.Terminal({ cols: a1.cols, rows: a1.rows, allowProposedApi: true });
  try {
    await new Promise<void>((resolve) => term.write(a1.rawOutput(), resolve));
    for (let y = 0; y < term.rows; y++) {
      const line = term.buffer.active.getLine(term.buffer.active.viewportY + y)!;
      const x0 = line.translateToString().indexOf(text);
      if (x0 < 0) continue;
      return Array.from({ length: text.length }, (_, k) => {
        const cell = line.getCell(x0 + k) as unknown as StyledCell;
        const colour = cell.isUnderlineColorDefault() ? 'default' : cell.isUnderlineColorRGB() ? RGB_FLAG | cell.getUnderlineColor() : cell.getUnderlineColor();
        return [cell.getChars(), cell.getUnderlineStyle(), colour];
      });
    }
    throw new Error(`no row shows ${text}`);
  } finally {
    term.dispose();
  }
}

/** Prints a curly underline, then the same in red, in the tab; waits until the client shows it. */
async function printCurly(a1: PtyDriver): Promise<[string, number, number | 'default'][]> {
  await a1.waitForText(PROMPT_SEEN);
  a1.write(`printf '\\e[4:3mcurly\\e[58:2::255:0:0mred\\e[0m|\\n'\r`);
  await a1.waitForText('curlyred|');
  return cellsShowing(a1, 'curlyred|');
}

const CURLY = 3;
const SINGLE = 1;
const cells = (text: string, style: number, colour: number | 'default') => [...text].map((ch) => [ch, style, colour]);

describe('underline styles and colours from a tab', () => {
  it('reach an outer terminal known to draw them as a curly underline with its colour', async () => {
    t = e2e();
    const a1 = attachIn({ TERM_PROGRAM: 'WezTerm' });
    expect(await printCurly(a1)).toEqual([...cells('curly', CURLY, 'default'), ...cells('red', CURLY, RGB_FLAG | 0xff0000), ['|', 0, 'default']]);
    expect(a1.rawOutput()).toContain('58:2::255:0:0mred');
  });

  it('reach an outer terminal not known to draw them as a plain underline', async () => {
    t = e2e();
    const a1 = attachIn({});
    expect(await printCurly(a1)).toEqual([...cells('curlyred', SINGLE, 'default'), ['|', 0, 'default']]);
    // a1 writes underline styles and colours only in the colon form (`4:3`, `58:2::…`), and nothing else with a colon.
    const colonSgr = [...a1.rawOutput().matchAll(/\x1b\[[\d;:]*m/g)].filter((m) => m[0].includes(':'));
    expect(colonSgr).toEqual([]);
  });
});
