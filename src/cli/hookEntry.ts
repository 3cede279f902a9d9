// Bundle entry for `a1 status --hook AGENT:EVENT [PAYLOAD]`, which bin/a1-hook runs in the
// background for every agent hook event, and for `a1 status STATE` as agents and scripts send it:
// it loads only the bridge client and the hook mapping, not the CLI (a report's Node start is CPU
// the agent's own work competes with; the CLI's parser and commands cost about 0.2 CPU-s more).
import { runStatusHook, sendStatus, StatusError, STATUS_STATES, type StatusArgs } from './status.js';

export async function hookMain(args: readonly string[]): Promise<void> {
  const [spec, payload] = args;
  if (spec !== undefined) await runStatusHook(process.env, spec, payload);
}

/** The options of `a1 status` (src/cli/commands/status.ts) a plain report may carry. */
export const PLAIN_OPTIONS = { '--session-id': 'sessionId', '--agent': 'agent', '--name': 'name' } as const;

/**
 * `STATE [--session-id ID] [--agent KIND] [--name NAME]` (each option once, `--opt VALUE` or
 * `--opt=VALUE`), read as the CLI's parser reads it; null for anything else (help, another
 * option, a value that looks like an option, a state the CLI would refuse), which the CLI parses.
 */
export function plainStatusArgs(args: readonly string[]): StatusArgs | null {
  const [state, ...rest] = args;
  if (state === undefined || !(STATUS_STATES as readonly string[]).includes(state)) return null;
  const report: StatusArgs = { state };
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    const eq = arg.indexOf('=');
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    const key = Object.hasOwn(PLAIN_OPTIONS, flag) ? PLAIN_OPTIONS[flag as keyof typeof PLAIN_OPTIONS] : undefined;
    const value = eq > 0 ? arg.slice(eq + 1) : rest[++i];
    if (key === undefined || value === undefined || value === '' || value.startsWith('-') || report[key] !== undefined) return null;
    report[key] = value;
  }
  return report;
}

/** Runs a plain `a1 status` (see plainStatusArgs) as the CLI would, with its error line and exit
 * code; false when the arguments are not plain, so the caller hands them to the CLI. */
export async function statusMain(args: readonly string[]): Promise<boolean> {
  const report = plainStatusArgs(args);
  if (report === null) return false;
  try {
    await sendStatus(process.env, report);
  } catch (err) {
    if (!(err instanceof StatusError)) throw err;
    process.stderr.write(`a1: ${err.message}\n`);
    process.exitCode = 1;
  }
  return true;
}
