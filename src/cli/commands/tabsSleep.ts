// `a1 tabs sleep <id>`: checkpoint an agent tab and stop it; viewing it resumes the session.
import type { Listing } from '../../protocol/messages.js';
import { command } from './entry.js';
import { existingServer, setup, UserError, type Common } from './shared.js';

async function sleepTab(argv: Common & { id: string }): Promise<number> {
  const { paths, profile } = setup(argv);
  const server = await existingServer(paths, profile);
  if (!server) throw new UserError(`No a1 server is running for profile "${profile}".`);
  try {
    const listing = await server.request<Listing>('list');
    if (!listing.tabs.some((t) => t.id === argv.id)) throw new UserError(`No tab has the id "${argv.id}".`);
    await server.request('sleep', { tabId: argv.id });
    process.stdout.write(`Tab ${argv.id} is asleep; viewing it resumes its session.\n`);
    return 0;
  } finally {
    server.close();
  }
}

export const tabsSleepCommand = command<Common & { id: string }>({
  path: ['tabs', 'sleep'],
  usage: 'a1 tabs sleep <id>',
  summary: 'checkpoint an agent tab and stop it; viewing it resumes its session',
  positionals: { id: { describe: 'Tab id', required: true } },
  run: sleepTab,
});
