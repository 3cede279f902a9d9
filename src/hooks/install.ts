// `a1 hooks install|uninstall <claude|codex>` (issue 5, Integrations): puts hooks that run
// `bin/a1-hook NODE <agent>:<Event>` into the agent's own settings, and takes exactly those out
// again. The agents run their hooks everywhere and wait for them, so the hook is a shell script
// that returns at once: outside an a1 tab it starts nothing, inside one it hands the event to
// `a1 status --hook` in the background (issue 14: a hook costs the agent a shell, not a Node). The edits are splices (jsonEdit.ts, tomlNotify.ts) so everything else in the user's files
// stays byte for byte; a small record remembers which containers a1 created, so uninstall removes
// those when they end up empty and nothing the user made.
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../atomicWrite.js';
import { ensurePrivateDir, PRIVATE_FILE_MODE, resolvePaths } from '../paths.js';
import {
  HookFileError,
  hasOurHooks,
  installJsonHooks,
  isEmptyObjectText,
  uninstallJsonHooks,
  type CreatedKey,
  type HookEntry,
} from './jsonEdit.js';
import { TomlScanError, findNotify, removeNotify, setNotify } from './tomlNotify.js';

export type HookAgent = 'claude' | 'codex';

export const HOOK_AGENTS: readonly HookAgent[] = ['claude', 'codex'];

export interface HookChange {
  file: string;
  changed: boolean;
  message: string;
}

export interface HookOptions {
  home: string;
  env: NodeJS.ProcessEnv;
  /** How to run this a1, [process.execPath, '/path/bin/a1']: hooks must work without a1 on PATH.
   * The hook script is bin/a1-hook beside it. */
  a1Command: string[];
}

export class HookInstallError extends Error {
  readonly code = 'hook-install';
  constructor(message: string) {
    super(message);
    this.name = 'HookInstallError';
  }
}

interface EventSpec {
  event: string;
  matcher?: string;
}

/** Claude Code's events (issue 5). Notification fires for several reasons; a1 wants the ones that
 * wait on the user, and the idle prompt (after a denied permission, which fires nothing else, it
 * settles the chip). Tool events take a matcher, and none means every tool. */
export const CLAUDE_EVENTS: readonly EventSpec[] = [
  { event: 'SessionStart' },
  { event: 'UserPromptSubmit' },
  { event: 'PreToolUse' },
  { event: 'PermissionRequest' },
  { event: 'Notification', matcher: 'permission_prompt|elicitation_dialog|idle_prompt' },
  { event: 'PostToolUse' },
  { event: 'PostToolUseFailure' },
  { event: 'Stop' },
  { event: 'StopFailure' },
  { event: 'SessionEnd' },
];

/** Codex 0.169's events in ~/.codex/hooks.json (same shape as Claude's). Interrupt is the one
 * Claude lacks: Codex reports a user's Esc. It has no StopFailure: a failed model request is
 * PostModelRequest with status "failed". */
export const CODEX_EVENTS: readonly EventSpec[] = [
  { event: 'SessionStart' },
  { event: 'UserPromptSubmit' },
  { event: 'PreToolUse' },
  { event: 'PermissionRequest' },
  { event: 'PostToolUse' },
  { event: 'PostModelRequest' },
  { event: 'Stop' },
  { event: 'Interrupt' },
  { event: 'SessionEnd' },
];

/** A status report is fire-and-forget and `a1 status` gives up on its own within a few seconds;
 * this only bounds how long a wedged one could hold Claude Code up. */
const CLAUDE_HOOK_TIMEOUT_SECONDS = 5;
/** Codex caps SessionEnd and Interrupt hooks at 3 s and warns about larger values. */
const CODEX_HOOK_TIMEOUT_SECONDS = 3;
/** What `a1 status --hook` is told when Codex's notify program runs (payload is the last argument). */
export const CODEX_NOTIFY_EVENT = 'notify';

const NEW_DIR_MODE = 0o700;
const RECORD_FILE = 'hooks-installed.json';

/** bin/a1-hook beside bin/a1, and the Node that runs a1 (Node 20 may not be the one on PATH). */
export function hookArgv(a1Command: readonly string[]): string[] {
  const [node, a1] = a1Command.length >= 2 ? a1Command : ['node', a1Command[0]];
  return [path.join(path.dirname(a1), HOOK_SCRIPT), node];
}

const HOOK_SCRIPT = 'a1-hook';

export function hookCommand(a1Command: readonly string[], agent: HookAgent, event: string): string {
  return `${hookArgv(a1Command).map(shellQuote).join(' ')} ${agent}:${event}`;
}

export function codexNotifyArgv(a1Command: readonly string[]): string[] {
  return [...hookArgv(a1Command), `codex:${CODEX_NOTIFY_EVENT}`];
}

/** Quotes one word for sh (Claude Code and Codex both run hook commands through a shell). */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_\/.,:=@%+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** a1's commands: `…/a1-hook NODE claude:Stop`, and the `… status --hook claude:Stop` of a1
 * before issue 14 (so an install upgrades them in place and uninstall finds them). */
function isOurCommand(agent: HookAgent): (command: string) => boolean {
  const event = new RegExp(` ${agent}:[A-Za-z]+$`);
  return (command) => command.includes(` status --hook ${agent}:`) || (command.includes(HOOK_SCRIPT) && event.test(command));
}

function isOurNotify(argv: readonly string[]): boolean {
  const last = argv[argv.length - 1] ?? '';
  const i = argv.indexOf('--hook');
  if (i > 0 && argv[i - 1] === 'status' && (argv[i + 1] ?? '').startsWith('codex:')) return true;
  return path.basename(argv[0] ?? '') === HOOK_SCRIPT && last.startsWith('codex:');
}

export function claudeSettingsFile(home: string, env: NodeJS.ProcessEnv): string {
  const dir = env.CLAUDE_CONFIG_DIR;
  return dir ? path.join(path.resolve(dir), 'settings.json') : path.join(home, '.claude', 'settings.json');
}

export function codexHome(home: string, env: NodeJS.ProcessEnv): string {
  return env.CODEX_HOME ? path.resolve(env.CODEX_HOME) : path.join(home, '.codex');
}

function entriesFor(agent: HookAgent, a1Command: readonly string[]): HookEntry[] {
  const events = agent === 'claude' ? CLAUDE_EVENTS : CODEX_EVENTS;
  const timeoutSeconds = agent === 'claude' ? CLAUDE_HOOK_TIMEOUT_SECONDS : CODEX_HOOK_TIMEOUT_SECONDS;
  return events.map((e) => ({ ...e, command: hookCommand(a1Command, agent, e.event), timeoutSeconds }));
}

// --- Install / uninstall -------------------------------------------------------------------

export function installHooks(agent: HookAgent, opts: HookOptions): HookChange[] {
  if (opts.a1Command.length === 0) throw new HookInstallError('The a1 command to put in the hooks is empty.');
  const record = new InstallRecord(opts);
  if (agent === 'claude') {
    const file = claudeSettingsFile(opts.home, opts.env);
    return [installJsonFile(file, entriesFor('claude', opts.a1Command), isOurCommand('claude'), record, 'Claude Code')];
  }
  const dir = codexHome(opts.home, opts.env);
  const configFile = path.join(dir, 'config.toml');
  const configText = readText(configFile);
  const wanted = codexNotifyArgv(opts.a1Command);
  // Check the one thing that can conflict before writing anything.
  const notify = configText === null ? null : scanToml(configFile, configText);
  if (notify !== null && (notify.argv === null || !isOurNotify(notify.argv))) {
    throw new HookInstallError(
      `${configFile} already sets notify to another program; a1 changed nothing (remove that notify line, or have your program call ${hookCommand(opts.a1Command, 'codex', CODEX_NOTIFY_EVENT)} with the same last argument).`,
    );
  }
  const hooksChange = installJsonFile(path.join(dir, 'hooks.json'), entriesFor('codex', opts.a1Command), isOurCommand('codex'), record, 'Codex');
  hooksChange.message += ' Codex runs new or changed hooks only after you trust them in its /hooks view.';
  let notifyChange: HookChange;
  if (notify !== null && sameArgv(notify.argv!, wanted)) {
    notifyChange = { file: configFile, changed: false, message: `${configFile} already runs a1 as its notify program.` };
  } else {
    const next = setNotify(configText ?? '', wanted);
    if (configText === null) record.update(configFile, (r) => ({ ...r, file: true }));
    rewriteAgentFile(configFile, next);
    notifyChange = { file: configFile, changed: true, message: `Set a1 as the notify program in ${configFile}.` };
  }
  return [hooksChange, notifyChange];
}

export function uninstallHooks(agent: HookAgent, opts: HookOptions): HookChange[] {
  const record = new InstallRecord(opts);
  if (agent === 'claude') {
    return [uninstallJsonFile(claudeSettingsFile(opts.home, opts.env), isOurCommand('claude'), record)];
  }
  const dir = codexHome(opts.home, opts.env);
  const hooksChange = uninstallJsonFile(path.join(dir, 'hooks.json'), isOurCommand('codex'), record);
  const configFile = path.join(dir, 'config.toml');
  const configText = readText(configFile);
  const notify = configText === null ? null : scanToml(configFile, configText);
  let notifyChange: HookChange;
  if (configText === null || notify === null || notify.argv === null || !isOurNotify(notify.argv)) {
    const why = notify === null ? 'no notify program' : 'a notify program that is not a1';
    notifyChange = { file: configFile, changed: false, message: `${configFile} has ${why}; nothing changed.` };
  } else {
    const next = removeNotify(configText);
    if (next === '' && record.get(configFile).file) fs.rmSync(configFile, { force: true });
    else rewriteAgentFile(configFile, next);
    record.forget(configFile);
    notifyChange = { file: configFile, changed: true, message: `Removed a1's notify program from ${configFile}.` };
  }
  return [hooksChange, notifyChange];
}

function installJsonFile(
  file: string,
  entries: HookEntry[],
  isOurs: (command: string) => boolean,
  record: InstallRecord,
  agentName: string,
): HookChange {
  const text = readText(file);
  const result = guard(file, () => installJsonHooks(text, entries, isOurs));
  if (result.text === text) {
    return { file, changed: false, message: `a1's ${agentName} hooks are already in ${file}; nothing changed.` };
  }
  if (text === null || result.created.length > 0) {
    record.update(file, (r) => ({ file: r.file || text === null, keys: [...new Set([...r.keys, ...result.created])] }));
  }
  rewriteAgentFile(file, result.text);
  return { file, changed: true, message: `Added a1's hooks for ${entries.length} ${agentName} events to ${file}.` };
}

function uninstallJsonFile(file: string, isOurs: (command: string) => boolean, record: InstallRecord): HookChange {
  const text = readText(file);
  if (text === null || !guard(file, () => hasOurHooks(text, isOurs))) {
    return { file, changed: false, message: `${file} holds no a1 hooks; nothing changed.` };
  }
  const created = record.get(file);
  const next = guard(file, () => uninstallJsonHooks(text, isOurs, new Set(created.keys)));
  if (created.file && isEmptyObjectText(next)) fs.rmSync(file, { force: true });
  else rewriteAgentFile(file, next);
  record.forget(file);
  return { file, changed: true, message: `Removed a1's hooks from ${file}.` };
}

function guard<T>(file: string, edit: () => T): T {
  try {
    return edit();
  } catch (error) {
    if (error instanceof HookFileError) throw new HookInstallError(`${file} cannot be edited: ${error.message}; a1 changed nothing.`);
    throw error;
  }
}

function scanToml(file: string, text: string): ReturnType<typeof findNotify> {
  try {
    return findNotify(text);
  } catch (error) {
    if (error instanceof TomlScanError) throw new HookInstallError(`${file} cannot be read as TOML (${error.message}); a1 changed nothing.`);
    throw error;
  }
}

function sameArgv(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

// --- Files ---------------------------------------------------------------------------------

function readText(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new HookInstallError(`${file} cannot be read: ${(error as Error).message}.`);
  }
}

/** Atomic, keeping the file's mode; through a symlink (dotfile managers link settings files) the
 * link's target is rewritten and the link stays. */
function rewriteAgentFile(file: string, text: string): void {
  let target = file;
  try {
    target = fs.realpathSync(file);
  } catch {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: NEW_DIR_MODE });
  }
  let mode = PRIVATE_FILE_MODE;
  try {
    mode = fs.statSync(target).mode & 0o7777;
  } catch {
    // A new file.
  }
  try {
    writeFileAtomic(target, text, { mode });
  } catch (error) {
    throw new HookInstallError(`${file} cannot be written: ${(error as Error).message}.`);
  }
}

// --- What a1 created ------------------------------------------------------------------------

interface FileRecord {
  /** a1 created the file itself. */
  file: boolean;
  keys: CreatedKey[];
}

/**
 * Which files and containers a1 created, per absolute path, kept in a1's state (shared by all
 * profiles, since the agents' settings are). Without it uninstall could not tell a `"hooks": {}`
 * a1 left behind from one the user wrote.
 */
class InstallRecord {
  private readonly file: string;
  private readonly root: string;

  constructor(opts: HookOptions) {
    const paths = resolvePaths({ env: opts.env, home: opts.home, profile: 'default' });
    this.root = paths.privateDirs[0].root;
    this.file = path.join(path.dirname(paths.stateDir), RECORD_FILE);
  }

  get(file: string): FileRecord {
    return this.read()[path.resolve(file)] ?? { file: false, keys: [] };
  }

  update(file: string, change: (r: FileRecord) => FileRecord): void {
    const all = this.read();
    all[path.resolve(file)] = change(this.get(file));
    this.write(all);
  }

  forget(file: string): void {
    const all = this.read();
    if (!(path.resolve(file) in all)) return;
    delete all[path.resolve(file)];
    if (Object.keys(all).length === 0) fs.rmSync(this.file, { force: true });
    else this.write(all);
  }

  private read(): Record<string, FileRecord> {
    try {
      const parsed = JSON.parse(fs.readFileSync(this.file, 'utf8')) as unknown;
      return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, FileRecord>) : {};
    } catch {
      // Missing or damaged: uninstall then keeps empty containers, which is harmless.
      return {};
    }
  }

  private write(all: Record<string, FileRecord>): void {
    ensurePrivateDir(path.dirname(this.file), this.root);
    writeFileAtomic(this.file, `${JSON.stringify(all, null, 2)}\n`, { mode: PRIVATE_FILE_MODE });
  }
}
