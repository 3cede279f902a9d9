// `a1 tabs sleep <id>`: checkpoint an agent tab and stop it; viewing it resumes the session.
import { command } from './entry.js';
import { UserError, withRunningServer, type Common } from './shared.js';

async function sleepTab(argv: Common & { id: string }): Promise<number> {
  return withRunningServer(argv, async (server) => {
    const listing = await server.request('list');
    if (!listing.tabs.some((t) => t.id === argv.id)) throw new UserError(`No tab has the id "${argv.id}".`);
    await server.request('sleep', { tabId: argv.id });
    process.stdout.write(`Tab ${argv.id} is asleep; viewing it resumes its session.\n`);
    return 0;
  }, { required: true });
}

export const tabsSleepCommand = command<Common & { id: string }>({
  path: ['tabs', 'sleep'],
  usage: 'a1 tabs sleep <id>',
  summary: 'checkpoint an agent tab and stop it; viewing it resumes its session',
  positionals: { id: { describe: 'Tab id', required: true } },
  run: sleepTab,
});
