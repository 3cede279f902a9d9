// Finding and editing Codex's top-level `notify` without a TOML library.
import { describe, expect, it } from 'vitest';
import { TomlScanError, findNotify, removeNotify, setNotify } from '../../src/hooks/tomlNotify.js';

const ARGV = ['/usr/bin/node', "/opt/it's/a1", 'status', '--hook', 'codex:notify'];

describe('findNotify', () => {
  it('reads the top-level array in its several spellings', () => {
    expect(findNotify('notify = ["a", "b"]\n')?.argv).toEqual(['a', 'b']);
    expect(findNotify("\"notify\"=['C:\\x', \"q\\\"\\u00e9\"] # c")?.argv).toEqual(['C:\\x', 'q"é']);
    expect(findNotify('notify = [\n  "a", # first\n  "b",\n]\nmodel = "x"\n')?.argv).toEqual(['a', 'b']);
  });

  it('sees only the top level', () => {
    expect(findNotify('[profiles.x]\nnotify = ["a"]\n')).toBeNull();
    expect(findNotify('text = """\nnotify = ["a"]\n"""\n')).toBeNull();
    expect(findNotify("text = '''\n[t]\n'''\nnotify = []\n")?.argv).toEqual([]);
    expect(findNotify('notify.x = ["a"]\n')).toBeNull();
    expect(findNotify('when = 1979-05-27 07:32:00Z # a date\nnotify = ["a"]')?.argv).toEqual(['a']);
  });

  it('marks values it cannot read as an argv', () => {
    expect(findNotify('notify = "a"\n')?.argv).toBeNull();
    expect(findNotify('notify = [1, 2]\n')?.argv).toBeNull();
    expect(findNotify('notify = ["""a"""]\n')?.argv).toBeNull();
  });

  it('throws on text it cannot follow', () => {
    expect(() => findNotify('notify = ["a"')).toThrow(TomlScanError);
    expect(() => findNotify('model "x"\n')).toThrow(TomlScanError);
    expect(() => findNotify('x = """never closed\n')).toThrow(TomlScanError);
  });
});

describe('setNotify / removeNotify', () => {
  it.each([
    ['an empty file', ''],
    ['keys only', 'model = "o3"\napproval_policy = "never"\n'],
    ['no final newline', 'model = "o3"'],
    ['CRLF and no final newline', 'model = "o3"\r\nx = 1'],
    ['tables only, headed by comments', '# top\n\n# tui settings\n[tui]\nnotifications = true\n'],
    ['keys, blank lines, comments and tables', '# me\nmodel = "o3" # why\n\n# servers\n[mcp_servers.a]\ncommand = "a"\n'],
  ])('adds a line and removes it again in %s', (_name, text) => {
    const set = setNotify(text, ARGV);
    expect(findNotify(set)?.argv).toEqual(ARGV);
    expect(setNotify(set, ARGV)).toBe(set);
    expect(removeNotify(set)).toBe(text);
  });

  it('puts the line after the last top-level key', () => {
    expect(setNotify('a = 1\n\n[t]\n', ['x'])).toBe('a = 1\nnotify = ["x"]\n\n[t]\n');
    expect(setNotify('# head\n[t]\n', ['x'])).toBe('notify = ["x"]\n# head\n[t]\n');
  });

  it('replaces an existing value in place', () => {
    expect(setNotify('notify = [\n  "old", # c\n] # keep\nz = 1\n', ['new'])).toBe('notify = ["new"] # keep\nz = 1\n');
  });

  it('escapes what TOML basic strings must', () => {
    const set = setNotify('', ['a"b\\c\u007f\n']);
    expect(set).toBe('notify = ["a\\"b\\\\c\\u007f\\n"]\n');
    expect(findNotify(set)?.argv).toEqual(['a"b\\c\u007f\n']);
  });
});
