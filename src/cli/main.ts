// The `a1` command line (SPEC §11). Every command is a declared entry in commands/ and listed
// once in commands/index.ts; yargs, `--help` and its every-form list are built from that table.
// Resident processes (`__server`, `__holder`) never come here: bin/a1 loads their own bundles.
//
// yargs and the registry (a native addon) load only for the commands that need them: bare `a1`
// is the moment people feel, and it needs neither (SPEC §8, start-up).
import { ServerError } from '../client/serverClient.js';
import { VERSION } from '../version.js';
import { attach } from './commands/attach.js';
import type { CommandContext, CommandEntry } from './commands/entry.js';
import { COMMANDS, GROUPS } from './commands/index.js';
import { UserError } from './commands/shared.js';
import { declareCommands } from './declareCommands.js';
import { runDirect } from './runDirect.js';
import { formatForms } from './forms.js';

/** yargs' own help width: the terminal's, at most 80 columns. */
const HELP_WIDTH_MAX = 80;

/** The every-form list at the end of `a1 --help`, laid out for `width` columns. */
export function everyForm(width: number): string {
  return `Every form:\n${formatForms(COMMANDS, { width, indent: 2, column: Math.min(34, Math.floor(width * 0.45)) })}`;
}

/** `context`: what the binary's entry hands the commands (src/entry/cli.ts). */
export async function main(args: string[], context: CommandContext): Promise<void> {
  for (const entry of COMMANDS) if (entry.kind === 'direct' && entry.matches(args)) return runDirect(() => entry.run(args, context));
  // Bare `a1`: attach at once, without parsing anything.
  if (args.length === 0) return runDirect(() => attach({}, context));
  const run = (entry: CommandEntry<never>) => async (argv: unknown) => {
    process.exitCode = await entry.run(argv as never, context);
  };
  const { default: yargs } = await import('yargs');
  const cli = yargs(args)
    .parserConfiguration({ 'populate--': true })
    .scriptName('a1')
    .usage('a1 — resident agent tabs in the terminal\n\nUsage: a1 [command] [options]')
    .option('profile', { type: 'string', describe: 'Profile to use (default: $A1_PROFILE or "default")', global: true });
  declareCommands(cli, COMMANDS, GROUPS, run)
    .epilog(everyForm(Math.min(HELP_WIDTH_MAX, cli.terminalWidth() || HELP_WIDTH_MAX)))
    .version(VERSION)
    .help()
    .alias('h', 'help')
    .strict()
    .fail((msg, err) => {
      // yargs reports argument errors either as a message or as its own YError.
      if (err && err.name !== 'YError') throw err;
      process.stderr.write(`a1: ${msg ?? err?.message}\nRun "a1 --help" for usage.\n`);
      process.exit(2);
    });
  try {
    await cli.parseAsync();
  } catch (err) {
    if (err instanceof UserError || err instanceof ServerError || (err as { code?: string }).code) {
      process.stderr.write(`a1: ${(err as Error).message}\n`);
      process.exitCode = 1;
      return;
    }
    throw err;
  }
}
