// /hotkeys: everything a person can press or type to a1, derived from the declared lists: the
// effective key bindings (defaults with the user's keybindings.json applied) with their action
// ids, in ACTIONS order; copy mode's keys (COPY_MODE_KEYS); the prompt's commands (COMMANDS),
// each with the keys that run it.
// Also the scrolling of the box that lists them.
import type { InputEvent } from '../../input/events.js';
import { ACTIONS, type ActionId } from '../../keymap/actions.js';
import { eventKey, type Keymap } from '../../keymap/keys.js';
import { COPY_MODE_KEYS } from '../copyMode/state.js';
import { COMMANDS, commandUsage } from './commands.js';
import { clampTop } from './scroll.js';

export interface BindingRow {
  /** The left column: keys as people write them ('Alt+A', 'F2'), UNBOUND_LABEL, a command's
   * usage ('/name <name>'), or '' for a section heading. */
  readonly keys: string;
  readonly description: string;
  /** The action's id (what keybindings.json names), for a key binding. */
  readonly action?: ActionId;
  readonly heading?: true;
}

/** Shown for an action keybindings.json unbound, so the list still says it exists. */
export const UNBOUND_LABEL = 'unbound';

const KEY_LABELS: Readonly<Record<string, string>> = {
  ctrl: 'Ctrl', alt: 'Alt', shift: 'Shift', meta: 'Meta',
  enter: 'Enter', tab: 'Tab', backspace: 'Backspace', escape: 'Esc', space: 'Space',
  up: 'Up', down: 'Down', left: 'Left', right: 'Right', home: 'Home', end: 'End',
  pageup: 'PageUp', pagedown: 'PageDown', insert: 'Insert', delete: 'Delete',
};

/** A canonical key (keymap/keys.ts) as people write it: 'alt+a' -> 'Alt+A', 'f2' -> 'F2'. */
export function keyLabel(canonical: string): string {
  // The key itself may be '+' (canonical 'alt++').
  const base = canonical.endsWith('++') ? '+' : canonical.slice(canonical.lastIndexOf('+') + 1);
  const mods = canonical.slice(0, canonical.length - base.length).split('+').filter((m) => m !== '');
  const baseLabel = Object.hasOwn(KEY_LABELS, base) ? KEY_LABELS[base] : base.toUpperCase();
  return [...mods.map((m) => KEY_LABELS[m] ?? m), baseLabel].join('+');
}

/** A chord's keys as people write them: 'ctrl+b d' -> 'Ctrl+B d'; a plain key stays as typed. */
export function chordLabel(chord: string): string {
  return chord.split(' ').map((k, i) => (i === 0 ? keyLabel(k) : plainLabel(k))).join(' ');
}

/** A key pressed on its own reads as typed ('g', 'G', '/'); others as keyLabel writes them. */
function plainLabel(key: string): string {
  if ([...key].length === 1) return key;
  const shifted = /^shift\+([a-z])$/.exec(key);
  return shifted ? shifted[1].toUpperCase() : keyLabel(key);
}

export function describeBindings(keymap: Keymap): BindingRow[] {
  return ACTIONS.map((a) => {
    const keys = keymap.byAction.get(a.id) ?? [];
    return { action: a.id, keys: keys.length === 0 ? UNBOUND_LABEL : keys.map(chordLabel).join(' / '), description: a.description };
  });
}

/** The keys that run `name` (the actions that declare it as their command), as help shows them
 * beside the command: one or two keys each, or the first and last of a run such as Alt+1…Alt+0. */
export function commandKeys(keymap: Keymap, name: string): string {
  const keys = ACTIONS.filter((a) => a.command !== null && a.command.split(' ', 1)[0] === name).flatMap((a) => (keymap.byAction.get(a.id) ?? []).slice(0, 1));
  const labels = keys.map(chordLabel);
  return labels.length <= 2 ? labels.join(' / ') : `${labels[0]}…${labels[labels.length - 1]}`;
}

/** Every row of /hotkeys: the bindings, then copy mode's keys, then the prompt's commands.
 * /help shows the same rows with the commands first (one list, two doors). */
export function describeHotkeys(keymap: Keymap, commandsFirst = false): BindingRow[] {
  const heading = (description: string): BindingRow => ({ keys: '', description, heading: true });
  const prompt = keymap.byAction.get('commandPrompt') ?? [];
  const copy = keymap.byAction.get('copyMode') ?? [];
  const keys = [
    heading('Keys (action ids are what keybindings.json names)'),
    ...describeBindings(keymap),
    heading(`In copy mode${copy.length > 0 ? ` (${chordLabel(copy[0])} or the wheel)` : ' (the wheel)'}`),
    ...COPY_MODE_KEYS.map((k) => ({ keys: k.keys.map(plainLabel).join(' / '), description: k.description })),
  ];
  const commands = [
    heading(`Commands${prompt.length > 0 ? ` (${chordLabel(prompt[0])} opens the prompt)` : ''}`),
    ...COMMANDS.map((c) => {
      const keys = commandKeys(keymap, c.name);
      return { keys: commandUsage(c), description: keys ? `${c.description} · ${keys}` : c.description };
    }),
  ];
  return commandsFirst ? [...commands, ...keys] : [...keys, ...commands];
}

export interface HotkeysState {
  readonly rows: readonly BindingRow[];
  /** The first row shown. */
  readonly top: number;
}

export function openHotkeys(keymap: Keymap): HotkeysState {
  return { rows: describeHotkeys(keymap), top: 0 };
}

/** /help: the commands, then the keys, in the box /hotkeys uses. */
export function openHelp(keymap: Keymap): HotkeysState {
  return { rows: describeHotkeys(keymap, true), top: 0 };
}

type Scroll = (top: number, page: number) => number;

const SCROLLS: Readonly<Record<string, Scroll>> = {
  up: (t) => t - 1,
  down: (t) => t + 1,
  pageup: (t, page) => t - page,
  pagedown: (t, page) => t + page,
  home: () => 0,
  end: () => Number.MAX_SAFE_INTEGER,
};

const CLOSERS: ReadonlySet<string> = new Set(['escape', 'enter', 'q']);

/** Arrows and paging scroll a box showing `visible` rows; Esc, Enter or q closes it. */
export function scrollHotkeys(
  state: HotkeysState,
  ev: InputEvent,
  visible: number,
): { state: HotkeysState; action: 'none' | 'close' } {
  const key = eventKey(ev);
  if (key === null) return { state, action: 'none' };
  if (CLOSERS.has(key)) return { state, action: 'close' };
  if (!Object.hasOwn(SCROLLS, key)) return { state, action: 'none' };
  const top = clampTop(SCROLLS[key](state.top, Math.max(1, visible)), state.rows.length, visible);
  return { state: { ...state, top }, action: 'none' };
}
