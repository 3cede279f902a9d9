// The built CLI loads the modules that lay out help (string-width, strip-ansi, wrap-ansi, through
// yargs and cliui) only when it lays out help (scripts/bundle.mjs lazyHelpLayout): a command that
// prints JSON never builds their Unicode tables. Seen from inside the real `a1` process: every
// string-width builds an Intl.Segmenter as it loads, and a preload counts the ones built.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { A1_BIN } from '../helpers/pty.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'a1-lazyhelp-'));
const preload = path.join(dir, 'countSegmenters.cjs');
fs.writeFileSync(
  preload,
  `let built = 0;
   const Real = Intl.Segmenter;
   Intl.Segmenter = function Segmenter(...args) { built++; return new Real(...args); };
   process.on('exit', () => process.stderr.write('segmenters ' + built + '\\n'));\n`,
);

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Segmenters the real `a1 ...args` built, with a profile of its own (no server starts). */
function segmentersBuilt(...args: string[]): number {
  const run = spawnSync(process.execPath, ['--require', preload, A1_BIN, ...args], {
    encoding: 'utf8',
    timeout: 20_000,
    env: { ...process.env, A1_HOME: path.join(dir, 'home'), COLUMNS: '100' },
  });
  const line = /segmenters (\d+)/.exec(run.stderr);
  expect(line, run.stderr).not.toBeNull();
  return Number(line![1]);
}

describe('help layout loads on demand', () => {
  it('a1 tabs --json builds no Unicode tables; a1 --help does', () => {
    expect(segmentersBuilt('tabs', '--json')).toBe(0);
    expect(segmentersBuilt('--help')).toBeGreaterThan(0);
  });
});
