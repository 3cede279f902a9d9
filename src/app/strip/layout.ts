// The tab strip's layout (SPEC §8 Chip, Mouse on the strip, Rename): a pure function from the
// tabs and the pointer/editor state to positioned items on one row that never wraps, plus the
// inverse questions the mouse asks (what is under column x, where would a drop at x land).
import { editorView, editorWidth } from './editor.js';
import { glyphText, type Glyph } from '../../status/glyphs.js';
import { clipToWidth, textWidth } from './width.js';

/** Chips are at most 20 columns wide, so a strip of several stays readable (SPEC §8). */
export const CHIP_MAX_COLUMNS = 20;

export type StripTarget = { kind: 'chip'; tabId: string } | { kind: 'overflow' } | { kind: 'plus' };

export interface StripTab {
  id: string;
  name: string;
  glyph: Glyph;
}

export interface StripInput {
  cols: number;
  /** In strip order. */
  tabs: readonly StripTab[];
  viewed: string | null;
  hovered: StripTarget | null;
  /** While a chip is dragged: the drop marker goes before the tab at dropIndex (0..tabs.length). */
  drag: { tabId: string; dropIndex: number } | null;
  /** The inline editor replaces that tab's chip. `cursor` is a UTF-16 offset into `text`; the
   *  error is the lead's to show as a notice, never in the strip. */
  rename: { tabId: string; text: string; cursor: number; error: string | null } | null;
  spinnerFrame: number;
  /** Shown after `+` when there are no tabs (the lead passes the effective key binding). */
  emptyHint?: string;
  /** Each chip starts with its 1-based position (the `chipNumbers` config key), as Alt+1…Alt+0 count. */
  numbers?: boolean;
}

export type ChipRole = 'viewed' | 'hovered' | 'other';

/** Every item's `text` is exactly `w` columns wide (string-width). */
export type StripItem = { x: number; w: number; text: string } & (
  /** glyphText is '' when the chip has no glyph or was clipped too narrow to keep it; otherwise
   *  it is at string index glyphAt of the text. The viewed chip's padding spaces are brackets,
   *  `[name]`, so it is marked by more than colour (NO_COLOR, a screen read as text), at the
   *  same width as when it is not viewed: switching never moves the strip. */
  | { kind: 'chip'; tabId: string; index: number; role: ChipRole; glyph: Glyph; glyphText: string; glyphAt: number }
  | { kind: 'editor'; tabId: string; index: number }
  | { kind: 'overflow'; hiddenTabIds: string[]; hovered: boolean }
  | { kind: 'plus'; hovered: boolean }
  | { kind: 'drop'; index: number }
  | { kind: 'hint' }
);

export interface StripLayout {
  cols: number;
  tabCount: number;
  /** Left to right, not overlapping; their widths never add up to more than cols. */
  items: StripItem[];
  /** Where the real cursor goes while the rename editor is shown. */
  cursor: { x: number } | null;
}

export const DEFAULT_EMPTY_HINT = '  no tabs · Alt+A or + opens one · Alt+E detaches';
const PLUS_TEXT = ' + ';
const OVERFLOW_TEXT = ' … ';
const DROP_TEXT = '│';
/** The smallest chip still worth pinning beside an overflow chip: a space, one character, `…`, a space. */
const MIN_PINNED_COLUMNS = 4;
const CONTROL = /\p{Cc}/gu;

/**
 * ` [number ][glyph ]name `, at most `max` columns. The name is clipped first; when even a
 * character of it would not fit, the glyph goes, then the number, then the padding, because
 * the name is what identifies a tab.
 */
function chipText(glyph: string, name: string, max: number, number: string): { text: string; withGlyph: boolean } {
  const enough = Math.min(2, textWidth(name));
  const lead = number ? ` ${number} ` : ' ';
  const prefix = glyph ? `${lead}${glyph} ` : lead;
  const room = max - textWidth(prefix) - 1;
  if (room >= enough) return { text: `${prefix}${clipToWidth(name, room)} `, withGlyph: glyph !== '' };
  if (number && max - lead.length - 1 >= enough) return { text: `${lead}${clipToWidth(name, max - lead.length - 1)} `, withGlyph: false };
  if (max - 2 >= enough) return { text: ` ${clipToWidth(name, max - 2)} `, withGlyph: false };
  const bare = clipToWidth(name, max);
  // A name of no width (say, a lone joiner) still gets a column, so the chip stays clickable.
  return { text: textWidth(bare) > 0 || max <= 0 ? bare : ' ', withGlyph: false };
}

/** The viewed chip's padding drawn as brackets; a chip clipped past its padding keeps its text. */
function bracketed(text: string): string {
  return text.length >= 3 && text.startsWith(' ') && text.endsWith(' ') ? `[${text.slice(1, -1)}]` : text;
}

interface Slot {
  natural: number;
  /** The item's text within `limit` columns; cursorX only for the editor, glyph only for a chip
   *  that kept its glyph. */
  make(limit: number): { text: string; cursorX: number | null; glyph: string; glyphAt: number };
}

interface Fill {
  /** Allotted columns per shown tab index. */
  shown: Map<number, number>;
  dropShown: boolean;
  overflowShown: boolean;
}

export function layoutStrip(input: StripInput): StripLayout {
  const cols = Math.max(0, Math.floor(input.cols));
  const { tabs, rename } = input;
  const items: StripItem[] = [];
  let x = 0;
  const push = (item: StripItem): void => {
    items.push(item);
    x += item.w;
  };
  // Below three columns the plus chip loses its padding before anything else is given room.
  const plusText = cols >= PLUS_TEXT.length ? PLUS_TEXT : cols > 0 ? '+'.padEnd(cols, ' ') : '';
  const plus = (): void => {
    if (plusText) push({ kind: 'plus', x, w: textWidth(plusText), text: plusText, hovered: input.hovered?.kind === 'plus' });
  };

  if (tabs.length === 0) {
    plus();
    const hint = clipToWidth(input.emptyHint ?? DEFAULT_EMPTY_HINT, cols - x);
    if (hint) push({ kind: 'hint', x, w: textWidth(hint), text: hint });
    return { cols, tabCount: 0, items, cursor: null };
  }

  const frame = input.spinnerFrame;
  const slots: Slot[] = tabs.map((tab, index) => {
    if (rename && rename.tabId === tab.id) {
      return {
        natural: editorWidth(rename.text),
        make: (limit) => ({ ...editorView(rename.text, rename.cursor, limit), glyph: '', glyphAt: 0 }),
      };
    }
    const glyph = glyphText(tab.glyph, frame);
    // Names are validated when committed; stripping controls here keeps any that slipped
    // through from driving the terminal.
    const name = tab.name.replace(CONTROL, '');
    const number = input.numbers ? String(index + 1) : '';
    const natural = textWidth(chipText(glyph, name, CHIP_MAX_COLUMNS, number).text);
    return {
      natural,
      make: (limit) => {
        const chip = chipText(glyph, name, Math.min(limit, natural), number);
        const glyphAt = chip.withGlyph ? (number ? number.length + 2 : 1) : 0;
        return { text: chip.text, cursorX: null, glyph: chip.withGlyph ? glyph : '', glyphAt };
      },
    };
  });

  const room = cols - plusText.length;
  const dropIndex = input.drag ? Math.max(0, Math.min(tabs.length, Math.floor(input.drag.dropIndex))) : -1;
  const viewedIndex = tabs.findIndex((t) => t.id === input.viewed);
  const renameIndex = rename ? tabs.findIndex((t) => t.id === rename.tabId) : -1;
  const anchor = viewedIndex >= 0 ? viewedIndex : renameIndex >= 0 ? renameIndex : 0;
  const fill = (reserveOverflow: boolean): Fill => fillSlots(slots, room, anchor, renameIndex, input.drag !== null, reserveOverflow);

  let result: Fill;
  const total = slots.reduce((sum, s) => sum + s.natural, 0) + (input.drag ? DROP_TEXT.length : 0);
  if (total <= room) {
    result = { shown: new Map(slots.map((s, i) => [i, s.natural])), dropShown: input.drag !== null, overflowShown: false };
  } else {
    result = fill(true);
    if (result.shown.size === tabs.length) result = fill(false);
  }

  const hovered = input.hovered;
  let cursor: { x: number } | null = null;
  let dropPlaced = !result.dropShown;
  const drop = (): void => {
    push({ kind: 'drop', x, w: DROP_TEXT.length, text: DROP_TEXT, index: dropIndex });
    dropPlaced = true;
  };
  const order = [...result.shown.keys()].sort((a, b) => a - b);
  for (const i of order) {
    if (!dropPlaced && i >= dropIndex) drop();
    const tab = tabs[i];
    const made = slots[i].make(result.shown.get(i) ?? 0);
    const w = textWidth(made.text);
    if (w === 0) continue;
    if (made.cursorX !== null) {
      cursor = { x: x + made.cursorX };
      push({ kind: 'editor', x, w, text: made.text, tabId: tab.id, index: i });
      continue;
    }
    const role: ChipRole =
      i === viewedIndex ? 'viewed' : hovered?.kind === 'chip' && hovered.tabId === tab.id ? 'hovered' : 'other';
    const text = role === 'viewed' ? bracketed(made.text) : made.text;
    push({
      kind: 'chip', x, w, text, tabId: tab.id, index: i, role, glyph: tab.glyph, glyphText: made.glyph, glyphAt: made.glyphAt,
    });
  }
  if (!dropPlaced) drop();
  if (result.overflowShown) {
    const hiddenTabIds = tabs.filter((_, i) => !result.shown.has(i)).map((t) => t.id);
    push({ kind: 'overflow', x, w: OVERFLOW_TEXT.length, text: OVERFLOW_TEXT, hiddenTabIds, hovered: hovered?.kind === 'overflow' });
  }
  plus();
  return { cols, tabCount: tabs.length, items, cursor };
}

/**
 * Chooses which chips to show when they do not all fit, in priority order: the anchor (the
 * viewed chip, clipped if it must be), the overflow chip, the drop marker, the rename editor,
 * then the anchor's neighbours alternately right and left, each side stopping at the first
 * chip that does not fit so that the shown chips stay next to the viewed one.
 */
function fillSlots(slots: Slot[], room: number, anchor: number, renameIndex: number, dragging: boolean, reserveOverflow: boolean): Fill {
  const shown = new Map<number, number>();
  const overflowShown = reserveOverflow && room >= OVERFLOW_TEXT.length + MIN_PINNED_COLUMNS;
  if (overflowShown) room -= OVERFLOW_TEXT.length;
  const take = (i: number, width: number): void => {
    shown.set(i, width);
    room -= width;
  };
  if (room > 0) take(anchor, Math.min(slots[anchor].natural, room));
  const dropShown = dragging && room >= DROP_TEXT.length;
  if (dropShown) room -= DROP_TEXT.length;
  if (renameIndex >= 0 && renameIndex !== anchor && room > 0) take(renameIndex, Math.min(slots[renameIndex].natural, room));
  let left = anchor - 1;
  let right = anchor + 1;
  let leftOpen = left >= 0;
  let rightOpen = right < slots.length;
  let goRight = true;
  while (leftOpen || rightOpen) {
    if (goRight ? rightOpen : !leftOpen) {
      if (!shown.has(right)) {
        if (slots[right].natural <= room) take(right, slots[right].natural);
        else rightOpen = false;
      }
      right++;
      if (right >= slots.length) rightOpen = false;
    } else {
      if (!shown.has(left)) {
        if (slots[left].natural <= room) take(left, slots[left].natural);
        else leftOpen = false;
      }
      left--;
      if (left < 0) leftOpen = false;
    }
    goRight = !goRight;
  }
  return { shown, dropShown, overflowShown };
}

/** What the pointer is over at column x. */
export function hitTest(layout: StripLayout, x: number): StripTarget | null {
  const item = layout.items.find((it) => x >= it.x && x < it.x + it.w);
  if (!item) return null;
  switch (item.kind) {
    case 'chip':
    case 'editor':
      return { kind: 'chip', tabId: item.tabId };
    case 'overflow':
      return { kind: 'overflow' };
    case 'plus':
      return { kind: 'plus' };
    default:
      return null;
  }
}

/**
 * Where a chip dropped at column x lands, as an index into the current order (0..tabCount,
 * "before the tab at that index"): the left half of a chip means before it, the right half
 * after it; the drop marker keeps its index; anything right of the chips means the end.
 */
export function dropIndexAt(layout: StripLayout, x: number): number {
  for (const item of layout.items) {
    if (x >= item.x + item.w) continue;
    if (item.kind === 'chip' || item.kind === 'editor') return x < item.x + item.w / 2 ? item.index : item.index + 1;
    if (item.kind === 'drop') return item.index;
    break;
  }
  return layout.tabCount;
}
