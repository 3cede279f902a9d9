// Bare `a1`: attach to the profile's tabs, starting the server and a first tab when needed;
// `a1 attach TAB` attaches viewing that tab first (it needs the server that has it). The terminal
// UI itself comes from the binary's entry (`context.launchUi`): the CLI imports nothing of it.
import { insideLiveTab } from '../nesting.js';
import { command, type CommandContext, type OpenSession } from './entry.js';
import { setup, UserError, withRunningServer, type Common } from './shared.js';
import { TARGET_HELP, targetTabs } from './targetArgs.js';

export async function attach(argv: Common, context: CommandContext, openSession?: OpenSession, viewTab?: string): Promise<number> {
  if (process.env.A1_TAB_ID && (await insideLiveTab(process.env))) {
    throw new UserError('a1 is already running in this tab; use "a1 new" to open another tab.');
  }
  const { paths, profile } = setup(argv);
  return context.launchUi({ paths, profile, openSession, viewTab });
}

async function attachTo(argv: Common & { tab?: string }, context: CommandContext): Promise<number> {
  if (argv.tab === undefined) return attach(argv, context);
  const target = String(argv.tab);
  let tabId = '';
  await withRunningServer(argv, async (server) => {
    tabId = (await targetTabs(server, [target]))[0].id;
    return 0;
  }, { required: true });
  return attach(argv, context, undefined, tabId);
}

export const attachCommand = command<Common>({
  path: [],
  usage: 'a1',
  summary: 'attach to the tabs, starting the server and a first tab when needed',
  run: (argv, context) => attach(argv, context),
});

export const attachTabCommand = command<Common & { tab?: string }>({
  path: ['attach'],
  usage: 'a1 attach [TAB]',
  summary: 'attach as bare a1 does, viewing TAB first',
  positionals: { tab: { describe: `The tab to view first (default: the last viewed). ${TARGET_HELP}`, required: false, completes: 'tab' } },
  examples: [['a1 attach 2', 'attach viewing the second tab of the strip']],
  run: attachTo,
});
