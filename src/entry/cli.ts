// Bundle entry for the command line (dist/main.js, which bin/a1 loads): the CLI, handed the
// terminal UI that `a1 attach` and `a1 --session` start. The CLI imports nothing of src/app; the
// UI's modules load only when one of those commands runs.
import type { CommandContext } from '../cli/commands/entry.js';
import { main as cliMain } from '../cli/main.js';

const context: CommandContext = {
  launchUi: async (launch) => (await import('../app/launch.js')).launchUi(launch),
};

export function main(args: string[]): Promise<void> {
  return cliMain(args, context);
}
