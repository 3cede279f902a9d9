// The tab arguments of the commands that act on tabs (src/cli/tabTargets.ts has the rule): their
// declaration, and the tabs they name on the running server, or the one sentence why not.
import type { ListingEntry } from '../../protocol/messages.js';
import type { ServerClient } from '../../client/serverClient.js';
import { resolveTargets, TARGET_HELP } from '../tabTargets.js';
import type { PositionalSpec } from './entry.js';
import { UserError } from './shared.js';

export { TARGET_HELP };

/** One tab, required. */
export const ONE_TAB: PositionalSpec = { describe: `The tab. ${TARGET_HELP}`, required: true, completes: 'tab' };

/** Several tabs; nothing is done when any of them names no tab. */
export function manyTabs(required: boolean): PositionalSpec {
  return { describe: `Tabs, one or more. ${TARGET_HELP} If any names no tab, nothing is done.`, required, variadic: true, completes: 'tab' };
}

/** The listed tabs the targets name, in the order named, each once. */
export async function targetTabs(server: ServerClient, targets: readonly string[]): Promise<ListingEntry[]> {
  const listing = await server.request('list');
  const resolved = resolveTargets(listing.tabs, targets.map(String));
  if (!resolved.ok) throw new UserError(resolved.message);
  return resolved.tabs;
}
