// The command prompt's commands (Alt+;, SPEC §8), declared once: name, argument and
// description. Parsing, usage lines and suggestions derive from this table.
import { validateTabName } from '../../tabName.js';

interface ArgSpec {
  /** How the usage line names the argument. */
  readonly label: string;
  readonly required: boolean;
}

export interface CommandSpec {
  readonly name: string;
  /** Every argument is a tab name: the rest of the line, checked by validateTabName. */
  readonly arg: ArgSpec | null;
  readonly description: string;
}

export const COMMANDS = [
  { name: 'tabs', arg: null, description: 'Pick a tab to view' },
  { name: 'new-tab', arg: { label: 'name', required: false }, description: 'Open a new tab' },
  { name: 'name', arg: { label: 'name', required: true }, description: 'Rename the viewed tab' },
  { name: 'close', arg: null, description: 'Close the viewed tab' },
  { name: 'sleep', arg: null, description: 'Checkpoint the viewed tab and stop it' },
  { name: 'restart', arg: null, description: 'Restart the viewed tab\'s program, resuming its session' },
  { name: 'detach', arg: null, description: 'Detach this client; nothing reaches the tab, tabs keep running' },
  { name: 'quit', arg: null, description: 'Detach this client; tabs keep running' },
  { name: 'quit-all', arg: null, description: 'Stop every tab, then detach' },
  { name: 'hotkeys', arg: null, description: 'List the key bindings' },
] as const satisfies readonly CommandSpec[];

type Spec = (typeof COMMANDS)[number];
export type CommandName = Spec['name'];

type ArgField<S extends Spec> = S['arg'] extends { required: true }
  ? { arg: string }
  : S['arg'] extends { required: false }
    ? { arg: string | null }
    : unknown;

/** A parsed command: its name, and its argument (a valid tab name) when it takes one. */
export type Command = Spec extends infer S ? (S extends Spec ? { name: S['name'] } & ArgField<S> : never) : never;

export type ParsedCommand = { ok: true; command: Command } | { ok: false; error: string };

/** `/name <name>`, `/new-tab [name]`, `/tabs`. */
export function commandUsage(spec: CommandSpec): string {
  if (spec.arg === null) return `/${spec.name}`;
  return spec.arg.required ? `/${spec.name} <${spec.arg.label}>` : `/${spec.name} [${spec.arg.label}]`;
}

/** Suggestions beyond this many edits are more confusing than a list of the commands. */
const SUGGEST_MAX_EDITS = 2;

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = row;
  }
  return prev[b.length];
}

/** The command `word` most likely meant: the only one it begins, else the nearest by edits. */
function closest(word: string): Spec | null {
  const prefixed = COMMANDS.filter((c) => word !== '' && c.name.startsWith(word));
  if (prefixed.length === 1) return prefixed[0];
  let best: Spec | null = null;
  let bestDistance = SUGGEST_MAX_EDITS + 1;
  for (const c of COMMANDS) {
    const d = editDistance(word, c.name);
    if (d < bestDistance) [best, bestDistance] = [c, d];
  }
  return best;
}

function find(word: string): Spec | undefined {
  return COMMANDS.find((c) => c.name === word);
}

const COMMAND_LIST = COMMANDS.map((c) => `/${c.name}`).join(' ');

export function parseCommand(line: string): ParsedCommand {
  const trimmed = line.trim();
  if (trimmed === '') return { ok: false, error: 'Type a command, such as /tabs.' };
  const space = trimmed.search(/\s/);
  const head = space < 0 ? trimmed : trimmed.slice(0, space);
  const rest = space < 0 ? '' : trimmed.slice(space).trim();
  if (!head.startsWith('/')) {
    const meant = find(head.toLowerCase());
    return { ok: false, error: meant ? `Commands start with "/": try /${meant.name}.` : `Commands start with "/": ${COMMAND_LIST}.` };
  }
  const word = head.slice(1).toLowerCase();
  const spec = find(word);
  if (!spec) {
    const meant = closest(word);
    return {
      ok: false,
      error: meant ? `Unknown command ${head}; did you mean /${meant.name}?` : `Unknown command ${head}; try ${COMMAND_LIST}.`,
    };
  }
  if (spec.arg === null) {
    return rest === '' ? { ok: true, command: { name: spec.name } as Command } : { ok: false, error: `/${spec.name} takes no argument.` };
  }
  if (rest === '') {
    if (spec.arg.required) return { ok: false, error: `/${spec.name} needs a ${spec.arg.label}: ${commandUsage(spec)}.` };
    return { ok: true, command: { name: spec.name, arg: null } as Command };
  }
  const verdict = validateTabName(rest);
  if (!verdict.ok) return { ok: false, error: verdict.reason };
  return { ok: true, command: { name: spec.name, arg: verdict.name } as Command };
}
