// Bare `a1`: attach to the profile's tabs, starting the server and a first tab when needed;
// `a1 attach TAB` attaches viewing that tab first (it needs the server that has it).
import { ensureProfileDirs } from '../../paths.js';
import { insideLiveTab } from '../nesting.js';
import { unsuitableTerminal } from '../../app/outerTerminal.js';
import { command } from './entry.js';
import { config, setup, UserError, withRunningServer, type Common } from './shared.js';
import { TARGET_HELP, targetTabs } from './targetArgs.js';

export interface OpenSession {
  sessionId: string;
  agent: string | null;
  cwd: string | null;
}

export async function attach(argv: Common, openSession?: OpenSession, viewTab?: string): Promise<number> {
  // Before anything reaches the terminal, as tmux does ("open terminal failed").
  const unsuitable = unsuitableTerminal(process.env);
  if (unsuitable) throw new UserError(unsuitable);
  if (process.env.A1_TAB_ID && (await insideLiveTab(process.env))) {
    throw new UserError('a1 is already running in this tab; use "a1 new" to open another tab.');
  }
  // Captured before a1 changes anything: the child runs in the user's environment and umask.
  const env = { ...process.env };
  const umask = process.umask(0o077);
  const { paths, profile } = setup(argv);
  ensureProfileDirs(paths);
  const cfg = config(paths, { interactive: true });
  // Ink's colour support is detected from FORCE_COLOR: always on, so that attributes (bold,
  // inverse, underline) are drawn; NO_COLOR is honoured by the UI itself (app/outerTerminal.ts
  // uiColour), which then draws with attributes only.
  process.env.FORCE_COLOR = '3';
  // Node warns on stderr (over the screen) when both are set; the UI reads NO_COLOR from `env`.
  delete process.env.NO_COLOR;
  const { runClient } = await import('../../app/client.js');
  return runClient({ paths, profile, config: cfg.config, configProblem: cfg.problem, env, umask, openSession, viewTab });
}

async function attachTo(argv: Common & { tab?: string }): Promise<number> {
  if (argv.tab === undefined) return attach(argv);
  const target = String(argv.tab);
  let tabId = '';
  await withRunningServer(argv, async (server) => {
    tabId = (await targetTabs(server, [target]))[0].id;
    return 0;
  }, { required: true });
  return attach(argv, undefined, tabId);
}

export const attachCommand = command<Common>({
  path: [],
  usage: 'a1',
  summary: 'attach to the tabs, starting the server and a first tab when needed',
  run: (argv) => attach(argv),
});

export const attachTabCommand = command<Common & { tab?: string }>({
  path: ['attach'],
  usage: 'a1 attach [TAB]',
  summary: 'attach as bare a1 does, viewing TAB first',
  positionals: { tab: { describe: `The tab to view first (default: the last viewed). ${TARGET_HELP}`, required: false, completes: 'tab' } },
  examples: [['a1 attach 2', 'attach viewing the second tab of the strip']],
  run: attachTo,
});
