// `a1 hooks install|uninstall` on real files in a temporary home: the acceptance of issue 5 is that
// install, install again, uninstall gives back the user's settings byte for byte.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse as parseJsonc } from 'jsonc-parser';
import {
  CLAUDE_EVENTS,
  CODEX_EVENTS,
  HookInstallError,
  codexNotifyArgv,
  hookCommand,
  installHooks,
  shellQuote,
  uninstallHooks,
  type HookOptions,
} from '../../src/hooks/install.js';
import { findNotify } from '../../src/hooks/tomlNotify.js';

const A1 = ['/usr/local/bin/node', '/opt/my a1/bin/a1'];

/** A settings file as people keep them: comments, their own hooks (some on a1's events), an
 * unusual key order, four-space indentation and a trailing comma. */
const RICH_SETTINGS = `// My Claude Code settings
{
    "theme": "dark",
    /* hooks I wrote myself */
    "hooks": {
        "Stop": [
            {
                "hooks": [
                    { "type": "command", "command": "notify-send done" } // ping me
                ]
            }
        ],
        "PreToolUse": [
            {
                "matcher": "Bash",
                "hooks": [{ "type": "command", "command": "~/bin/guard.sh", "timeout": 10 }],
            },
        ],
    },
    "permissions": { "allow": ["Bash(ls:*)"] },
    "model": "opus"
}
`;

const NO_HOOKS_SETTINGS = `{
  "model": "sonnet", // pinned
  "env": { "FOO": "1" }
}
`;

const RICH_CONFIG_TOML = `# Codex config
model = "gpt-5"   # default model
approval_policy = 'on-request'
instructions = """
[not.a.table]
notify = ["fake"]
"""

# Servers
[mcp_servers.docs]
command = "docs-mcp"
args = [
  "--port", # the port
  "9000",
]

[profiles.fast]
notify = ["something", "else"]
`;

let dir: string;
let opts: HookOptions;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'a1hooks-'));
  // An empty environment: nothing from the machine's real ~/.claude, ~/.codex or a1 state is seen.
  opts = { home: dir, env: {}, a1Command: A1 };
});

afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

const claudeFile = (): string => path.join(dir, '.claude', 'settings.json');
const codexDir = (): string => path.join(dir, '.codex');

function write(file: string, text: string, mode = 0o644): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text, { mode });
  fs.chmodSync(file, mode);
}

function readJsonc(file: string): any {
  return parseJsonc(fs.readFileSync(file, 'utf8'), [], { allowTrailingComma: true });
}

function a1Commands(settings: any, agent: 'claude' | 'codex'): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [event, groups] of Object.entries(settings.hooks ?? {})) {
    for (const group of groups as any[]) {
      for (const h of group.hooks) if (new RegExp(`a1-hook'? .* ${agent}:\\w+$|status --hook ${agent}:`).test(String(h.command))) (out[event] ??= []).push(h.command);
    }
  }
  return out;
}

describe('claude', () => {
  it('creates a missing settings file with one a1 hook per event, and uninstall removes the file', () => {
    const [change] = installHooks('claude', opts);
    expect(change).toMatchObject({ file: claudeFile(), changed: true });
    const settings = readJsonc(claudeFile());
    expect(Object.keys(settings)).toEqual(['hooks']);
    expect(Object.keys(settings.hooks)).toEqual(CLAUDE_EVENTS.map((e) => e.event));
    for (const { event, matcher } of CLAUDE_EVENTS) {
      expect(settings.hooks[event]).toEqual([
        {
          ...(matcher ? { matcher } : {}),
          hooks: [{ type: 'command', command: hookCommand(A1, 'claude', event), timeout: 5 }],
        },
      ]);
    }
    expect(settings.hooks.Notification[0].matcher).toBe('permission_prompt|elicitation_dialog|idle_prompt');
    expect(fs.statSync(claudeFile()).mode & 0o777).toBe(0o600);

    const [removed] = uninstallHooks('claude', opts);
    expect(removed.changed).toBe(true);
    expect(fs.existsSync(claudeFile())).toBe(false);
  });

  it('a second install changes nothing', () => {
    installHooks('claude', opts);
    const once = fs.readFileSync(claudeFile());
    const [again] = installHooks('claude', opts);
    expect(again.changed).toBe(false);
    expect(fs.readFileSync(claudeFile()).equals(once)).toBe(true);
  });

  it('install, install, uninstall on a rich JSONC file gives it back byte for byte', () => {
    write(claudeFile(), RICH_SETTINGS);
    installHooks('claude', opts);
    const installed = fs.readFileSync(claudeFile(), 'utf8');
    expect(installed).not.toBe(RICH_SETTINGS);
    // The user's things are all still there, in their order, and a1 joined them.
    const settings = readJsonc(claudeFile());
    expect(Object.keys(settings)).toEqual(['theme', 'hooks', 'permissions', 'model']);
    expect(settings.hooks.Stop[0].hooks[0].command).toBe('notify-send done');
    expect(settings.hooks.PreToolUse[0].matcher).toBe('Bash');
    expect(Object.keys(a1Commands(settings, 'claude')).sort()).toEqual(CLAUDE_EVENTS.map((e) => e.event).sort());
    expect(installed).toContain('// ping me');
    expect(installed).toContain('/* hooks I wrote myself */');
    expect(installed).toContain(`\n            {\n                "hooks": [`); // a1's group, in the file's 4-space style

    installHooks('claude', opts);
    expect(fs.readFileSync(claudeFile(), 'utf8')).toBe(installed);
    const [removed] = uninstallHooks('claude', opts);
    expect(removed.changed).toBe(true);
    expect(fs.readFileSync(claudeFile(), 'utf8')).toBe(RICH_SETTINGS);
  });

  it('round-trips a file with no hooks key, with CRLF line ends, and keeps its mode', () => {
    const crlf = NO_HOOKS_SETTINGS.replace(/\n/g, '\r\n');
    write(claudeFile(), crlf, 0o640);
    installHooks('claude', opts);
    const installed = fs.readFileSync(claudeFile(), 'utf8');
    expect(installed.replace(/\r\n/g, '')).not.toContain('\n');
    expect(Object.keys(readJsonc(claudeFile()))).toEqual(['model', 'env', 'hooks']);
    expect(fs.statSync(claudeFile()).mode & 0o777).toBe(0o640);
    installHooks('claude', opts);
    uninstallHooks('claude', opts);
    expect(fs.readFileSync(claudeFile(), 'utf8')).toBe(crlf);
    expect(fs.statSync(claudeFile()).mode & 0o777).toBe(0o640);
  });

  it('keeps containers the user had even when they end up empty', () => {
    const text = '{\n  "hooks": {\n    "Stop": []\n  }\n}\n';
    write(claudeFile(), text);
    installHooks('claude', opts);
    uninstallHooks('claude', opts);
    expect(fs.readFileSync(claudeFile(), 'utf8')).toBe(text);
  });

  it('keeps a container a1 created when the user has since added to it', () => {
    write(claudeFile(), NO_HOOKS_SETTINGS);
    installHooks('claude', opts);
    const settings = readJsonc(claudeFile());
    settings.hooks.Stop.push({ hooks: [{ type: 'command', command: 'mine' }] });
    write(claudeFile(), JSON.stringify(settings, null, 2));
    uninstallHooks('claude', opts);
    const after = readJsonc(claudeFile());
    expect(after.hooks).toEqual({ Stop: [{ hooks: [{ type: 'command', command: 'mine' }] }] });
  });

  it('a handler the user put next to a1 in one group stays', () => {
    installHooks('claude', opts);
    const settings = readJsonc(claudeFile());
    settings.hooks.Stop[0].hooks.push({ type: 'command', command: 'mine' });
    write(claudeFile(), JSON.stringify(settings, null, 2));
    uninstallHooks('claude', opts);
    expect(readJsonc(claudeFile()).hooks).toEqual({ Stop: [{ hooks: [{ type: 'command', command: 'mine' }] }] });
  });

  it('uninstall when not installed changes nothing', () => {
    write(claudeFile(), RICH_SETTINGS);
    const [change] = uninstallHooks('claude', opts);
    expect(change.changed).toBe(false);
    expect(fs.readFileSync(claudeFile(), 'utf8')).toBe(RICH_SETTINGS);
    const [missing] = uninstallHooks('claude', { ...opts, home: path.join(dir, 'nobody') });
    expect(missing.changed).toBe(false);
  });

  it('re-points hooks from a moved a1 in place', () => {
    write(claudeFile(), RICH_SETTINGS);
    installHooks('claude', { ...opts, a1Command: ['/old/node', '/old/a1'] });
    const moved = installHooks('claude', opts)[0];
    expect(moved.changed).toBe(true);
    const commands = a1Commands(readJsonc(claudeFile()), 'claude');
    for (const { event } of CLAUDE_EVENTS) expect(commands[event]).toEqual([hookCommand(A1, 'claude', event)]);
    uninstallHooks('claude', opts);
    expect(fs.readFileSync(claudeFile(), 'utf8')).toBe(RICH_SETTINGS);
  });

  it('refuses a file that is not valid JSON and leaves it untouched', () => {
    const broken = '{\n  "model": "opus",\n  "hooks": {\n}\n';
    write(claudeFile(), broken);
    expect(() => installHooks('claude', opts)).toThrow(HookInstallError);
    expect(() => installHooks('claude', opts)).toThrow(/not valid JSON .*line \d+, column \d+.*changed nothing/);
    expect(fs.readFileSync(claudeFile(), 'utf8')).toBe(broken);
    write(claudeFile(), '{"hooks": []}');
    expect(() => installHooks('claude', opts)).toThrow(/"hooks" value is not an object/);
    expect(fs.readdirSync(path.dirname(claudeFile()))).toEqual(['settings.json']);
  });

  it('uses $CLAUDE_CONFIG_DIR and writes through a symlinked settings file', () => {
    const configDir = path.join(dir, 'claude-config');
    const real = path.join(dir, 'dotfiles', 'settings.json');
    write(real, NO_HOOKS_SETTINGS);
    fs.mkdirSync(configDir);
    fs.symlinkSync(real, path.join(configDir, 'settings.json'));
    const env = { CLAUDE_CONFIG_DIR: configDir };
    const [change] = installHooks('claude', { ...opts, env });
    expect(change.file).toBe(path.join(configDir, 'settings.json'));
    expect(fs.lstatSync(change.file).isSymbolicLink()).toBe(true);
    expect(Object.keys(a1Commands(readJsonc(real), 'claude'))).toHaveLength(CLAUDE_EVENTS.length);
    uninstallHooks('claude', { ...opts, env });
    expect(fs.readFileSync(real, 'utf8')).toBe(NO_HOOKS_SETTINGS);
  });

  it('quotes the a1 command for the shell', () => {
    expect(shellQuote('/opt/a1/bin/a1')).toBe('/opt/a1/bin/a1');
    expect(shellQuote("/it's here/a1")).toBe(`'/it'\\''s here/a1'`);
    expect(hookCommand(A1, 'claude', 'Stop')).toBe(`'/opt/my a1/bin/a1-hook' /usr/local/bin/node claude:Stop`);
  });

  it('upgrades the direct `a1 status --hook` commands of an earlier a1 in place, matcher too', () => {
    const old = (event: string) => `/usr/local/bin/node '/opt/my a1/bin/a1' status --hook claude:${event}`;
    write(
      claudeFile(),
      JSON.stringify({
        hooks: {
          Stop: [{ hooks: [{ type: 'command', command: old('Stop'), timeout: 5 }] }],
          Notification: [{ matcher: 'permission_prompt', hooks: [{ type: 'command', command: old('Notification'), timeout: 5 }] }],
        },
      }),
    );
    installHooks('claude', opts);
    const settings = readJsonc(claudeFile());
    expect(settings.hooks.Stop).toEqual([{ hooks: [{ type: 'command', command: hookCommand(A1, 'claude', 'Stop'), timeout: 5 }] }]);
    expect(settings.hooks.Notification[0].matcher).toBe('permission_prompt|elicitation_dialog|idle_prompt');
    expect(Object.keys(a1Commands(settings, 'claude')).sort()).toEqual(CLAUDE_EVENTS.map((e) => e.event).sort());
  });
});

describe('codex', () => {
  const hooksFile = (): string => path.join(codexDir(), 'hooks.json');
  const configFile = (): string => path.join(codexDir(), 'config.toml');

  it('creates hooks.json and the notify line, and uninstall removes both files it created', () => {
    const changes = installHooks('codex', opts);
    expect(changes.map((c) => [c.file, c.changed])).toEqual([
      [hooksFile(), true],
      [configFile(), true],
    ]);
    expect(changes[0].message).toMatch(/trust them in its \/hooks/);
    const hooks = JSON.parse(fs.readFileSync(hooksFile(), 'utf8')); // strict JSON: Codex uses serde_json
    expect(Object.keys(hooks)).toEqual(['hooks']);
    expect(Object.keys(hooks.hooks)).toEqual(CODEX_EVENTS.map((e) => e.event));
    expect(hooks.hooks.Stop).toEqual([{ hooks: [{ type: 'command', command: hookCommand(A1, 'codex', 'Stop'), timeout: 3 }] }]);
    expect(findNotify(fs.readFileSync(configFile(), 'utf8'))?.argv).toEqual(codexNotifyArgv(A1));
    expect(codexNotifyArgv(A1)).toEqual(['/opt/my a1/bin/a1-hook', '/usr/local/bin/node', 'codex:notify']);

    expect(installHooks('codex', opts).map((c) => c.changed)).toEqual([false, false]);
    expect(uninstallHooks('codex', opts).map((c) => c.changed)).toEqual([true, true]);
    expect(fs.readdirSync(codexDir())).toEqual([]);
  });

  it('install, install, uninstall on a config.toml with comments gives it back byte for byte', () => {
    write(configFile(), RICH_CONFIG_TOML);
    const hooksJson = '{\n  "hooks": {\n    "Stop": [{ "hooks": [{ "type": "command", "command": "say done" }] }]\n  }\n}\n';
    write(hooksFile(), hooksJson);
    installHooks('codex', opts);
    const config = fs.readFileSync(configFile(), 'utf8');
    // After the last top-level key, before the comment that heads the first table.
    expect(config).toContain(`approval_policy = 'on-request'\ninstructions = """\n[not.a.table]\nnotify = ["fake"]\n"""\nnotify = [`);
    expect(config.indexOf('notify = ["/usr')).toBeLessThan(config.indexOf('# Servers'));
    installHooks('codex', opts);
    expect(fs.readFileSync(configFile(), 'utf8')).toBe(config);
    uninstallHooks('codex', opts);
    expect(fs.readFileSync(configFile(), 'utf8')).toBe(RICH_CONFIG_TOML);
    expect(fs.readFileSync(hooksFile(), 'utf8')).toBe(hooksJson);
  });

  it('refuses to replace another notify program and changes nothing', () => {
    const config = 'notify = ["python3", "/home/me/notify.py"] # desktop pings\nmodel = "o3"\n';
    write(configFile(), config);
    expect(() => installHooks('codex', opts)).toThrow(HookInstallError);
    expect(() => installHooks('codex', opts)).toThrow(/already sets notify to another program; a1 changed nothing/);
    expect(fs.readFileSync(configFile(), 'utf8')).toBe(config);
    expect(fs.existsSync(hooksFile())).toBe(false);
    // And uninstall leaves someone else's notify alone.
    expect(uninstallHooks('codex', opts).map((c) => c.changed)).toEqual([false, false]);
    expect(fs.readFileSync(configFile(), 'utf8')).toBe(config);
  });

  it('re-points a notify from a moved a1 in place, keeping its comment', () => {
    write(configFile(), 'model = "o3"\n');
    installHooks('codex', { ...opts, a1Command: ['/old/a1'] });
    const withComment = fs.readFileSync(configFile(), 'utf8').replace(/\n$/, ' # a1 status\n');
    write(configFile(), withComment);
    installHooks('codex', opts);
    const text = fs.readFileSync(configFile(), 'utf8');
    expect(findNotify(text)?.argv).toEqual(codexNotifyArgv(A1));
    expect(text).toMatch(/# a1 status\n$/);
  });

  it('round-trips a config.toml with no trailing newline and one with only tables', () => {
    for (const original of ['model = "o3"', '# just tables\n[tui]\nnotifications = true\n', '']) {
      write(configFile(), original);
      installHooks('codex', opts);
      uninstallHooks('codex', opts);
      expect(fs.readFileSync(configFile(), 'utf8')).toBe(original);
    }
  });

  it('uses $CODEX_HOME', () => {
    const home = path.join(dir, 'codex-home');
    const changes = installHooks('codex', { ...opts, env: { CODEX_HOME: home } });
    expect(changes.map((c) => c.file)).toEqual([path.join(home, 'hooks.json'), path.join(home, 'config.toml')]);
  });

  it('reports an unreadable config.toml without writing anything', () => {
    write(configFile(), 'model = "unterminated\n');
    expect(() => installHooks('codex', opts)).toThrow(/cannot be read as TOML/);
    expect(fs.existsSync(hooksFile())).toBe(false);
  });
});
