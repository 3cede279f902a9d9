// Bundle entry for bare `a1`, the start people feel: bin/a1 loads it instead of the CLI's
// entry, so attaching compiles only the attach command's modules, not every command's.
import { attach } from './commands/attach.js';
import { runDirect } from './runDirect.js';

export function attachMain(): Promise<void> {
  return runDirect(() => attach({}));
}
