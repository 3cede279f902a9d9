// A CLI command is a declared entry (tmux's cmd_entry): its words, arguments with their
// descriptions, the form the every-form list shows, examples and a handler. One table
// (index.ts) lists them; yargs, --help, the every-form list and the README derive from it.

import type { Paths } from '../../paths.js';

/** What `a1 --session` asks the terminal UI to open as a tab, or focus. */
export interface OpenSession {
  sessionId: string;
  agent: string | null;
  cwd: string | null;
}

/** What a command asks of the terminal UI it starts: the profile, and what to view first. */
export interface UiLaunch {
  paths: Paths;
  profile: string;
  openSession?: OpenSession;
  viewTab?: string;
}

/** What lives above the CLI that a command may start: the binary's entry (src/entry/) hands it
 * in, since the CLI imports nothing of the terminal UI (src/app). */
export interface CommandContext {
  /** Runs the terminal UI until it is left; resolves to the exit code. */
  launchUi(launch: UiLaunch): Promise<number>;
}

export interface PositionalSpec {
  describe: string;
  /** `<name>` when required, `[name]` when it may be left out. */
  required: boolean;
  /** Takes every remaining word (`<name..>`): the last positional only. */
  variadic?: true;
  /** Names a tab: shell completion offers the profile's tabs. */
  completes?: 'tab';
}

export interface OptionSpec {
  type: 'string' | 'boolean';
  describe: string;
  /** Its one-letter form (`-l`), as tmux spells the same flag. */
  short?: string;
  /** Used by a1's own hooks, not people: in --help, not in the every-form list. */
  internal?: true;
}

export type Examples = readonly (readonly [command: string, meaning: string])[];

/** A command parsed by yargs. */
export interface CommandEntry<A = never> {
  kind: 'command';
  /** The words after `a1`: ['tabs', 'stop']; [] is bare `a1`. */
  path: readonly string[];
  /** The form as the every-form list and the README show it. */
  usage: string;
  /** One line, lower case: what the command does. */
  summary: string;
  /** In order. */
  positionals?: Readonly<Record<string, PositionalSpec>>;
  options?: Readonly<Record<string, OptionSpec>>;
  examples?: Examples;
  /** Resolves to the exit code. */
  run(argv: A, context: CommandContext): Promise<number>;
}

/** A form parsed by hand before yargs sees it (`a1 --session`), so every misuse gets its own
 * sentence and the form needs no yargs at all. */
export interface DirectEntry {
  kind: 'direct';
  usage: string;
  summary: string;
  matches(args: readonly string[]): boolean;
  run(args: string[], context: CommandContext): Promise<number>;
}

/** Words that only group commands (`a1 tabs host`). A group may also run a command of its own
 * (`a1 tabs` lists tabs): that is the entry whose path equals the group's. */
export interface GroupEntry {
  path: readonly string[];
  summary: string;
  /** The one sentence for a group named without a command; null when it runs one of its own. */
  missing: string | null;
}

/** Each handler takes its own argv type; `never` admits them all in one table. */
export type FormEntry = CommandEntry<never> | DirectEntry;

/** Declares a command with its handler's argument type checked against its own declaration. */
export function command<A>(entry: Omit<CommandEntry<A>, 'kind'>): CommandEntry<A> {
  return { kind: 'command', ...entry };
}

/** The yargs command string of an entry's last word: `stop [id]`, `install <agent>`, `stop [tabs..]`. */
export function commandString(name: string, positionals: CommandEntry['positionals'] = {}): string {
  const args = Object.entries(positionals).map(([p, spec]) => {
    const word = spec.variadic ? `${p}..` : p;
    return spec.required ? `<${word}>` : `[${word}]`;
  });
  return [name, ...args].join(' ');
}

/** "list tabs" → "List tabs": summaries read as sentences in yargs' command lists. */
export function sentence(summary: string): string {
  return summary.charAt(0).toUpperCase() + summary.slice(1);
}
