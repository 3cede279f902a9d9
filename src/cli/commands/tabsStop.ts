// `a1 tabs stop TAB… | --all`: close tabs, ending their processes.
import type { Closed } from '../../protocol/requests.js';
import { command } from './entry.js';
import { UserError, withRunningServer, type Common } from './shared.js';
import { manyTabs, targetTabs } from './targetArgs.js';

type StopArgs = Common & { tabs?: string[]; all?: boolean };

async function stopTabs(argv: StopArgs): Promise<number> {
  const targets = argv.tabs ?? [];
  if (targets.length === 0 && !argv.all) throw new UserError('Name a tab (its id, position or name), or pass --all.');
  if (targets.length > 0 && argv.all) throw new UserError('Name tabs or pass --all, not both.');
  return withRunningServer(argv, async (server) => {
    // Every target resolves before anything closes: one that names no tab stops nothing.
    const tabs = argv.all ? (await server.request('list')).tabs : await targetTabs(server, targets);
    if (tabs.length === 0) {
      process.stdout.write('No tabs to stop.\n');
      return 0;
    }
    // Closed together; each reply comes once that tab's processes have ended, naming any that
    // outlived their SIGKILL: the tab is closed all the same, and those are left running.
    let done = 0;
    let incomplete = 0;
    const progress = (name: string, r: Closed | null) => {
      process.stdout.write(`  stopped ${name} (${++done}/${tabs.length})\n`);
      if (!r?.incomplete) return;
      incomplete += 1;
      process.stderr.write(`a1: ${r.incomplete.message}\n`);
    };
    if (tabs.length > 1) process.stdout.write(`Stopping ${tabs.length} tabs…\n`);
    await Promise.all(tabs.map((t) => server.request('close', { tabId: t.id, wait: true }).then((r) => progress(t.name, r))));
    process.stdout.write(`Stopped ${tabs.length} ${tabs.length === 1 ? 'tab' : 'tabs'}.\n`);
    return incomplete > 0 ? 1 : 0;
  }, { required: !argv.all });
}

export const tabsStopCommand = command<StopArgs>({
  path: ['tabs', 'stop'],
  usage: 'a1 tabs stop TAB… | --all',
  summary: 'close tabs: ends their processes and revokes their resume records',
  positionals: { tabs: manyTabs(false) },
  options: { all: { type: 'boolean', describe: 'Stop every tab' } },
  examples: [
    ['a1 tabs stop 3 "build watcher"', 'close the third tab and the tab named "build watcher"'],
    ['a1 tabs stop --all', 'close every tab of the profile (the server stays)'],
  ],
  run: stopTabs,
});
