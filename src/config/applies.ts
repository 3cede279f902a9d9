// How a change to each config key reaches a running a1 (issue 18): the client reads its keys at
// each attach; the server takes the rest at `a1 tabs host reload`, at once or, for what a tab's
// holder was started with, at that tab's next start. A table beside CONFIG_KEYS rather than a field
// of each entry, so that adding a key stays a one-line change there; a key missing here is said to
// need a host stop (always true) and test/config/applies.test.ts names it.
import { CONFIG_KEYS, defaultConfig, type Config, type ConfigKey } from '../config.js';

export type Applies =
  /** Read by `a1` as it attaches: the next attach uses it, no reload needed. */
  | 'attach'
  /** The server uses it from `a1 tabs host reload` on. */
  | 'reload'
  /** Given to a tab's holder as it starts: after a reload, each tab from its next start. */
  | 'tabStart'
  /** Only a server start reads it. */
  | 'hostStop';

export const CONFIG_APPLIES: Partial<Record<ConfigKey, Applies>> = {
  tabCommand: 'reload',
  agents: 'reload',
  tabsMax: 'reload',
  tabsMaxConcurrentStarts: 'reload',
  scrollbackLines: 'tabStart',
  inputQueueBytes: 'tabStart',
  clientQueueBytes: 'reload',
  detachIntervalMs: 'attach',
  escapeTimeoutMs: 'attach',
  serverIdleExitMinutes: 'reload',
  idleSuspendMinutes: 'reload',
  tabsUnresponsiveRestartSeconds: 'tabStart',
  tabsStallNoticeSeconds: 'tabStart',
  closeGraceMs: 'reload',
  allowClipboardWrite: 'attach',
  chipNumbers: 'attach',
  tabsAutoName: 'reload',
  newTabInCurrentDir: 'attach',
  theme: 'attach',
};

export function appliesOf(key: ConfigKey): Applies {
  return CONFIG_APPLIES[key] ?? 'hostStop';
}

/** When a change to `key` takes effect, as a clause after the key's name. */
export function whenItApplies(key: ConfigKey): string {
  switch (appliesOf(key)) {
    case 'attach':
      return 'applies at the next attach (`a1`)';
    case 'reload':
      return 'applies live at `a1 tabs host reload`';
    case 'tabStart':
      return "applies to each tab from its next start after `a1 tabs host reload` (`a1 tabs host stop` restarts them all)";
    case 'hostStop':
      return 'applies at the next `a1 tabs host stop`';
  }
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The keys whose values differ between two configs, in CONFIG_KEYS order. */
export function changedKeys(before: Config, after: Config): ConfigKey[] {
  return (Object.keys(CONFIG_KEYS) as ConfigKey[]).filter((k) => !same(before[k], after[k]));
}

/** The keys `config` sets to something other than their defaults. */
export function nonDefaultKeys(config: Config, env: NodeJS.ProcessEnv): ConfigKey[] {
  return changedKeys(defaultConfig(env), config);
}

const GROUP_ORDER: readonly Applies[] = ['reload', 'tabStart', 'attach', 'hostStop'];

/** One line per kind of change, e.g. "Applied now: tabsMax, closeGraceMs." and "scrollbackLines
 * applies to each tab from its next start (`a1 tabs host stop` restarts them all)."; after a reload. */
export function describeReload(changes: readonly { key: string; applies: Applies }[]): string[] {
  return GROUP_ORDER.flatMap((applies) => {
    const keys = changes.filter((c) => c.applies === applies).map((c) => c.key);
    if (keys.length === 0) return [];
    const list = keys.join(', ');
    const verb = keys.length === 1 ? 'applies' : 'apply';
    switch (applies) {
      case 'reload':
        return [`Applied now: ${list}.`];
      case 'tabStart':
        return [`${list} ${verb} to each tab from its next start (\`a1 tabs host stop\` restarts them all).`];
      case 'attach':
        return [`${list} ${verb} at the next attach (\`a1\`).`];
      case 'hostStop':
        return [`${list} ${verb} at the next \`a1 tabs host stop\`.`];
    }
  });
}
