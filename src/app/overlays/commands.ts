// The command prompt's commands (Alt+;, SPEC §8), declared once: name, argument and
// description. Parsing, completion, usage lines, /help and suggestions derive from this table,
// and every key of the keymap runs one of these commands (keymap/actions.ts `command`, as tmux
// binds keys to commands): one vocabulary for what a person can ask of a1.
// As in tmux, a command may be typed as any prefix that names only it (`/res` runs /restart), and
// the leading `/` is optional (`/tabs` and `tabs` are the same).
import { validateTabName } from '../../tabName.js';

/** What an argument is: a tab name (the rest of the line, checked by validateTabName), a tab's
 * position in the strip (1 is the first), or a side. */
type ArgKind = 'tabName' | 'tabNumber' | 'side';

interface ArgSpec {
  /** How the usage line names the argument. */
  readonly label: string;
  readonly required: boolean;
  readonly kind: ArgKind;
}

export interface CommandSpec {
  readonly name: string;
  readonly arg: ArgSpec | null;
  readonly description: string;
}

const TAB_NAME = { label: 'name', kind: 'tabName' } as const;

export const COMMANDS = [
  { name: 'tabs', arg: null, description: 'Pick a tab to view' },
  { name: 'new-tab', arg: { ...TAB_NAME, required: false }, description: 'Open a new tab' },
  { name: 'next-tab', arg: null, description: 'View the next tab (wraps)' },
  { name: 'previous-tab', arg: null, description: 'View the previous tab (wraps)' },
  { name: 'view-tab', arg: { label: 'number', required: true, kind: 'tabNumber' }, description: 'View the tab at this place in the strip' },
  { name: 'move-tab', arg: { label: 'left|right', required: true, kind: 'side' }, description: 'Move the viewed tab one place left or right' },
  { name: 'name', arg: { ...TAB_NAME, required: true }, description: 'Rename the viewed tab' },
  { name: 'edit-name', arg: null, description: 'Edit the viewed tab\'s name on its chip' },
  { name: 'close', arg: null, description: 'Close the viewed tab' },
  { name: 'sleep', arg: null, description: 'Checkpoint the viewed tab and stop it' },
  { name: 'restart', arg: null, description: 'Restart the viewed tab\'s program, resuming its session' },
  { name: 'control', arg: null, description: 'Take control of the viewed tab from another client' },
  { name: 'copy-mode', arg: null, description: 'Enter copy mode (q or Esc returns to live)' },
  { name: 'command-prompt', arg: null, description: 'Open the command prompt' },
  { name: 'detach', arg: null, description: 'Detach this client; nothing reaches the tab, tabs keep running' },
  { name: 'quit', arg: null, description: 'Detach this client; tabs keep running' },
  { name: 'quit-all', arg: null, description: 'Stop every tab, then detach' },
  { name: 'hotkeys', arg: null, description: 'List the key bindings' },
  { name: 'help', arg: null, description: 'List the commands and the keys (also /?)' },
] as const satisfies readonly CommandSpec[];

type Spec = (typeof COMMANDS)[number];
export type CommandName = Spec['name'];

/** An argument's value by its kind. */
type ArgValue<A> = A extends { kind: 'tabNumber' } ? number : A extends { kind: 'side' } ? Side : string;

export type Side = 'left' | 'right';

type ArgField<S extends Spec> = S['arg'] extends { required: true }
  ? { arg: ArgValue<S['arg']> }
  : S['arg'] extends { required: false }
    ? { arg: ArgValue<S['arg']> | null }
    : unknown;

/** A parsed command: its name, and its argument (a valid tab name, a tab number or a side) when it takes one. */
export type Command = Spec extends infer S ? (S extends Spec ? { name: S['name'] } & ArgField<S> : never) : never;

export type ParsedCommand = { ok: true; command: Command } | { ok: false; error: string };

/** `/name <name>`, `/new-tab [name]`, `/tabs`. */
export function commandUsage(spec: CommandSpec): string {
  if (spec.arg === null) return `/${spec.name}`;
  return spec.arg.required ? `/${spec.name} <${spec.arg.label}>` : `/${spec.name} [${spec.arg.label}]`;
}

/** Suggestions beyond this many edits are more confusing than a list of the commands. */
const SUGGEST_MAX_EDITS = 2;
/** `/?` is /help, as in many programs. */
const ALIASES: Readonly<Record<string, CommandName>> = { '?': 'help' };

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

/** The command nearest `word` by edits, if any is near enough. */
function nearest(word: string): Spec | null {
  let best: Spec | null = null;
  let bestDistance = SUGGEST_MAX_EDITS + 1;
  for (const c of COMMANDS) {
    const d = editDistance(word, c.name);
    if (d < bestDistance) [best, bestDistance] = [c, d];
  }
  return best;
}

/** What a typed command word (without its `/`) names. */
export type CommandMatch =
  | { kind: 'one'; spec: Spec }
  | { kind: 'ambiguous'; names: CommandName[] }
  | { kind: 'unknown'; suggestion: CommandName | null };

/** The commands whose names begin with `word`, in table order. */
export function commandsStartingWith(word: string): Spec[] {
  return COMMANDS.filter((c) => c.name.startsWith(word));
}

/** An exact name (or alias) wins; else a prefix of exactly one name (tmux's rule); else ambiguous or unknown. */
export function matchCommand(word: string): CommandMatch {
  const w = word.toLowerCase();
  const alias = Object.hasOwn(ALIASES, w) ? ALIASES[w] : undefined;
  const exact = COMMANDS.find((c) => c.name === (alias ?? w));
  if (exact) return { kind: 'one', spec: exact };
  const prefixed = w === '' ? [] : commandsStartingWith(w);
  if (prefixed.length === 1) return { kind: 'one', spec: prefixed[0] };
  if (prefixed.length > 1) return { kind: 'ambiguous', names: prefixed.map((c) => c.name) };
  return { kind: 'unknown', suggestion: nearest(w)?.name ?? null };
}

/** The line's first word without the one optional `/` it may start with. */
function commandWord(head: string): string {
  return head.startsWith('/') ? head.slice(1) : head;
}

const COMMAND_LIST = COMMANDS.map((c) => `/${c.name}`).join(' ');

export function parseCommand(line: string): ParsedCommand {
  const trimmed = line.trim();
  if (trimmed === '' || trimmed === '/') return { ok: false, error: 'Type a command, such as /tabs; /help lists them.' };
  const space = trimmed.search(/\s/);
  const head = space < 0 ? trimmed : trimmed.slice(0, space);
  const rest = space < 0 ? '' : trimmed.slice(space).trim();
  const word = commandWord(head);
  const match = matchCommand(word);
  if (match.kind === 'ambiguous') {
    return { ok: false, error: `ambiguous: /${word} could be ${match.names.map((n) => `/${n}`).join(', ')}; Tab completes.` };
  }
  if (match.kind === 'unknown') {
    const shown = `/${word}`;
    return {
      ok: false,
      error: match.suggestion ? `Unknown command ${shown}; did you mean /${match.suggestion}?` : `Unknown command ${shown}; try ${COMMAND_LIST}.`,
    };
  }
  const spec: CommandSpec & { name: CommandName } = match.spec;
  if (spec.arg === null) {
    return rest === '' ? { ok: true, command: { name: spec.name } as Command } : { ok: false, error: `/${spec.name} takes no argument.` };
  }
  if (rest === '') {
    if (spec.arg.required) return { ok: false, error: `/${spec.name} needs a ${spec.arg.label}: ${commandUsage(spec)}.` };
    return { ok: true, command: { name: spec.name, arg: null } as Command };
  }
  const arg = parseArg(spec, spec.arg, rest);
  if (!arg.ok) return arg;
  return { ok: true, command: { name: spec.name, arg: arg.value } as Command };
}

/** Tab numbers as the strip counts them; past the last tab the view stays, as Alt+9 does. */
const TAB_NUMBER_MAX = 999;
const SIDES: readonly Side[] = ['left', 'right'];

function parseArg(spec: CommandSpec, arg: ArgSpec, text: string): { ok: true; value: string | number } | { ok: false; error: string } {
  switch (arg.kind) {
    case 'tabName': {
      const verdict = validateTabName(text);
      return verdict.ok ? { ok: true, value: verdict.name } : { ok: false, error: verdict.reason };
    }
    case 'tabNumber': {
      const n = /^\d+$/.test(text) ? Number(text) : NaN;
      if (n >= 1 && n <= TAB_NUMBER_MAX) return { ok: true, value: n };
      return { ok: false, error: `/${spec.name} takes a tab's number, 1 for the first: ${commandUsage(spec)}.` };
    }
    case 'side': {
      const side = text.toLowerCase();
      if ((SIDES as readonly string[]).includes(side)) return { ok: true, value: side };
      return { ok: false, error: `/${spec.name} takes left or right: ${commandUsage(spec)}.` };
    }
  }
}

/** What Tab does to a prompt line whose cursor is at its end. */
export interface Completion {
  /** The line after completing; unchanged when there was nothing to add. */
  readonly text: string;
  /** The candidates to show when more than one remains, or why none does; null when one was completed. */
  readonly hint: string | null;
}

/** The longest common prefix of `names`. */
function commonPrefix(names: readonly string[]): string {
  let prefix = names[0] ?? '';
  for (const n of names) while (!n.startsWith(prefix)) prefix = prefix.slice(0, -1);
  return prefix;
}

/**
 * Tab on the command word (readline's and tmux's completion): one candidate completes the name
 * (and a space when it takes an argument); several extend the word to what they share and are
 * listed. After the command word there is nothing to complete.
 */
export function completeCommand(text: string): Completion {
  if (/\s/.test(text.trimStart())) return { text, hint: null };
  const lead = text.slice(0, text.length - text.trimStart().length);
  const head = text.trimStart();
  const slash = head.startsWith('/') ? '/' : '';
  const word = commandWord(head).toLowerCase();
  const candidates = commandsStartingWith(word);
  if (candidates.length === 0) return { text, hint: `no command starts with /${word}; /help lists them` };
  if (candidates.length === 1) {
    const [only] = candidates;
    return { text: `${lead}${slash}${only.name}${only.arg ? ' ' : ''}`, hint: null };
  }
  const names = candidates.map((c) => c.name);
  return { text: `${lead}${slash}${commonPrefix(names)}`, hint: names.map((n) => `/${n}`).join('  ') };
}
