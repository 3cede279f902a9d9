// The ssh command line of a link (issue 30, memo §1.2), built purely from the host's definition.
// ssh takes the first value it obtains for each setting, the command line before any config file
// (ssh_config(5)), so a1's own options come first and nothing overrides them; then the user's
// --ssh-options; then a1's defaults for what the user's configuration leaves unset (read from
// `ssh -G`, sshConfig.ts); then `--`, the target and the remote launcher.
import crypto from 'node:crypto';
import { launcherCommand } from './launcher.js';
import { configValue, type SshEffectiveConfig } from './sshConfig.js';

/** A host as the configuration declares it (`a1 hosts add NAME TARGET ...`). */
export interface HostDefinition {
  name: string;
  /** Any destination ssh accepts: user@box, ssh://user@box:2222, an alias of the user's config. */
  target: string;
  /** Each `Key=Value`, passed as `-o Key=Value`. */
  sshOptions: readonly string[];
  /** The a1 command there, as shell words; absent: the launcher looks for it. */
  a1Path?: string | null;
  /** The profile there; absent: the remote's default. */
  profile?: string | null;
}

/** What `a1 config check` says of an option a1 sets itself. */
export const A1_SETS_THIS = 'a1 sets this; yours is ignored';
/** What it says of an option that would take ssh's stdin or stdout from the link. */
const CUTS_THE_LINK = "the link runs over ssh's stdin and stdout, which this would take away; yours is ignored";

/** How long the master lives after its last link closes: views opened within it add a channel,
 * not a login, and a host nobody looks at stops holding a connection soon after. */
export const CONTROL_PERSIST_S = 600;
/** A host that has not answered in 10 s is shown unreachable rather than left `connecting`. */
const DEFAULT_CONNECT_TIMEOUT_S = 10;
/** ssh's keepalive: a dead path is noticed within 15 s even while a1 sends nothing. */
const DEFAULT_SERVER_ALIVE_INTERVAL_S = 5;
const DEFAULT_SERVER_ALIVE_COUNT_MAX = 3;
/** Hex digits of the control socket's hash: 64 bits, and `c-` + 16 + ssh's own 17-byte temporary
 * suffix stays within SOCKET_NAME_MAX (src/paths.ts). */
const CONTROL_HASH_HEX = 16;
const DEFAULT_REMOTE_PROFILE = 'default';

/** Options a1 passes on every link; -T and -e none are RequestTTY and EscapeChar. The
 * ControlPath is added per host. */
const MANDATORY_OPTIONS: readonly (readonly [string, string])[] = [
  ['BatchMode', 'yes'],
  // A user config with RemoteCommand makes ssh refuse a command on its command line.
  ['RemoteCommand', 'none'],
  ['ClearAllForwardings', 'yes'],
  ['PermitLocalCommand', 'no'],
  ['ControlMaster', 'auto'],
];

/** Each option key (in lower case, as ssh compares them) that a user's option may not set, and why. */
const REFUSED_KEYS: ReadonlyMap<string, string> = new Map([
  ...[...MANDATORY_OPTIONS.map(([key]) => key), 'ControlPath', 'ControlPersist', 'RequestTTY', 'EscapeChar'].map((key) => [key.toLowerCase(), A1_SETS_THIS] as const),
  ...['StdinNull', 'ForkAfterAuthentication', 'SessionType'].map((key) => [key.toLowerCase(), CUTS_THE_LINK] as const),
]);

const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f]/;
const OPTION = /^([A-Za-z][A-Za-z0-9]*)=(.+)$/s;

export type SshOptionCheck = { ok: true; key: string; value: string } | { ok: false; reason: string };

/** Whether a --ssh-option can be passed as `-o` (for `a1 hosts add` and `a1 config check`). */
export function checkSshOption(option: string): SshOptionCheck {
  const match = OPTION.exec(option);
  if (!match || CONTROL_CHARS.test(option)) return { ok: false, reason: 'an ssh option is written Key=Value, on one line' };
  const refused = REFUSED_KEYS.get(match[1].toLowerCase());
  return refused ? { ok: false, reason: refused } : { ok: true, key: match[1], value: match[2] };
}

/** Why `target` cannot be a host's target, or null when it can. */
export function targetProblem(target: string): string | null {
  if (target.length === 0) return 'a target cannot be empty';
  // After `--` ssh would not read it as an option, but no destination starts with one.
  if (target.startsWith('-')) return "a target cannot start with '-'";
  if (/\s/u.test(target) || CONTROL_CHARS.test(target)) return 'a target cannot contain spaces or control characters';
  return null;
}

/** Why `a1Path` cannot be a host's --a1-path, or null when it can. */
export function a1PathProblem(a1Path: string): string | null {
  if (a1Path.trim().length === 0) return 'an a1 path cannot be empty';
  if (CONTROL_CHARS.test(a1Path)) return 'an a1 path cannot contain control characters';
  return null;
}

/** The control socket of the host's master: named by a hash of what makes the connection, so a
 * changed definition never rides an old master. */
export function controlPath(host: HostDefinition, socketDir: string): string {
  const hash = crypto.createHash('sha256').update(JSON.stringify([host.name, host.target, host.sshOptions])).digest('hex');
  return `${socketDir}/c-${hash.slice(0, CONTROL_HASH_HEX)}`;
}

/** The arguments of the link's ssh (after the program, `ssh` or $A1_SSH). `effective` is the
 * parsed `ssh -G` of the same target and options; without it a1 adds no defaults, since it cannot
 * tell what the user's configuration already sets. Throws on a target targetProblem refuses. */
export function sshArgs(host: HostDefinition, socketDir: string, effective?: SshEffectiveConfig): string[] {
  const problem = targetProblem(host.target);
  if (problem) throw new RangeError(`Host ${host.name}: ${problem}.`);
  const launcher = launcherCommand(host.profile ?? DEFAULT_REMOTE_PROFILE, host.a1Path ?? undefined);
  return [...connectionArgs(host, socketDir), ...defaultArgs(effective), '--', host.target, launcher];
}

/** The arguments of `ssh -G` for the host: the user's options, so the dump shows what they set. */
export function sshConfigDumpArgs(host: HostDefinition): string[] {
  return ['-G', ...userOptionArgs(host), '--', host.target];
}

/** The arguments of `ssh -O check|exit` for the host's master (its pid; ending it). */
export function sshControlArgs(host: HostDefinition, socketDir: string, command: 'check' | 'exit'): string[] {
  return [...connectionArgs(host, socketDir), '-O', command, '--', host.target];
}

/** a1's options, then the user's: everything that decides which master a command reaches. */
function connectionArgs(host: HostDefinition, socketDir: string): string[] {
  const own = [...MANDATORY_OPTIONS, ['ControlPath', controlPathValue(controlPath(host, socketDir))], ['ControlPersist', String(CONTROL_PERSIST_S)]];
  return ['-T', '-e', 'none', ...own.flatMap(([key, value]) => ['-o', `${key}=${value}`]), ...userOptionArgs(host)];
}

/** The user's options that checkSshOption accepts; `a1 config check` reports the others. */
function userOptionArgs(host: HostDefinition): string[] {
  return host.sshOptions.filter((option) => checkSshOption(option).ok).flatMap((option) => ['-o', option]);
}

/** a1's keepalive and connect timeout, each only where the user's configuration left ssh's default. */
function defaultArgs(effective: SshEffectiveConfig | undefined): string[] {
  if (!effective) return [];
  const args: string[] = [];
  const connectTimeout = configValue(effective, 'ConnectTimeout');
  if (connectTimeout === undefined || connectTimeout === 'none') args.push('-o', `ConnectTimeout=${DEFAULT_CONNECT_TIMEOUT_S}`);
  const aliveInterval = configValue(effective, 'ServerAliveInterval');
  if (aliveInterval === undefined || aliveInterval === '0') {
    args.push('-o', `ServerAliveInterval=${DEFAULT_SERVER_ALIVE_INTERVAL_S}`, '-o', `ServerAliveCountMax=${DEFAULT_SERVER_ALIVE_COUNT_MAX}`);
  }
  return args;
}

/** A path as ssh reads a ControlPath value: `%` starts one of its tokens, and the value is split
 * into words like a config line (misc.c argv_split), so a path with spaces or quotes is quoted. */
function controlPathValue(path: string): string {
  const escaped = path.replaceAll('%', '%%');
  return /^[^\s"'\\#]+$/.test(escaped) ? escaped : `"${escaped.replace(/["\\]/g, '\\$&')}"`;
}
