import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CONFIG_KEYS, THEME_ROLES, defaultConfig, type Config, type KeySpec } from '../src/config.js';
import { loadConfig } from '../src/config/load.js';

let dir: string;
let file: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'a1-config-'));
  file = path.join(dir, 'config.json');
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

const env = { SHELL: '/bin/zsh' };

function load(content: unknown, e: NodeJS.ProcessEnv = env): Config {
  fs.writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  const result = loadConfig(dir, e);
  if (result.problem !== null) throw new Error(result.problem);
  return result.config;
}

/** The notice for `content`, which must name file:line:column and what stands in; returned as
 * "<file>: <what is wrong>." for the checks of what is wrong. */
function errorFor(content: unknown): string {
  fs.writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  const result = loadConfig(dir, env);
  if (result.problem === null) throw new Error(`accepted ${JSON.stringify(content)}`);
  // One sentence.
  expect(result.problem).toMatch(/^[^\n]+\.$/);
  const m = /^(.*?):(\d+):(\d+): (.*); using the (?:defaults|default for it)\.$/.exec(result.problem);
  expect(m, result.problem).not.toBeNull();
  return `${m![1]}: ${m![4]}.`;
}

describe('loadConfig', () => {
  it('uses every default when there is no file', () => {
    const result = loadConfig(dir, env);
    expect(result).toEqual({ config: defaultConfig(env), problem: null, problems: [], unusable: false, set: [] });
    const config = (result as { config: Config }).config;
    expect(config.tabCommand).toEqual(['/bin/zsh']);
    expect(config.tabsMax).toBe(20);
    expect(config.tabsMaxConcurrentStarts).toBe(4);
    expect(config.scrollbackLines).toBe(10_000);
    expect(config.inputQueueBytes).toBe(1024 * 1024);
    expect(config.clientQueueBytes).toBe(4 * 1024 * 1024);
    expect(config.detachIntervalMs).toBe(500);
    expect(config.escapeTimeoutMs).toBe(30);
    expect(config.serverIdleExitMinutes).toBe(10);
    expect(config.idleSuspendMinutes).toBe(60);
    expect(config.tabsUnresponsiveRestartSeconds).toBe(120);
    expect(config.tabsStallNoticeSeconds).toBe(300);
    expect(config.allowClipboardWrite).toBe(true);
    expect(Object.keys(config.agents).sort()).toEqual(['claude', 'codex', 'generic']);
    expect(Object.keys(config.theme).sort()).toEqual([...THEME_ROLES].sort());
  });

  it('runs /bin/sh when SHELL is unset or empty', () => {
    expect(defaultConfig({}).tabCommand).toEqual(['/bin/sh']);
    expect(defaultConfig({ SHELL: '' }).tabCommand).toEqual(['/bin/sh']);
  });

  it('reads values, fractions of minutes included', () => {
    const config = load({ tabsMax: 3, serverIdleExitMinutes: 0.05, allowClipboardWrite: false, detachIntervalMs: 250, escapeTimeoutMs: 0 });
    expect(config.tabsMax).toBe(3);
    expect(config.serverIdleExitMinutes).toBe(0.05);
    expect(config.allowClipboardWrite).toBe(false);
    expect(config.detachIntervalMs).toBe(250);
    expect(config.escapeTimeoutMs).toBe(0);
    expect(config.scrollbackLines).toBe(10_000);
  });

  it('accepts a byte-order mark and an empty object', () => {
    expect(load('\uFEFF{"tabsMax": 5}').tabsMax).toBe(5);
    expect(load({})).toEqual(defaultConfig(env));
  });

  it('a file that is not JSON or not an object: every default, and where it went wrong', () => {
    const notice = (content: string) => {
      fs.writeFileSync(file, content);
      const result = loadConfig(dir, env);
      expect(result.config).toEqual(defaultConfig(env));
      return result.problem;
    };
    expect(notice('{"tabsMax": 5,,}')).toBe(`${file}:1:15: not valid JSON (property name expected); using the defaults.`);
    expect(notice('{\n  "tabsMax": 5\n  "tabCommand": "sh"\n}')).toBe(`${file}:3:3: not valid JSON (comma expected); using the defaults.`);
    expect(notice('')).toMatch(new RegExp(`^${file}:1:1: not valid JSON \\(.+\\); using the defaults\\.$`));
    expect(notice('{"a": 1} /* note')).toMatch(/:1:10: not valid JSON \(unexpected end of comment\)/);
    expect(notice('[1]')).toBe(`${file}:1:1: must hold a JSON object of settings; using the defaults.`);
    expect(notice('null')).toBe(`${file}:1:1: must hold a JSON object of settings; using the defaults.`);
  });

  it('a file that cannot be read: every default, and why', () => {
    fs.mkdirSync(file);
    const result = loadConfig(dir, env);
    expect(result.config).toEqual(defaultConfig(env));
    expect(result.problem).toBe(`${file}: could not be read (EISDIR); using the defaults.`);
    expect(result.unusable).toBe(true);
  });

  it('a bad key or value: that key\'s default, the others kept, one notice at the first problem', () => {
    fs.writeFileSync(file, '{\n  "tabsMax": 5,\n  "tabMax": 5,\n  "scrollbackLines": -1\n}');
    const result = loadConfig(dir, env);
    expect(result.config).toEqual({ ...defaultConfig(env), tabsMax: 5 });
    expect(result.problem).toBe(`${file}:3:3: "tabMax" is not a config key (did you mean "tabsMax"?) (and 1 more); using the default for it.`);
  });

  it('accepts JSONC: comments and trailing commas (issue 18)', () => {
    const config = load('// my a1\n{\n  /* few */ "tabsMax": 5, // tabs\n  "theme": { "viewed": "red", },\n}\n');
    expect(config.tabsMax).toBe(5);
    expect(config.theme.viewed).toBe('red');
  });

  it('lists every problem at its line and column, nested settings at their own name', () => {
    fs.writeFileSync(file, '{\n  "scrollback": 5,\n  "tabsMax": "many",\n  "theme": {\n    "hovred": "red"\n  },\n  "detachIntervalMs": 300\n}');
    const result = loadConfig(dir, env);
    expect(result.problems.map((p) => `${p.line}:${p.column}: ${p.message}`)).toEqual([
      '2:3: "scrollback" is not a config key (did you mean "scrollbackLines"?)',
      '3:14: "tabsMax" must be an integer from 1 to 100',
      '5:5: "theme.hovred" is not a theme role (viewed, hovered, other, plus, hint, notice) (did you mean "hovered"?)',
    ]);
    expect(result.set).toEqual(['detachIntervalMs']);
    expect(result.unusable).toBe(false);
    expect(result.problem).toBe(`${file}:2:3: "scrollback" is not a config key (did you mean "scrollbackLines"?) (and 2 more); using the default for it.`);
  });

  it('names an unknown key', () => {
    expect(errorFor({ tabsMax: 5, tabMax: 5 })).toBe(`${file}: "tabMax" is not a config key (did you mean "tabsMax"?).`);
    expect(errorFor({ colourful: true })).toBe(`${file}: "colourful" is not a config key.`);
    expect(errorFor('{"__proto__": {"tabsMax": 1}}')).toBe(`${file}: "__proto__" is not a config key.`);
    expect(errorFor({ toString: 1 })).toBe(`${file}: "toString" is not a config key.`);
  });

  it('names the key with an out-of-range or mistyped number, for every numeric key', () => {
    const numeric = Object.entries(CONFIG_KEYS).filter(([, s]) => s.type === 'integer' || s.type === 'number') as [
      string,
      KeySpec<number>,
    ][];
    expect(numeric.length).toBe(12);
    for (const [key, spec] of numeric) {
      const kind = spec.type === 'integer' ? 'an integer' : 'a number';
      const message = `${file}: "${key}" must be ${kind} from ${spec.min} to ${spec.max}.`;
      for (const bad of [spec.min! - 1, spec.max! + 1, String(spec.max), null, true]) {
        expect(errorFor({ [key]: bad })).toBe(message);
      }
      if (spec.type === 'integer') expect(errorFor({ [key]: spec.min! + 0.5 })).toBe(message);
      else expect(load({ [key]: spec.min! + 0.5 })[key as keyof Config]).toBe(spec.min! + 0.5);
      expect(load({ [key]: spec.max })[key as keyof Config]).toBe(spec.max);
      expect(load({ [key]: spec.min })[key as keyof Config]).toBe(spec.min);
    }
  });

  it('holds the caps the spec sets', () => {
    expect(CONFIG_KEYS.tabsMax.max).toBe(100);
    expect(CONFIG_KEYS.tabsMaxConcurrentStarts.max).toBe(16);
    expect(CONFIG_KEYS.scrollbackLines.max).toBe(100_000);
    expect(CONFIG_KEYS.inputQueueBytes.max).toBe(16 * 1024 * 1024);
    expect(CONFIG_KEYS.clientQueueBytes.max).toBe(64 * 1024 * 1024);
    expect(CONFIG_KEYS.idleSuspendMinutes.min).toBe(0);
  });

  it('gives every limit a default under its hard cap, and names the limit a value breaks', () => {
    const limits = ['tabsMax', 'tabsMaxConcurrentStarts', 'scrollbackLines', 'inputQueueBytes', 'clientQueueBytes'] as const;
    for (const key of limits) {
      const spec: KeySpec<number> = CONFIG_KEYS[key];
      const [min, max] = [spec.min!, spec.max!];
      const def = spec.default(env);
      expect(def, key).toBeGreaterThanOrEqual(min);
      expect(def, key).toBeLessThan(max);
      expect(errorFor({ [key]: max + 1 })).toBe(`${file}: "${key}" must be an integer from ${min} to ${max}.`);
    }
  });

  it('names a mistyped boolean', () => {
    expect(errorFor({ allowClipboardWrite: 'yes' })).toBe(`${file}: "allowClipboardWrite" must be true or false.`);
  });

  it('takes a tab command as one program path or as argv', () => {
    expect(load({ tabCommand: '/opt/my shell/bin/fish' }).tabCommand).toEqual(['/opt/my shell/bin/fish']);
    expect(load({ tabCommand: ['bash', '-l'] }).tabCommand).toEqual(['bash', '-l']);
    const message = `${file}: "tabCommand" must be a program path or a non-empty array of strings.`;
    for (const bad of ['', [], [''], ['bash', 1], 5, { cmd: 'x' }]) expect(errorFor({ tabCommand: bad })).toBe(message);
  });

  it('merges agent settings over the built-in kinds', () => {
    const config = load({
      agents: {
        claude: { resume: null },
        aider: { command: ['aider', '--no-git'], resume: ['aider', '--restore', '{sessionId}'] },
      },
    });
    expect(config.agents.claude).toEqual({ command: ['claude'], resume: null, hooks: 'claude' });
    expect(config.agents.codex).toEqual(defaultConfig(env).agents.codex);
    expect(config.agents.aider).toEqual({ command: ['aider', '--no-git'], resume: ['aider', '--restore', '{sessionId}'], hooks: null });
    // Defaults are not shared between loads.
    expect(defaultConfig(env).agents.claude.resume).not.toBeNull();
  });

  it('names the agent setting that is wrong', () => {
    expect(errorFor({ agents: [] })).toBe(`${file}: "agents" must be an object of agent kinds.`);
    expect(errorFor({ agents: { 'My Agent': {} } })).toMatch(/^.*: "agents\.My Agent" is not a valid agent kind/);
    expect(errorFor({ agents: { claude: 'claude' } })).toMatch(/: "agents\.claude" must be an object/);
    expect(errorFor({ agents: { claude: { cmd: 'x' } } })).toMatch(/: "agents\.claude\.cmd" is not an agent setting/);
    expect(errorFor({ agents: { claude: { command: [] } } })).toMatch(/: "agents\.claude\.command" must be a program path/);
    expect(errorFor({ agents: { claude: { resume: ['claude', '--resume'] } } })).toMatch(
      /: "agents\.claude\.resume" must be an array of strings with "\{sessionId\}"/,
    );
    expect(errorFor({ agents: { codex: { hooks: 'aider' } } })).toMatch(/: "agents\.codex\.hooks" must be one of "claude", "codex", or null\.$/);
  });

  it('merges theme colours and names a wrong role or colour', () => {
    const config = load({ theme: { viewed: '#ff8800', notice: 'redBright' } });
    expect(config.theme.viewed).toBe('#ff8800');
    expect(config.theme.notice).toBe('redBright');
    expect(config.theme.other).toBe(defaultConfig(env).theme.other);
    expect(errorFor({ theme: { background: 'red' } })).toMatch(/: "theme\.background" is not a theme role \(viewed, hovered/);
    expect(errorFor({ theme: { viewed: 'reddish' } })).toMatch(/: "theme\.viewed" must be a colour name/);
    expect(errorFor({ theme: { viewed: '#f80' } })).toMatch(/: "theme\.viewed" must be a colour name/);
    expect(errorFor({ theme: 'dark' })).toBe(`${file}: "theme" must be an object of role colours.`);
  });
});

describe('CONFIG_KEYS', () => {
  it('describes every key and accepts every default', () => {
    for (const [key, spec] of Object.entries(CONFIG_KEYS) as [string, KeySpec<unknown>][]) {
      expect(spec.description, key).toMatch(/^[A-Z].*\.$/);
      const value = spec.default(env);
      expect(spec.parse(value, key), key).toEqual({ ok: true, value });
    }
  });

  it('declares every key of the spec, and no other', () => {
    expect(Object.keys(CONFIG_KEYS).sort()).toEqual(
      [
        'tabCommand', 'agents', 'tabsMax', 'tabsMaxConcurrentStarts', 'scrollbackLines', 'inputQueueBytes',
        'clientQueueBytes', 'detachIntervalMs', 'serverIdleExitMinutes', 'idleSuspendMinutes',
        'tabsUnresponsiveRestartSeconds', 'tabsStallNoticeSeconds', 'allowClipboardWrite', 'theme',
        // SPEC §15: the close grace window is configurable (short in tests).
        'closeGraceMs',
        // Issue 16: the Esc window of a terminal without the kitty keyboard protocol.
        'escapeTimeoutMs',
        // Issue 18: chip numbers as an option.
        'chipNumbers',
        // Issue 18: the seed's tabsAutoName (tabs named from their program's title or command).
        'tabsAutoName',
        // Issue 28: new tabs where the viewed tab's shell is (tmux's new-window -c "#{pane_current_path}").
        'newTabInCurrentDir',
      ].sort(),
    );
  });
});
