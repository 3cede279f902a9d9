// `a1 tabs sleep TAB…`: checkpoint agent tabs and stop them; viewing one resumes its session.
import { command } from './entry.js';
import { withRunningServer, type Common } from './shared.js';
import { manyTabs, targetTabs } from './targetArgs.js';

type SleepArgs = Common & { tabs: string[] };

async function sleepTabs(argv: SleepArgs): Promise<number> {
  return withRunningServer(argv, async (server) => {
    const tabs = await targetTabs(server, argv.tabs);
    for (const tab of tabs) {
      await server.request('sleep', { tabId: tab.id });
      process.stdout.write(`Tab ${tab.name} (${tab.id}) is asleep; viewing it resumes its session.\n`);
    }
    return 0;
  }, { required: true });
}

export const tabsSleepCommand = command<SleepArgs>({
  path: ['tabs', 'sleep'],
  usage: 'a1 tabs sleep TAB…',
  summary: 'checkpoint agent tabs and stop them; viewing one resumes its session',
  positionals: { tabs: manyTabs(true) },
  run: sleepTabs,
});
