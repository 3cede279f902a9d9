// The tab strip's layout (SPEC §8 Chip, Mouse on the strip, Rename): a pure function from the
// tabs and the pointer/editor state to positioned items on one row that never wraps, plus the
// inverse questions the mouse asks (what is under column x, where would a drop at x land).
import { editorView, editorWidth } from './editor.js';
import { glyphText, type Glyph } from '../../status/glyphs.js';
import { clipToWidth, textWidth } from './width.js';

/** Chips are at most 20 columns wide, so a strip of several stays readable (SPEC §8). */
export const CHIP_MAX_COLUMNS = 20;

/** An overflow chip is named by the index of the first tab it hides: a strip may have one on
 *  each side of the viewed chip (and one between it and a rename editor further away). */
export type StripTarget = { kind: 'chip'; tabId: string } | { kind: 'overflow'; first: number } | { kind: 'plus' };

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
  /** Stands where the tabs it hides are. glyph is the most urgent one they show (URGENT_GLYPHS),
   *  drawn as glyphText at glyphAt like a chip's; focusTabId is the hidden tab its menu starts
   *  on: that glyph's tab, or else the hidden tab nearest the shown chips. A chip dropped on its
   *  left half lands at dropBefore, on its right half at dropAfter. */
  | {
      kind: 'overflow'; first: number; hiddenTabIds: string[]; hovered: boolean;
      glyph: Glyph | null; glyphText: string; glyphAt: number; focusTabId: string; dropBefore: number; dropAfter: number;
    }
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
const OVERFLOW_MARK = '…';
const DROP_TEXT = '│';
/** The glyphs that want the user, most urgent first: the overflow chip carries the first of them
 *  it hides, so a hidden tab that asks (`?`), failed (`✗`) or finished (`✓`) is never invisible. */
export const URGENT_GLYPHS: readonly Glyph[] = ['needs-input', 'error', 'done'];

/** The most urgent of `glyphs` by URGENT_GLYPHS, or null when none of them wants the user. */
export function mostUrgentGlyph(glyphs: readonly Glyph[]): Glyph | null {
  return URGENT_GLYPHS.find((g) => glyphs.includes(g)) ?? null;
}

/** ` … `, or ` ? … ` with the glyph: read as a chip named `…`. */
function overflowText(glyph: Glyph | null): string {
  return glyph ? ` ${glyphText(glyph, 0)} ${OVERFLOW_MARK} ` : ` ${OVERFLOW_MARK} `;
}

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
  const fill = (chipRoom: number): Fill => fillSlots(slots, chipRoom, anchor, renameIndex, input.drag !== null);

  let result: Fill;
  let overflows: Overflow[] = [];
  const total = slots.reduce((sum, s) => sum + s.natural, 0) + (input.drag ? DROP_TEXT.length : 0);
  if (total <= room) result = { shown: new Map(slots.map((s, i) => [i, s.natural])), dropShown: input.drag !== null };
  else ({ fill: result, overflows } = collapse(tabs.map((t) => t.glyph), anchor, room, fill));

  const hovered = input.hovered;
  let cursor: { x: number } | null = null;
  let dropPlaced = !result.dropShown;
  const drop = (): void => {
    push({ kind: 'drop', x, w: DROP_TEXT.length, text: DROP_TEXT, index: dropIndex });
    dropPlaced = true;
  };
  const overflowAt = new Map(overflows.map((o) => [o.at, o]));
  for (let i = 0; i <= tabs.length; i++) {
    const overflow = overflowAt.get(i);
    if (overflow) {
      if (!dropPlaced && dropIndex < overflow.dropAfter) drop();
      const text = overflowText(overflow.glyph);
      const glyph = overflow.glyph ? glyphText(overflow.glyph, 0) : '';
      const first = overflow.hidden[0];
      push({
        kind: 'overflow', x, w: textWidth(text), text, first,
        hiddenTabIds: overflow.hidden.map((h) => tabs[h].id),
        hovered: hovered?.kind === 'overflow' && hovered.first === first,
        glyph: overflow.glyph, glyphText: glyph, glyphAt: glyph ? 1 : 0,
        focusTabId: tabs[overflow.focus].id, dropBefore: overflow.dropBefore, dropAfter: overflow.dropAfter,
      });
    }
    const width = result.shown.get(i);
    if (width === undefined) continue;
    if (!dropPlaced && i >= dropIndex) drop();
    const tab = tabs[i];
    const made = slots[i].make(width);
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
  plus();
  return { cols, tabCount: tabs.length, items, cursor };
}

/** Hidden tabs one overflow chip stands for (indices into the tabs, in order). */
interface Overflow {
  hidden: number[];
  glyph: Glyph | null;
  /** The hidden tab its menu starts on. */
  focus: number;
  /** Drawn before the shown chip at this index (the tabs' count: after every chip). */
  at: number;
  dropBefore: number;
  dropAfter: number;
}

function overflowOf(hidden: number[], glyphs: readonly Glyph[], anchor: number, at: number, dropBefore: number, dropAfter: number): Overflow {
  const glyph = mostUrgentGlyph(hidden.map((h) => glyphs[h]));
  const nearest = hidden.reduce((best, h) => (Math.abs(h - anchor) < Math.abs(best - anchor) ? h : best));
  const focus = glyph ? hidden.find((h) => glyphs[h] === glyph)! : nearest;
  return { hidden, glyph, focus, at, dropBefore, dropAfter };
}

/** Runs of consecutive indices below `count` that `shown` leaves out. */
function hiddenRuns(shown: ReadonlyMap<number, number>, count: number): number[][] {
  const runs: number[][] = [];
  for (let i = 0; i < count; i++) {
    if (shown.has(i)) continue;
    const last = runs[runs.length - 1];
    if (last && last[last.length - 1] === i - 1) last.push(i);
    else runs.push([i]);
  }
  return runs;
}

const overflowColumns = (overflows: readonly Overflow[]): number => overflows.reduce((sum, o) => sum + textWidth(overflowText(o.glyph)), 0);

/**
 * Which tabs to hide when they do not all fit, and the overflow chips that stand for them. Each
 * run of hidden tabs gets its own chip where the run is, so the chips point the way to what they
 * hide. Their widths depend on the glyphs they hide, which depends on the room they leave: the
 * least room set aside that holds them wins (at most three chips of five columns: left, right,
 * and between the viewed chip and a rename editor further away). A strip with no room for those
 * has one chip after the shown chips for every hidden tab; narrower still, none (the viewed chip
 * comes first).
 */
function collapse(glyphs: readonly Glyph[], anchor: number, room: number, fill: (chipRoom: number) => Fill): { fill: Fill; overflows: Overflow[] } {
  const count = glyphs.length;
  const fits = (reserved: number): boolean => room - reserved >= MIN_PINNED_COLUMNS;
  const everyRun = (f: Fill): Overflow[] =>
    hiddenRuns(f.shown, count).map((run) => overflowOf(run, glyphs, anchor, run[0], run[0], run[run.length - 1] + 1));
  const oneChip = (f: Fill): Overflow[] => {
    const hidden = hiddenRuns(f.shown, count).flat();
    return hidden.length === 0 ? [] : [overflowOf(hidden, glyphs, anchor, count, count, count)];
  };
  for (const plan of [everyRun, oneChip]) {
    for (let reserved = textWidth(overflowText(null)); fits(reserved); reserved++) {
      const f = fill(room - reserved);
      // Everything fitted once room was set aside (a drop marker left out): no chip is needed.
      if (f.shown.size === count) return { fill: fill(room), overflows: [] };
      const overflows = plan(f);
      if (overflowColumns(overflows) <= reserved) return { fill: f, overflows };
    }
  }
  return { fill: fill(room), overflows: [] };
}

/**
 * Chooses which chips to show in `room` columns, in priority order: the anchor (the viewed
 * chip, clipped if it must be), the drop marker, the rename editor, then the anchor's
 * neighbours alternately right and left, each side stopping at the first chip that does not fit
 * so that the shown chips stay next to the viewed one.
 */
function fillSlots(slots: Slot[], room: number, anchor: number, renameIndex: number, dragging: boolean): Fill {
  const shown = new Map<number, number>();
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
  return { shown, dropShown };
}

/** The item drawn at column x. */
export function itemAt(layout: StripLayout, x: number): StripItem | null {
  return layout.items.find((it) => x >= it.x && x < it.x + it.w) ?? null;
}

/** What the pointer is over at column x. */
export function hitTest(layout: StripLayout, x: number): StripTarget | null {
  const item = itemAt(layout, x);
  if (!item) return null;
  switch (item.kind) {
    case 'chip':
    case 'editor':
      return { kind: 'chip', tabId: item.tabId };
    case 'overflow':
      return { kind: 'overflow', first: item.first };
    case 'plus':
      return { kind: 'plus' };
    default:
      return null;
  }
}

/**
 * Where a chip dropped at column x lands, as an index into the current order (0..tabCount,
 * "before the tab at that index"): the left half of a chip means before it, the right half
 * after it; an overflow chip's halves mean before and after the tabs it hides; the drop marker
 * keeps its index; anything right of the chips means the end.
 */
export function dropIndexAt(layout: StripLayout, x: number): number {
  for (const item of layout.items) {
    if (x >= item.x + item.w) continue;
    if (item.kind === 'chip' || item.kind === 'editor') return x < item.x + item.w / 2 ? item.index : item.index + 1;
    if (item.kind === 'overflow') return x < item.x + item.w / 2 ? item.dropBefore : item.dropAfter;
    if (item.kind === 'drop') return item.index;
    break;
  }
  return layout.tabCount;
}
