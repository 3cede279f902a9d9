// Runs a command outside yargs (bare `a1`, `a1 --session`), reporting a user's error in one
// line as yargs would report its own.
import { ServerError } from '../client/serverClient.js';
import { UserError } from './commands/shared.js';

export async function runDirect(command: () => Promise<number>): Promise<void> {
  try {
    process.exitCode = await command();
  } catch (err) {
    if (!(err instanceof UserError || err instanceof ServerError)) throw err;
    process.stderr.write(`a1: ${err.message}\n`);
    process.exitCode = 1;
  }
}
