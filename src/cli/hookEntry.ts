// Bundle entry for `a1 status --hook AGENT:EVENT [PAYLOAD]`, which bin/a1-hook runs in the
// background for every agent hook event: it loads only the bridge client and the hook mapping,
// not the CLI (a hook's Node start is CPU the agent's own work competes with).
import { runStatusHook } from './status.js';

export async function hookMain(args: readonly string[]): Promise<void> {
  const [spec, payload] = args;
  if (spec !== undefined) await runStatusHook(process.env, spec, payload);
}
