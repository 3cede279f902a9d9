// `a1 config path` and `a1 config check` (issue 18 deliverable 4, issue 28 item 7), run as the real
// binary: where config.json and keybindings.json are; "ok" or every problem at file:line:column
// with the name probably meant, exit 1; the keys set and when a change to each applies. A broken
// file still never blocks a command.
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

function keybindingsFile(): string {
  return path.join(t.home.dir, 'config', 'keybindings.json');
}

/** What `config check` says of a profile without keybindings.json. */
function noKeybindings(): string {
  return `${keybindingsFile()}: ok (no file: every action has its default keys)`;
}

describe('a1 config', () => {
  it('path prints where the profile\'s config.json is, then keybindings.json; or the one named', async () => {
    t = e2e();
    expect(await t.run('config', 'path')).toEqual({ code: 0, stdout: `${configFile()}\n${keybindingsFile()}\n`, stderr: '' });
    expect(await t.run('config', 'path', 'config')).toEqual({ code: 0, stdout: `${configFile()}\n`, stderr: '' });
    expect(await t.run('config', 'path', 'keybindings')).toEqual({ code: 0, stdout: `${keybindingsFile()}\n`, stderr: '' });
    const wrong = await t.run('config', 'path', 'keys');
    expect(wrong.code).not.toBe(0);
    expect(wrong.stdout).toBe('');
    expect(wrong.stderr).toContain('Name a file: config or keybindings.');
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
      noKeybindings(),
      '',
    ]);
  });

  it('check: with no file, ok and every default', async () => {
    t = e2e();
    fs.rmSync(configFile());
    const r = await t.run('config', 'check');
    expect(r).toEqual({ code: 0, stdout: `${configFile()}: ok (no file: every key has its default)\n${noKeybindings()}\n`, stderr: '' });
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
      noKeybindings(),
      '',
    ]);
  });

  it('check: a file that is not JSON, at its line and column, every default', async () => {
    t = e2e();
    writeConfig('{\n  "tabsMax": 5\n  "theme": {}\n}');
    const r = await t.run('config', 'check');
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(`${configFile()}:3:3: not valid JSON (comma expected)\na1 uses every default until this is fixed.\n${noKeybindings()}\n`);
  });

  it('check: a good JSONC keybindings.json is ok', async () => {
    t = e2e();
    writeConfig('{}');
    fs.writeFileSync(keybindingsFile(), '// tmux habits\n{\n  "prefix": "ctrl+b",\n  "newTab": ["alt+n",],\n}\n');
    const r = await t.run('config', 'check');
    expect(r).toEqual({ code: 0, stdout: `${configFile()}: ok\n${keybindingsFile()}: ok\n`, stderr: '' });
  });

  it('check: each keybindings.json problem at file:line:column with the name meant, exit 1', async () => {
    t = e2e();
    writeConfig('{}');
    fs.writeFileSync(
      keybindingsFile(),
      ['{', '  "prefx": "ctrl+b", // tmux', '  "newTab": "alt+entr",', '  "closeTab": 5,', '  "detach": "alt+q",', '}'].join('\n'),
    );
    const r = await t.run('config', 'check');
    expect(r.code).toBe(1);
    const f = keybindingsFile();
    expect(r.stdout.split('\n')).toEqual([
      `${configFile()}: ok`,
      `${f}:2:3: "prefx" is not an action (did you mean "prefix"?)`,
      `${f}:3:13: invalid key "alt+entr" for newTab: "entr" is not a key name or a single character (did you mean "alt+enter"?)`,
      `${f}:4:15: the binding for closeTab must be a key or a list of keys`,
      'a1 uses the default for each of these until it is fixed.',
      '',
    ]);
  });

  it('check: a keybindings.json conflict or one that is not JSON gives every default key, exit 1', async () => {
    t = e2e();
    writeConfig('{}');
    fs.writeFileSync(keybindingsFile(), '{\n  "newTab": "alt+w",\n}');
    const conflict = await t.run('config', 'check');
    expect(conflict.code).toBe(1);
    expect(conflict.stdout).toBe(
      `${configFile()}: ok\n${keybindingsFile()}:2:13: key alt+w is bound to both newTab and closeTab\na1 uses the default keys until this is fixed.\n`,
    );
    fs.writeFileSync(keybindingsFile(), '{\n  "newTab": "alt+n"\n  "closeTab": "alt+x"\n}');
    const broken = await t.run('config', 'check');
    expect(broken.code).toBe(1);
    expect(broken.stdout).toBe(`${configFile()}: ok\n${keybindingsFile()}:3:3: not valid JSON (comma expected)\na1 uses the default keys until this is fixed.\n`);
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
