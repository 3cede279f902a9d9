// Argv for starting or resuming an agent from its configured spec. Pure.
import type { AgentSpec } from '../config.js';

/** The kind of a tab that runs no agent. */
export const SHELL_KIND = 'shell';

/** Interactive shells: an agent a user starts inside one is the shell's guest, not the tab's own
 * program, so the tab stays a shell (waking it must give the shell back, not the agent). */
const SHELLS: ReadonlySet<string> = new Set(['sh', 'ash', 'dash', 'bash', 'zsh', 'fish', 'ksh', 'mksh', 'oksh', 'yash', 'tcsh', 'csh', 'nu', 'elvish', 'xonsh', 'pwsh']);

/** Whether argv starts an interactive shell (not `sh -c CMD`, which runs CMD). */
export function isShellCommand(argv: readonly string[]): boolean {
  const name = (argv[0] ?? '').split('/').pop()!.replace(/^-/, '');
  return SHELLS.has(name) && !argv.slice(1).includes('-c');
}

/** Replaced wherever it appears inside a resume argument. */
const SESSION_ID_TOKEN = '{sessionId}';
/** An argument that is exactly this is replaced by the tab's own argv. */
const COMMAND_TOKEN = '{command}';

/** Expands a resume template: "{sessionId}" inside any argument is replaced; an argument that is
 * exactly "{command}" is replaced by the tab's own argv (spliced). Null when spec.resume is null,
 * sessionId is empty or contains NUL (it could not pass through argv intact), or the result is empty. */
export function resumeArgv(spec: AgentSpec, tabCommand: readonly string[], sessionId: string): string[] | null {
  if (spec.resume === null || sessionId === '' || sessionId.includes('\0')) return null;
  const argv: string[] = [];
  for (const arg of spec.resume) {
    if (arg === COMMAND_TOKEN) argv.push(...tabCommand);
    // split/join, not String.replace: a session id holding "$&" must stay literal.
    else argv.push(arg.split(SESSION_ID_TOKEN).join(sessionId));
  }
  return argv.length === 0 ? null : argv;
}

/** Argv that starts the agent fresh: spec.command ?? tabCommand. */
export function startArgv(spec: AgentSpec, tabCommand: readonly string[]): string[] {
  return [...(spec.command ?? tabCommand)];
}

/**
 * A shared agent server: Codex's background app-server (`codex app-server --listen …`, started by
 * the first Codex of a CODEX_HOME and joined by every later one, SPEC §16). It runs the hooks of
 * every Codex it serves with the environment of whichever tab started it, so nothing it runs
 * speaks for that tab, and other tabs' agents depend on it living.
 */
export function isSharedAgentServer(argv: readonly string[]): boolean {
  const name = (argv[0] ?? '').split('/').pop();
  return name === 'codex' && argv[1] === 'app-server' && argv.slice(2).some((a) => a === '--listen' || a.startsWith('--listen=') || a === '--managed-daemon');
}
