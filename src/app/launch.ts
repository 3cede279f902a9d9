// Starting the terminal UI, once the command line decided what to open (bare `a1`, `a1 attach`,
// `a1 --session`; the binary's entry hands this to the CLI, src/entry/): the outer terminal is
// checked before anything reaches it, and the profile and config readied.
import { ensureProfileDirs } from '../paths.js';
import { loadConfig } from '../config/load.js';
import { unsuitableTerminal } from './outerTerminal.js';
import type { ClientOptions } from './client.js';

type UiLaunch = Pick<ClientOptions, 'paths' | 'profile' | 'openSession' | 'viewTab'>;

export async function launchUi(launch: UiLaunch): Promise<number> {
  // Before anything reaches the terminal, as tmux does ("open terminal failed").
  const unsuitable = unsuitableTerminal(process.env);
  if (unsuitable) {
    process.stderr.write(`a1: ${unsuitable}\n`);
    return 1;
  }
  // Captured before a1 changes anything: the child runs in the user's environment and umask.
  const env = { ...process.env };
  const umask = process.umask(0o077);
  ensureProfileDirs(launch.paths);
  // A broken config.json never stops the UI: its problem is shown as a notice there (issue 15).
  const cfg = loadConfig(launch.paths.configDir, process.env);
  // Ink's colour support is detected from FORCE_COLOR: always on, so that attributes (bold,
  // inverse, underline) are drawn; NO_COLOR is honoured by the UI itself (outerTerminal.ts
  // uiColour), which then draws with attributes only.
  process.env.FORCE_COLOR = '3';
  // Node warns on stderr (over the screen) when both are set; the UI reads NO_COLOR from `env`.
  delete process.env.NO_COLOR;
  const { runClient } = await import('./client.js');
  return runClient({ ...launch, config: cfg.config, configProblem: cfg.problem, env, umask });
}
