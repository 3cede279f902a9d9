// Bare `a1`: attach to the profile's tabs, starting the server and a first tab when needed.
import { ensureProfileDirs } from '../../paths.js';
import { insideLiveTab } from '../nesting.js';
import { command } from './entry.js';
import { config, setup, UserError, type Common } from './shared.js';

export interface OpenSession {
  sessionId: string;
  agent: string | null;
  cwd: string | null;
}

export async function attach(argv: Common, openSession?: OpenSession): Promise<number> {
  if (process.env.A1_TAB_ID && (await insideLiveTab(process.env))) {
    throw new UserError('a1 is already running in this tab; use "a1 new" to open another tab.');
  }
  // Captured before a1 changes anything: the child runs in the user's environment and umask.
  const env = { ...process.env };
  const umask = process.umask(0o077);
  const { paths, profile } = setup(argv);
  ensureProfileDirs(paths);
  const cfg = config(paths, { interactive: true });
  process.env.FORCE_COLOR = '3';
  const { runClient } = await import('../../app/client.js');
  return runClient({ paths, profile, config: cfg.config, configProblem: cfg.problem, env, umask, openSession });
}

export const attachCommand = command<Common>({
  path: [],
  usage: 'a1',
  summary: 'attach to the tabs, starting the server and a first tab when needed',
  run: (argv) => attach(argv),
});
