// /hotkeys: the effective key bindings (defaults with the user's keybindings.json applied), one
// row per declared action in ACTIONS order, and the scrolling of the box that lists them.
import type { InputEvent } from '../../input/events.js';
import { ACTIONS, type ActionId } from '../../keymap/actions.js';
import { eventKey, type Keymap } from '../../keymap/keys.js';
import { clampTop } from './scroll.js';

export interface BindingRow {
  readonly action: ActionId;
  /** The keys as people write them ('Alt+A', 'F2'), or UNBOUND_LABEL. */
  readonly keys: string;
  readonly description: string;
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

export function describeBindings(keymap: Keymap): BindingRow[] {
  return ACTIONS.map((a) => {
    const keys = keymap.byAction.get(a.id) ?? [];
    return { action: a.id, keys: keys.length === 0 ? UNBOUND_LABEL : keys.map(keyLabel).join(' / '), description: a.description };
  });
}

export interface HotkeysState {
  readonly rows: readonly BindingRow[];
  /** The first row shown. */
  readonly top: number;
}

export function openHotkeys(keymap: Keymap): HotkeysState {
  return { rows: describeBindings(keymap), top: 0 };
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
