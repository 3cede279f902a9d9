// Bundle entry for bare `a1`, the start people feel (dist/attach.cjs): bin/a1 loads it instead of
// the CLI's entry, so attaching compiles only the attach command's modules and the terminal UI,
// not every command's.
import { launchUi } from '../app/launch.js';
import { attach } from '../cli/commands/attach.js';
import { runDirect } from '../cli/runDirect.js';

export function attachMain(): Promise<void> {
  return runDirect(() => attach({}, { launchUi }));
}
