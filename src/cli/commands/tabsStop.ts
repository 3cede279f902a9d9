// `a1 tabs stop <id> | --all`: close tabs, ending their processes.
import type { Closed } from '../../protocol/requests.js';
import { command } from './entry.js';
import { UserError, withRunningServer, type Common } from './shared.js';

async function stopTabs(argv: Common & { id?: string; all?: boolean }): Promise<number> {
  if (!argv.id && !argv.all) throw new UserError('Name a tab id, or pass --all.');
  return withRunningServer(argv, async (server) => {
    const listing = await server.request('list');
    const ids = argv.all ? listing.tabs.map((t) => t.id) : [argv.id!];
    if (!argv.all && !listing.tabs.some((t) => t.id === argv.id)) throw new UserError(`No tab has the id "${argv.id}".`);
    if (ids.length === 0) {
      process.stdout.write('No tabs to stop.\n');
      return 0;
    }
    // Closed together; each reply comes once that tab's processes have ended, naming any that
    // outlived their SIGKILL: the tab is closed all the same, and those are left running.
    let done = 0;
    let incomplete = 0;
    const nameOf = (id: string) => listing.tabs.find((t) => t.id === id)?.name ?? id;
    const progress = (id: string, r: Closed | null) => {
      process.stdout.write(`  stopped ${nameOf(id)} (${++done}/${ids.length})\n`);
      if (!r?.incomplete) return;
      incomplete += 1;
      process.stderr.write(`a1: ${r.incomplete.message}\n`);
    };
    if (ids.length > 1) process.stdout.write(`Stopping ${ids.length} tabs…\n`);
    await Promise.all(ids.map((id) => server.request('close', { tabId: id, wait: true }).then((r) => progress(id, r))));
    process.stdout.write(`Stopped ${ids.length} ${ids.length === 1 ? 'tab' : 'tabs'}.\n`);
    return incomplete > 0 ? 1 : 0;
  });
}

export const tabsStopCommand = command<Common & { id?: string; all?: boolean }>({
  path: ['tabs', 'stop'],
  usage: 'a1 tabs stop <id> | --all',
  summary: 'close tabs: ends their processes and revokes their resume records',
  positionals: { id: { describe: 'Tab id', required: false } },
  options: { all: { type: 'boolean', describe: 'Stop every tab' } },
  examples: [['a1 tabs stop --all', "close every tab of the profile (the server stays)"]],
  run: stopTabs,
});
