// A keyboard-navigable list menu (SPEC §8): the chip's right-click Rename/Close menu and the
// overflow `…` chip's menu of tabs, which marks the viewed tab.
import type { InputEvent } from '../../input/events.js';
import { eventKey } from '../../keymap/keys.js';

export interface MenuItem {
  readonly id: string;
  readonly label: string;
  /** Status glyph text shown before the label ('' for none). */
  readonly glyph?: string;
  /** The viewed tab, in a menu of tabs. */
  readonly marked?: boolean;
}

export interface MenuState {
  readonly items: readonly MenuItem[];
  /** The highlighted item; 0 when there are none. */
  readonly index: number;
}

export type MenuAction = { kind: 'none' } | { kind: 'select'; id: string } | { kind: 'cancel' };

export type ChipMenuId = 'rename' | 'close';

export function openMenu(items: readonly MenuItem[], highlightId?: string): MenuState {
  return { items, index: Math.max(0, items.findIndex((i) => i.id === highlightId)) };
}

/** The chip's right-click menu; the caller remembers which tab it was opened on. */
export function chipMenu(): MenuState {
  const items: { id: ChipMenuId; label: string }[] = [
    { id: 'rename', label: 'Rename' },
    { id: 'close', label: 'Close' },
  ];
  return openMenu(items);
}

/** The overflow chip's menu: tabs in strip order with their glyphs, the viewed one marked; the
 *  highlight starts on `highlight` (the tab the chip points to), else on the viewed one. */
export function tabsMenu(tabs: readonly { id: string; name: string; glyph?: string }[], viewed: string | null, highlight: string | null = viewed): MenuState {
  const items = tabs.map((t) => ({ id: t.id, label: t.name, glyph: t.glyph ?? '', marked: t.id === viewed }));
  return openMenu(items, highlight ?? undefined);
}

function wrap(index: number, count: number): number {
  return ((index % count) + count) % count;
}

/** The next item after the highlighted one (wrapping) whose label starts with `ch`. */
function jump(state: MenuState, ch: string): number {
  const wanted = ch.toLocaleLowerCase();
  const count = state.items.length;
  for (let step = 1; step <= count; step++) {
    const i = wrap(state.index + step, count);
    if (state.items[i].label.toLocaleLowerCase().startsWith(wanted)) return i;
  }
  return state.index;
}

type Move = (state: MenuState) => number;

const MOVES: Readonly<Record<string, Move>> = {
  up: (s) => wrap(s.index - 1, s.items.length),
  down: (s) => wrap(s.index + 1, s.items.length),
  'ctrl+p': (s) => wrap(s.index - 1, s.items.length),
  'ctrl+n': (s) => wrap(s.index + 1, s.items.length),
  home: () => 0,
  end: (s) => s.items.length - 1,
};

const NONE: MenuAction = { kind: 'none' };

export function moveMenu(state: MenuState, ev: InputEvent): { state: MenuState; action: MenuAction } {
  const key = eventKey(ev);
  if (key === 'escape') return { state, action: { kind: 'cancel' } };
  if (state.items.length === 0) return { state, action: NONE };
  if (key === 'enter') return { state, action: { kind: 'select', id: state.items[state.index].id } };
  if (key !== null && Object.hasOwn(MOVES, key)) return { state: { ...state, index: MOVES[key](state) }, action: NONE };
  if (ev.k === 'text' && !ev.mods?.ctrl && !ev.mods?.alt && !ev.mods?.meta && [...ev.s].length === 1 && ev.s.trim() !== '') {
    return { state: { ...state, index: jump(state, ev.s) }, action: NONE };
  }
  return { state, action: NONE };
}
