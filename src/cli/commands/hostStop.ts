// `a1 tabs host stop`: stop every tab, then the server; the tab set is kept for the next a1.
import { command } from './entry.js';
import { withRunningServer, type Common } from './shared.js';

async function hostStop(argv: Common): Promise<number> {
  return withRunningServer(argv, async (server) => {
    process.stdout.write('Stopping every tab and the server…\n');
    const r = await server.request('hostStop');
    process.stdout.write(`Stopped ${r.stopped} ${r.stopped === 1 ? 'tab' : 'tabs'} and the server.\n`);
    return 0;
  });
}

export const hostStopCommand = command<Common>({
  path: ['tabs', 'host', 'stop'],
  usage: 'a1 tabs host stop',
  summary: 'stop every tab (agents keep a quit record), then the server',
  run: hostStop,
});
