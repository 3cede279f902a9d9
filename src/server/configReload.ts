// `a1 tabs host reload` (issue 18): the server reads config.json again and uses it from then on,
// without stopping a tab. A request rather than a watch on the file: an editor's save is several
// writes and renames, and a watch acting on the half-written file would apply what the user never
// meant; asked for, the reload reads the file the user finished, and its answer says what applied.
import type { Config } from '../config.js';
import { changedKeys, appliesOf, describeReload } from '../config/applies.js';
import { formatProblem, loadConfig } from '../config/load.js';
import type { ConfigReload } from '../protocol/requests.js';
import { isShellCommand } from '../lifecycle/agents.js';
import type { CoreLimits } from './core/index.js';

/** The core's bounds from a config. */
export function coreLimits(c: Config): CoreLimits {
  return {
    tabsMax: c.tabsMax,
    maxConcurrentStarts: c.tabsMaxConcurrentStarts,
    idleSuspendMs: c.idleSuspendMinutes * 60_000,
    serverIdleExitMs: c.serverIdleExitMinutes * 60_000,
    agentKinds: Object.keys(c.agents),
    tabCommandIsShell: isShellCommand(c.tabCommand),
    resumableKinds: Object.keys(c.agents).filter((k) => c.agents[k].resume),
    autoName: c.tabsAutoName,
  };
}

/** Reads the file into `running` in place: the server's parts hold that one object and read it as
 * they act. A file that cannot be parsed at all changes nothing (a running server keeps what works
 * rather than fall back to every default); a bad key takes its default, as at a start. */
export function reloadConfig(
  running: Config,
  configDir: string,
  env: NodeJS.ProcessEnv,
  to: { setLimits: (limits: CoreLimits) => void; notice: (text: string) => void },
): ConfigReload {
  const loaded = loadConfig(configDir, env);
  const problems = loaded.problems.map(formatProblem);
  if (loaded.unusable) return { kept: true, changed: [], problems };
  const changed = changedKeys(running, loaded.config);
  Object.assign(running, loaded.config);
  to.setLimits(coreLimits(running));
  const described = changed.map((key) => ({ key, applies: appliesOf(key) }));
  // Attached clients see it too: their own keys (the theme) wait for their next attach.
  if (described.length > 0) to.notice(`Config reloaded. ${describeReload(described).join(' ')}`);
  return { kept: false, changed: described, problems };
}
