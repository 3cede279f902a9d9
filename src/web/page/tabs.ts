// The tab list as the page shows it: chips on the strip, and the inbox's order.
import { GLYPH_FRAMES, glyphText, type Glyph } from '../../status/glyphs.js';
import { glyphWord } from '../../status/vocabulary.js';
import type { WebAttention, WebTab } from '../protocol.js';

/** The glyph's character at a spinner frame; '' for `none` and for a name this page does not know. */
export function glyphChar(glyph: string, spinnerFrame: number): string {
  return Object.hasOwn(GLYPH_FRAMES, glyph) ? glyphText(glyph as Glyph, spinnerFrame) : '';
}

/** Whether the chip's glyph animates (working, starting). */
export function spins(glyph: string): boolean {
  return Object.hasOwn(GLYPH_FRAMES, glyph) && GLYPH_FRAMES[glyph as Glyph].length > 1;
}

/** The chip's text: glyph, a space, the name; just the name when the tab shows no glyph. */
export function chipText(tab: Pick<WebTab, 'glyph' | 'name'>, spinnerFrame: number): string {
  const g = glyphChar(tab.glyph, spinnerFrame);
  return g === '' ? tab.name : `${g} ${tab.name}`;
}

export type AttentionName = 'needs-input' | 'done' | 'error' | 'none';

export function attentionName(a: WebAttention): AttentionName {
  return a ?? 'none';
}

const INBOX_RANK: Readonly<Record<AttentionName, number>> = { 'needs-input': 0, error: 1, done: 2, none: 3 };

/** The inbox: tabs that need input, then errors, then finished ones, then the rest, each group
 * in strip order. */
export function inboxOrder(tabs: readonly WebTab[]): WebTab[] {
  return tabs
    .map((tab, i) => ({ tab, i, rank: INBOX_RANK[attentionName(tab.attention)] ?? INBOX_RANK.none }))
    .sort((a, b) => a.rank - b.rank || a.i - b.i)
    .map((e) => e.tab);
}

/** Words for the inbox row's status, those of `a1 tabs` (src/status/vocabulary.ts): while the
 *  tab runs, what its chip's glyph says its agent does (working, needs-input, done, error…), or
 *  `running` when the glyph says nothing; else the tab's own state (asleep, exited, failed). */
export function stateLabel(tab: Pick<WebTab, 'glyph' | 'lifecycle'>): string {
  if (tab.lifecycle !== 'running') return tab.lifecycle;
  const word = glyphWord(tab.glyph);
  return word === null || word === 'none' ? 'running' : word;
}
