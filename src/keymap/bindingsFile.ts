// Reading keybindings.json (SPEC §8, issue 28) as config.json is read (src/config/load.ts): JSONC,
// each problem at file:line:column with the name probably meant, and a bad entry costs only
// itself: its action keeps its default keys while the file's other entries apply. A conflict
// among the entries that remain would be dispatched ambiguously, so then every key has its default.
import fs from 'node:fs';
import type { Node } from 'jsonc-parser';
import { formatProblem, parseJsoncObject, properties, type FileProblem } from '../config/jsonc.js';
import { nearestName } from '../config/suggest.js';
import { ACTIONS, isActionId, type ActionId } from './actions.js';
import { nearestChord, parseChord, parseKey, type Keymap } from './keys.js';
import { PREFIX_SETTING, resolveKeymap } from './resolve.js';

export interface KeybindingsProblem extends FileProblem {
  /** The name the entry most likely meant (an action id, "prefix", or a key such as
   * "alt+enter"), also named in `message`; null when none is near. */
  suggestion: string | null;
}

export interface KeybindingsResult {
  keymap: Keymap;
  /** The entries in effect, action id (or "prefix") to keys, as the file writes them. */
  bindings: Record<string, string | string[]>;
  /** The actions whose keys are the user's own, in file order. */
  userActions: ActionId[];
  /** Every problem, in file order (`a1 config check` lists them all). */
  problems: KeybindingsProblem[];
  /** Nothing in the file applies (unreadable, not a JSON object, or a conflict). */
  unusable: boolean;
  /** The one launch notice, naming where the file went wrong; null when all of it applies. */
  notice: string | null;
}

/** Every name an entry may have. */
const ENTRY_NAMES = [PREFIX_SETTING, ...ACTIONS.map((a) => a.id)];

function defaultKeymap(): Keymap {
  const r = resolveKeymap({});
  if ('error' in r) throw new Error(r.error.message); // the declared defaults are tested conflict-free
  return r.keymap;
}

/** Reads `file`; a missing file means every default key. */
export function loadKeybindings(file: string): KeybindingsResult {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { keymap: defaultKeymap(), bindings: {}, userActions: [], problems: [], unusable: false, notice: null };
    return unusable([{ file, line: null, column: null, message: `could not be read (${code ?? 'unknown error'})`, suggestion: null }], 0);
  }
  return parseKeybindings(text, file);
}

/** The keymap `text` (the contents of `file`) gives, and what is wrong with it. */
export function parseKeybindings(text: string, file: string): KeybindingsResult {
  const tree = parseJsoncObject(text, file, 'actions and their keys');
  if (!tree.ok) return unusable([{ ...tree.problem, suggestion: null }], 0);
  const { root, place } = tree;
  const problems: KeybindingsProblem[] = [];
  const report = (node: Node, message: string, suggestion: string | null): void => {
    const meant = suggestion === null ? '' : ` (did you mean "${suggestion}"?)`;
    problems.push({ ...place(node.offset, `${message}${meant}`), suggestion });
  };
  const bindings: Record<string, string | string[]> = {};
  const entries = new Map<string, Node>();
  for (const { key, value } of properties(root)) {
    const name = String(key.value);
    if (name !== PREFIX_SETTING && !isActionId(name)) {
      report(key, `"${name}" is not an action`, nearestName(name, ENTRY_NAMES));
      continue;
    }
    const bad = name === PREFIX_SETTING ? prefixProblem(value) : bindingProblem(name, value);
    if (bad !== null) {
      report(bad.node, bad.message, bad.suggestion);
      continue;
    }
    bindings[name] = value.type === 'string' ? String(value.value) : (value.children ?? []).map((k) => String(k.value));
    entries.set(name, value);
  }
  const resolved = resolveKeymap(bindings);
  if ('error' in resolved) {
    // Placed at the user's entry that claims the key: one of the two actions, else the prefix.
    const claimant = resolved.error.actions?.find((a) => entries.has(a)) ?? PREFIX_SETTING;
    const message = resolved.error.message.replace(/\.$/, '');
    const conflict = { ...place((entries.get(claimant) ?? root).offset, message.charAt(0).toLowerCase() + message.slice(1)), suggestion: null };
    const all = [...problems, conflict].sort((a, b) => a.line! - b.line! || a.column! - b.column!);
    return unusable(all, all.indexOf(conflict));
  }
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : '';
  return {
    keymap: resolved.keymap,
    bindings,
    userActions: Object.keys(bindings).filter(isActionId),
    problems,
    unusable: false,
    notice: problems.length === 0 ? null : `${formatProblem(problems[0])}${more}; using the default for it.`,
  };
}

/** Every key the default, the notice led by `problems[why]`, the reason none of the file applies. */
function unusable(problems: KeybindingsProblem[], why: number): KeybindingsResult {
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : '';
  const notice = `${formatProblem(problems[why])}${more}; using the default keys.`;
  return { keymap: defaultKeymap(), bindings: {}, userActions: [], problems, unusable: true, notice };
}

type EntryProblem = { node: Node; message: string; suggestion: string | null } | null;

/** An action's keys: a key or chord, or a list of them (an empty list unbinds it). */
function bindingProblem(action: string, value: Node): EntryProblem {
  const keys = value.type === 'array' ? value.children ?? [] : [value];
  for (const key of keys) {
    if (key.type !== 'string') return { node: key, message: `the binding for ${action} must be a key or a list of keys`, suggestion: null };
    const descriptor = String(key.value);
    const parsed = parseChord(descriptor);
    if (!parsed.ok) return { node: key, message: `invalid key "${descriptor}" for ${action}: ${parsed.reason}`, suggestion: nearestChord(descriptor) };
  }
  return null;
}

/** The prefix: one key, not a chord. */
function prefixProblem(value: Node): EntryProblem {
  const message = 'the prefix must be one key, such as "ctrl+b"';
  if (value.type !== 'string') return { node: value, message, suggestion: null };
  const parsed = parseKey(String(value.value));
  if (parsed.ok) return null;
  const near = nearestChord(String(value.value));
  return { node: value, message: `${message}: ${parsed.reason}`, suggestion: near !== null && !near.includes(' ') ? near : null };
}
