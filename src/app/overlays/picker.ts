// The /tabs picker (Alt+J, SPEC §8): every tab with glyph, name, status word and cwd; typing
// filters, arrows move, Enter views, Esc cancels. The selection follows the tab, not the row,
// so it stays put while the filter or the tab list changes under it.
//
// Filtering is case-insensitive substring matching, every space-separated term on its own, over
// name, status word and cwd. A fuzzy subsequence match was the alternative; over paths it
// matches nearly everything (most letters occur in `/home/...`), while substrings keep a short
// query predictable and still let `api wor` find the working tab in `~/src/api`.
import type { InputEvent } from '../../input/events.js';
import { eventKey } from '../../keymap/keys.js';
import { editLine, EMPTY_LINE, type LineState } from './lineEditor.js';

export interface PickerTab {
  readonly id: string;
  readonly name: string;
  /** Status glyph text ('' for none). */
  readonly glyph: string;
  /** One word for the status: working, needs input, idle, ... */
  readonly status: string;
  readonly cwd: string;
  /** The title the tab's child last set (OSC 0/2), when it set one. */
  readonly title?: string;
}

export interface PickerState {
  readonly tabs: readonly PickerTab[];
  readonly viewed: string | null;
  readonly query: LineState;
  /** The selected tab's id; null only when no tab matches. */
  readonly selected: string | null;
}

export type PickerAction = { kind: 'none' } | { kind: 'view'; tabId: string } | { kind: 'cancel' };

function matches(tab: PickerTab, terms: readonly string[]): boolean {
  const hay = `${tab.name}\n${tab.status}\n${tab.title ?? ''}\n${tab.cwd}`.toLocaleLowerCase();
  return terms.every((t) => hay.includes(t));
}

/** The tabs the query lets through, in strip order. */
export function pickerRows(state: Pick<PickerState, 'tabs' | 'query'>): readonly PickerTab[] {
  const terms = state.query.text.toLocaleLowerCase().split(/\s+/).filter((t) => t !== '');
  return terms.length === 0 ? state.tabs : state.tabs.filter((t) => matches(t, terms));
}

/** The selected row's index in pickerRows, or -1 when nothing matches. */
export function selectedRow(state: PickerState): number {
  return pickerRows(state).findIndex((t) => t.id === state.selected);
}

/**
 * The selection after `next` replaced `prev`'s tabs or query: the same tab while it is listed;
 * else, when the tab went away, the row that took its place; else the first row.
 */
function reselect(prev: PickerState, next: Omit<PickerState, 'selected'>): PickerState {
  const rows = pickerRows(next);
  if (rows.some((t) => t.id === prev.selected)) return { ...next, selected: prev.selected };
  const stillExists = next.tabs.some((t) => t.id === prev.selected);
  const oldIndex = selectedRow(prev);
  const index = !stillExists && oldIndex >= 0 ? Math.min(oldIndex, rows.length - 1) : 0;
  return { ...next, selected: rows.length === 0 ? null : rows[index].id };
}

export function openPicker(tabs: readonly PickerTab[], viewed: string | null): PickerState {
  const selected = tabs.some((t) => t.id === viewed) ? viewed : tabs[0]?.id ?? null;
  return { tabs, viewed, query: EMPTY_LINE, selected };
}

/** The tab list changed (a tab came, went, was renamed or changed status) while the picker is open. */
export function setPickerTabs(state: PickerState, tabs: readonly PickerTab[], viewed: string | null): PickerState {
  return reselect(state, { tabs, viewed, query: state.query });
}

function step(state: PickerState, delta: number): PickerState {
  const rows = pickerRows(state);
  if (rows.length === 0) return state;
  const index = (((selectedRow(state) + delta) % rows.length) + rows.length) % rows.length;
  return { ...state, selected: rows[index].id };
}

const STEPS: Readonly<Record<string, number>> = { up: -1, down: 1, 'ctrl+p': -1, 'ctrl+n': 1 };

const NONE: PickerAction = { kind: 'none' };

export function movePicker(state: PickerState, ev: InputEvent): { state: PickerState; action: PickerAction } {
  const key = eventKey(ev);
  if (key !== null && Object.hasOwn(STEPS, key)) return { state: step(state, STEPS[key]), action: NONE };
  const { state: query, action } = editLine(state.query, ev);
  if (action === 'cancel') return { state, action: { kind: 'cancel' } };
  if (action === 'submit') {
    return { state, action: state.selected === null ? NONE : { kind: 'view', tabId: state.selected } };
  }
  if (query.text === state.query.text) return { state: { ...state, query }, action: NONE };
  return { state: reselect(state, { tabs: state.tabs, viewed: state.viewed, query }), action: NONE };
}
