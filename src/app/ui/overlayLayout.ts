// Where things go inside each overlay box, and how big the box is. The components draw from
// these functions and the client sizes the rectangle it composites over the surface from
// overlaySize, so the two can never disagree. Pure.
import stringWidth from 'string-width';
import { confirmText, type ConfirmState } from '../overlays/confirm.js';
import type { BindingRow, HotkeysState } from '../overlays/hotkeys.js';
import type { MenuItem, MenuState } from '../overlays/menu.js';
import { pickerRows, selectedRow, type PickerState, type PickerTab } from '../overlays/picker.js';
import { promptMessageLines, type PromptState } from '../overlays/prompt.js';
import { windowStart } from '../overlays/scroll.js';
import { fitStart, padEnd } from '../overlays/text.js';

/** Every overlay the client can open over the surface (the rename editor lives in the strip). */
export type Overlay =
  /** at: the column of the chip it was opened from, where its box opens. */
  | { kind: 'menu'; state: MenuState; at?: number }
  | { kind: 'picker'; state: PickerState }
  | { kind: 'prompt'; state: PromptState }
  | { kind: 'confirm'; state: ConfirmState }
  | { kind: 'hotkeys'; state: HotkeysState };

export interface Size {
  w: number;
  h: number;
}

/** A border and one blank column on each side of the content. */
const CHROME_COLUMNS = 4;
/** The top and bottom border. */
const CHROME_ROWS = 2;
/** Below this a border would leave no room for content, so a tiny box goes without. */
const BORDER_MIN_COLUMNS = CHROME_COLUMNS + 1;
const BORDER_MIN_ROWS = CHROME_ROWS + 1;

/** Wide enough for a tab name's useful part; a menu should not hide the surface it serves. */
export const MENU_MAX_COLUMNS = 40;
/** Room for name, status and a long cwd side by side on a wide terminal, still readable as a box. */
export const PICKER_MAX_COLUMNS = 100;
/** Wide enough for most command errors on one line; a longer one wraps (the box grows). */
export const PROMPT_MAX_COLUMNS = 100;
/** The key column and the longest action description side by side. */
export const HOTKEYS_MAX_COLUMNS = 100;
/** Names in the picker get what a chip shows; the cwd gets the rest. */
const PICKER_NAME_MAX_COLUMNS = 20;
/** Status words are short ('needs input'); a longer one is clipped rather than crowd the cwd. */
const PICKER_STATUS_MAX_COLUMNS = 12;
/** A child's title is often a sentence; its start says enough beside the cwd. */
const PICKER_TITLE_MAX_COLUMNS = 30;
/** Multi-key bindings ('Alt+A / Ctrl+T') get this much before they are clipped. */
const HOTKEYS_KEYS_MAX_COLUMNS = 24;
/** Blank columns between a list's columns, so they read apart. */
const COLUMN_GAP = 2;

/** The box of an overlay of size w × h: whether it has a border, and its content area. */
export interface Frame extends Size {
  bordered: boolean;
  /** Content columns and rows (inside the border and its blank columns). */
  cw: number;
  ch: number;
}

export function frameOf({ w, h }: Size): Frame {
  const bordered = w >= BORDER_MIN_COLUMNS && h >= BORDER_MIN_ROWS;
  return bordered ? { w, h, bordered, cw: w - CHROME_COLUMNS, ch: h - CHROME_ROWS } : { w, h, bordered, cw: w, ch: h };
}

function sized(contentW: number, contentH: number, maxW: number, cols: number, rows: number): Size {
  return {
    w: Math.max(0, Math.min(cols, maxW, contentW + CHROME_COLUMNS)),
    h: Math.max(0, Math.min(rows, contentH + CHROME_ROWS)),
  };
}

/** A menu row: a mark for the viewed tab, the glyph when there is one, the label. */
export function menuRowText(item: MenuItem): string {
  return `${item.marked ? '•' : ' '} ${item.glyph ? `${item.glyph} ` : ''}${item.label}`;
}

export const EMPTY_MENU_TEXT = 'no tabs';
export const NO_MATCH_TEXT = 'no tab matches';
export const PICKER_HINT = 'type to filter · Enter views · Esc closes';
export const HOTKEYS_TITLE = 'Keys and commands · ↑↓ scroll · Esc closes';
/** The hint after the cursor cell on an empty filter line: the picker is never narrower. */
/** Measured on use: nothing measures text before the first paint (see scripts/shims). */
const pickerMinContentColumns = (): number => 1 + stringWidth(PICKER_HINT);

export interface PickerColumns {
  name: number;
  status: number;
  /** 0 when no tab has a title: the column and its gap are left out. */
  title: number;
}

/** Column widths for the picker's rows: name and status sized to the tabs, the cwd the rest. */
export function pickerColumns(tabs: readonly PickerTab[]): PickerColumns {
  const widest = (f: (t: PickerTab) => string, cap: number): number => Math.min(cap, Math.max(0, ...tabs.map((t) => stringWidth(f(t)))));
  return {
    name: widest((t) => t.name, PICKER_NAME_MAX_COLUMNS),
    status: widest((t) => t.status, PICKER_STATUS_MAX_COLUMNS),
    title: widest((t) => t.title ?? '', PICKER_TITLE_MAX_COLUMNS),
  };
}

/** The mark for the viewed tab and the one-column glyph, each followed by a space. */
const PICKER_MARK_AND_GLYPH_COLUMNS = 4;

/** Columns before the cwd: mark, glyph, name and status with their gaps. */
function pickerLeadColumns(c: PickerColumns): number {
  return PICKER_MARK_AND_GLYPH_COLUMNS + c.name + COLUMN_GAP + c.status + COLUMN_GAP + (c.title > 0 ? c.title + COLUMN_GAP : 0);
}

/** One picker row, exactly `width` columns: `• ✓ name  status  title  …/the/cwd`. */
export function pickerRowText(tab: PickerTab, columns: PickerColumns, viewed: boolean, width: number): string {
  const gap = ' '.repeat(COLUMN_GAP);
  const title = columns.title > 0 ? `${padEnd(tab.title ?? '', columns.title)}${gap}` : '';
  const lead = `${viewed ? '•' : ' '} ${padEnd(tab.glyph, 1)} ${padEnd(tab.name, columns.name)}${gap}${padEnd(tab.status, columns.status)}${gap}${title}`;
  return padEnd(lead + fitStart(tab.cwd, width - stringWidth(lead)), width);
}

/** One hotkeys row, exactly `width` columns: keys in their column, then the description. */
export function hotkeysRowText(row: BindingRow, keysColumns: number, width: number): string {
  if (row.heading) return padEnd(row.description, width);
  return padEnd(`${padEnd(row.keys, keysColumns)}${' '.repeat(COLUMN_GAP)}${hotkeysRightText(row)}`, width);
}

/** What follows the keys: the description, and an action's id after it. */
function hotkeysRightText(row: BindingRow): string {
  return row.action ? `${row.description} · ${row.action}` : row.description;
}

export function hotkeysKeysColumns(state: HotkeysState): number {
  return Math.min(HOTKEYS_KEYS_MAX_COLUMNS, Math.max(0, ...state.rows.map((r) => (r.heading ? 0 : stringWidth(r.keys)))));
}

/**
 * The overlay's size for a surface of cols × rows: never larger than the surface. The client
 * places this rectangle (overlayLeft) and composites the Ink frame of the component into it.
 */
export function overlaySize(overlay: Overlay, cols: number, rows: number): Size {
  switch (overlay.kind) {
    case 'menu': {
      const { items } = overlay.state;
      const widest = Math.max(stringWidth(EMPTY_MENU_TEXT), ...items.map((i) => stringWidth(menuRowText(i))));
      return sized(widest, Math.max(1, items.length), MENU_MAX_COLUMNS, cols, rows);
    }
    case 'picker': {
      const { tabs } = overlay.state;
      const widest = Math.max(0, ...tabs.map((t) => stringWidth(t.cwd))) + pickerLeadColumns(pickerColumns(tabs));
      // The height follows every tab, not the matching ones, so the box holds still while typing.
      return sized(Math.max(pickerMinContentColumns(), widest), 1 + Math.max(1, tabs.length), PICKER_MAX_COLUMNS, cols, rows);
    }
    case 'prompt': {
      // The box grows by the lines its wrapped error needs (at the width it will have).
      const cw = frameOf(sized(PROMPT_MAX_COLUMNS, 1, PROMPT_MAX_COLUMNS, cols, rows)).cw;
      return sized(PROMPT_MAX_COLUMNS, 1 + promptMessageLines(overlay.state, cw).length, PROMPT_MAX_COLUMNS, cols, rows);
    }
    case 'confirm':
      return sized(stringWidth(confirmText(overlay.state)), 1, Number.POSITIVE_INFINITY, cols, rows);
    case 'hotkeys': {
      const { rows: bindings } = overlay.state;
      const widest = Math.max(stringWidth(HOTKEYS_TITLE), hotkeysKeysColumns(overlay.state) + COLUMN_GAP + Math.max(0, ...bindings.map((r) => stringWidth(hotkeysRightText(r)))));
      return sized(widest, 1 + bindings.length, HOTKEYS_MAX_COLUMNS, cols, rows);
    }
  }
}

/** The column of the overlay's left edge on a screen `cols` wide, for a box `w` wide: a menu at
 *  the chip it was opened from (moved left only as far as it must to fit), the rest centred. */
export function overlayLeft(overlay: Overlay, w: number, cols: number): number {
  const at = overlay.kind === 'menu' ? overlay.at : undefined;
  return Math.max(0, at === undefined ? Math.floor((cols - w) / 2) : Math.min(Math.floor(at), cols - w));
}

/** The picker's visible list: which rows, and which of them is selected. */
export function pickerWindow(state: PickerState, listRows: number): { start: number; rows: readonly PickerTab[]; selected: number } {
  const rows = pickerRows(state);
  const selected = selectedRow(state);
  const start = windowStart(rows.length, Math.max(0, selected), listRows);
  return { start, rows: rows.slice(start, start + Math.max(0, listRows)), selected };
}

export function menuWindow(state: MenuState, listRows: number): { start: number; items: readonly MenuItem[] } {
  const start = windowStart(state.items.length, state.index, listRows);
  return { start, items: state.items.slice(start, start + Math.max(0, listRows)) };
}

/** Rows of the hotkeys list that fit under its title: the page size for scrollHotkeys. */
export function hotkeysPageRows(state: HotkeysState, cols: number, rows: number): number {
  return Math.max(0, frameOf(overlaySize({ kind: 'hotkeys', state }, cols, rows)).ch - 1);
}

/**
 * The item (menu) or tab (picker) at a cell of the overlay, (x, y) relative to its top-left
 * corner, for mouse clicks; null elsewhere.
 */
export function itemAt(overlay: Overlay, cols: number, rows: number, x: number, y: number): string | null {
  const frame = frameOf(overlaySize(overlay, cols, rows));
  const inset = frame.bordered ? 1 : 0;
  if (x < inset || x >= frame.w - inset) return null;
  const line = y - inset;
  if (line < 0 || line >= frame.ch) return null;
  if (overlay.kind === 'menu') {
    const { items } = menuWindow(overlay.state, frame.ch);
    return items[line]?.id ?? null;
  }
  if (overlay.kind === 'picker') {
    const { rows: shown } = pickerWindow(overlay.state, frame.ch - 1);
    return line === 0 ? null : shown[line - 1]?.id ?? null;
  }
  return null;
}
