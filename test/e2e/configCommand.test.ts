// `a1 config path` and `a1 config check` (issue 18 deliverable 4), run as the real binary: where
// config.json is; "ok" or every problem at file:line:column with the key probably meant, exit 1;
// the keys set and when a change to each applies. A broken file still never blocks a command.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { e2e, type E2E } from './harness.js';

let t: E2E;
afterEach(async () => {
  await t?.teardown();
});

function configFile(): string {
  return path.join(t.home.dir, 'config', 'config.json');
}

function writeConfig(text: string): void {
  fs.writeFileSync(configFile(), text);
}

describe('a1 config', () => {
  it('path prints where the profile\'s config.json is', async () => {
    t = e2e();
    const r = await t.run('config', 'path');
    expect(r).toEqual({ code: 0, stdout: `${configFile()}\n`, stderr: '' });
  });

  it('check: a good JSONC file is ok, with each key set and when a change to it applies', async () => {
    t = e2e();
    writeConfig(
      [
        '// a1, as I like it',
        '{',
        '  "tabCommand": ["/bin/bash", "--norc"],',
        '  "tabsMax": 30, /* more than 20 */',
        '  "scrollbackLines": 10000, // the default: not listed',
        '  "theme": { "viewed": "red", },',
        '}',
      ].join('\n'),
    );
    const r = await t.run('config', 'check');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')).toEqual([
      `${configFile()}: ok`,
      'Keys set to other than their defaults:',
      '  tabCommand  applies live at `a1 tabs host reload`',
      '  tabsMax     applies live at `a1 tabs host reload`',
      '  theme       applies at the next attach (`a1`)',
      '',
    ]);
  });

  it('check: with no file, ok and every default', async () => {
    t = e2e();
    fs.rmSync(configFile());
    const r = await t.run('config', 'check');
    expect(r).toEqual({ code: 0, stdout: `${configFile()}: ok (no file: every key has its default)\n`, stderr: '' });
  });

  it('check: each problem at file:line:column, an unknown key with the one probably meant, exit 1', async () => {
    t = e2e();
    writeConfig(['{', '  "scrollback": 5000,', '  "tabsMax": 500,', '  "theme": {', '    "hovred": "red"', '  },', '  "closeGraceMs": "soon",', '  "detachIntervalMs": 300', '}'].join('\n'));
    const r = await t.run('config', 'check');
    expect(r.code).toBe(1);
    const f = configFile();
    expect(r.stdout.split('\n')).toEqual([
      `${f}:2:3: "scrollback" is not a config key (did you mean "scrollbackLines"?)`,
      `${f}:3:14: "tabsMax" must be an integer from 1 to 100`,
      `${f}:5:5: "theme.hovred" is not a theme role (viewed, hovered, other, plus, hint, notice) (did you mean "hovered"?)`,
      `${f}:7:19: "closeGraceMs" must be an integer from 0 to 60000`,
      'a1 uses the default for each of these until it is fixed.',
      'Keys set to other than their defaults:',
      '  detachIntervalMs  applies at the next attach (`a1`)',
      '',
    ]);
  });

  it('check: a file that is not JSON, at its line and column, every default', async () => {
    t = e2e();
    writeConfig('{\n  "tabsMax": 5\n  "theme": {}\n}');
    const r = await t.run('config', 'check');
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(`${configFile()}:3:3: not valid JSON (comma expected)\na1 uses every default until this is fixed.\n`);
  });

  it('a broken file does not block a command: one notice naming where, the defaults, and on', async () => {
    t = e2e();
    writeConfig('{\n  "tabCommand": ["/bin/bash", "--norc"],\n  "scrollback": 5\n}');
    const r = await t.run('new', '--name', 'works');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe(`a1: ${configFile()}:3:3: "scrollback" is not a config key (did you mean "scrollbackLines"?); using the default for it.\n`);
    expect(r.stdout.trim()).not.toBe('');
  });

  it('a1 config alone names its commands', async () => {
    t = e2e();
    const r = await t.run('config');
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('Name a config command: path or check.');
  });
});
