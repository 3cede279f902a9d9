import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadKeybindings, parseKeybindings } from '../../src/keymap/bindingsFile.js';

const FILE = '/home/u/.config/a1/keybindings.json';

function parse(...lines: string[]) {
  return parseKeybindings(lines.join('\n'), FILE);
}

/** Each problem as `line:column: message`. */
function places(r: ReturnType<typeof parse>): string[] {
  return r.problems.map((p) => `${p.line}:${p.column}: ${p.message}`);
}

describe('parseKeybindings', () => {
  it('reads JSONC: comments and trailing commas are allowed', () => {
    const r = parse('// my keys', '{', '  "newTab": "alt+n", /* as in zellij */', '  "closeTab": ["alt+x", "f8",],', '}');
    expect(r.problems).toEqual([]);
    expect(r.notice).toBeNull();
    expect(r.unusable).toBe(false);
    expect(r.bindings).toEqual({ newTab: 'alt+n', closeTab: ['alt+x', 'f8'] });
    expect(r.userActions).toEqual(['newTab', 'closeTab']);
    expect(r.keymap.byKey.get('alt+n')).toBe('newTab');
    expect(r.keymap.byKey.get('f8')).toBe('closeTab');
    expect(r.keymap.byKey.has('alt+a')).toBe(false);
  });

  it('drops only a misspelt entry name, at its line and column, naming the name meant', () => {
    const r = parse('{', '  "prefx": "ctrl+b",', '  "detach": "alt+q",', '}');
    expect(places(r)).toEqual(['2:3: "prefx" is not an action (did you mean "prefix"?)']);
    expect(r.problems[0]).toMatchObject({ file: FILE, suggestion: 'prefix' });
    expect(r.notice).toBe(`${FILE}:2:3: "prefx" is not an action (did you mean "prefix"?); using the default for it.`);
    expect(r.unusable).toBe(false);
    // The valid entry applies; without the prefix, the other actions keep their Alt keys.
    expect(r.keymap.byKey.get('alt+q')).toBe('detach');
    expect(r.keymap.prefix).toBeNull();
    expect(r.keymap.byKey.get('alt+a')).toBe('newTab');
    expect(parse('{"newTba": "alt+n", "rename": "f3"}').problems[0]).toMatchObject({ suggestion: 'newTab', line: 1, column: 2 });
    expect(parse('{"newTba": "alt+n", "rename": "f3"}').keymap.byKey.get('f3')).toBe('rename');
  });

  it('drops only an entry with a misspelt key name, which keeps its default keys, naming the key meant', () => {
    const r = parse('{', '  "newTab": "alt+entr",', '  "closeTab": ["f8", "contrl+x"],', '  "rename": "f3"', '}');
    expect(places(r)).toEqual([
      '2:13: invalid key "alt+entr" for newTab: "entr" is not a key name or a single character (did you mean "alt+enter"?)',
      '3:22: invalid key "contrl+x" for closeTab: "contrl" is not a modifier (did you mean "ctrl+x"?)',
    ]);
    expect(r.problems.map((p) => p.suggestion)).toEqual(['alt+enter', 'ctrl+x']);
    expect(r.notice).toMatch(/^\/home\/u\/\.config\/a1\/keybindings\.json:2:13: invalid key "alt\+entr" .* \(and 1 more\); using the default for it\.$/);
    expect(r.keymap.byKey.get('alt+a')).toBe('newTab');
    expect(r.keymap.byKey.get('alt+w')).toBe('closeTab');
    expect(r.keymap.byKey.has('f8')).toBe(false);
    expect(r.keymap.byKey.get('f3')).toBe('rename');
    expect(r.userActions).toEqual(['rename']);
  });

  it('drops only an entry whose value has the wrong type', () => {
    const r = parse('{', '  "newTab": 5,', '  "closeTab": ["alt+x", null],', '  "prefix": ["ctrl+b"],', '  "rename": "f3",', '}');
    expect(places(r)).toEqual([
      '2:13: the binding for newTab must be a key or a list of keys',
      '3:25: the binding for closeTab must be a key or a list of keys',
      '4:13: the prefix must be one key, such as "ctrl+b"',
    ]);
    expect(r.problems.every((p) => p.suggestion === null)).toBe(true);
    expect(r.bindings).toEqual({ rename: 'f3' });
    expect(r.keymap.byKey.get('alt+a')).toBe('newTab');
    expect(r.keymap.prefix).toBeNull();
  });

  it('takes a good prefix, and names a bad one', () => {
    expect(parse('{"prefix": "ctrl+b",}').keymap.byKey.get('ctrl+b d')).toBe('detach');
    const r = parse('{"prefix": "ctrl+b d", "newTab": "f6"}');
    expect(places(r)).toEqual(['1:12: the prefix must be one key, such as "ctrl+b": "b d" is not a key name or a single character']);
    expect(r.keymap.byKey.get('f6')).toBe('newTab');
    expect(parse('{"prefix": "ctrl+spcae"}').problems[0].suggestion).toBe('ctrl+space');
  });

  it('gives every default key for a conflict, as before, placed at the entry that claims the key', () => {
    const r = parse('{', '  "rename": "f3",', '  "newTab": "alt+w"', '}');
    expect(r.unusable).toBe(true);
    expect(places(r)).toEqual(['3:13: key alt+w is bound to both newTab and closeTab']);
    expect(r.notice).toBe(`${FILE}:3:13: key alt+w is bound to both newTab and closeTab; using the default keys.`);
    expect(r.bindings).toEqual({});
    expect(r.userActions).toEqual([]);
    expect(r.keymap.byKey.get('alt+a')).toBe('newTab');
    expect(r.keymap.byKey.get('f2')).toBe('rename');
    // A prefix that begins a default key is placed at the prefix.
    expect(places(parse('{ "prefix": "ctrl+c" }'))).toEqual(['1:13: key ctrl+c is bound to detachTwice and also begins ctrl+c c of newTab']);
  });

  it('lists a conflict with the other problems in file order, the notice led by the conflict', () => {
    const r = parse('{', '  "newTab": "alt+w",', '  "detsch": "alt+q"', '}');
    expect(places(r)).toEqual([
      '2:13: key alt+w is bound to both newTab and closeTab',
      '3:3: "detsch" is not an action (did you mean "detach"?)',
    ]);
    expect(r.notice).toBe(`${FILE}:2:13: key alt+w is bound to both newTab and closeTab (and 1 more); using the default keys.`);
  });

  it('gives every default key for a file that is not a JSON object, at its line and column', () => {
    const r = parse('{', '  "newTab": "alt+n"', '  "closeTab": "alt+x"', '}');
    expect(r.unusable).toBe(true);
    expect(r.notice).toBe(`${FILE}:3:3: not valid JSON (comma expected); using the default keys.`);
    expect(r.keymap.byKey.get('alt+a')).toBe('newTab');
    expect(places(parse('["alt+n"]'))).toEqual(['1:1: must hold a JSON object of actions and their keys']);
    expect(places(parse('\uFEFF{"newTab": "alt+n"}'))).toEqual([]);
  });
});

describe('loadKeybindings', () => {
  it('gives every default key, quietly, without a file; a file it cannot read is named', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'a1-keys-'));
    try {
      const missing = loadKeybindings(path.join(dir, 'keybindings.json'));
      expect(missing).toMatchObject({ problems: [], notice: null, unusable: false, bindings: {} });
      expect(missing.keymap.byKey.get('alt+a')).toBe('newTab');
      fs.mkdirSync(path.join(dir, 'keybindings.json'));
      expect(loadKeybindings(path.join(dir, 'keybindings.json')).notice).toBe(
        `${path.join(dir, 'keybindings.json')}: could not be read (EISDIR); using the default keys.`,
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
