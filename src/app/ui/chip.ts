// A chip's label: ` [glyph ]name `, clipped to the chip width by display width (SPEC §8).
import stringWidth from 'string-width';
import type { TabInfo } from '../../protocol/messages.js';

/** Chips are at most 20 columns wide, so a strip of several stays readable. */
export const CHIP_MAX_COLUMNS = 20;

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

export function glyphFor(tab: TabInfo): string {
  switch (tab.lifecycle) {
    case 'starting':
      return '…';
    case 'failed':
      return '✗';
    case 'exited':
      return tab.exit && tab.exit.code === 0 ? '' : '✗';
    case 'suspended':
      return '◌';
    default:
      return '';
  }
}

export function chipLabel(tab: TabInfo): string {
  const glyph = glyphFor(tab);
  const prefix = glyph ? ` ${glyph} ` : ' ';
  const room = CHIP_MAX_COLUMNS - stringWidth(prefix) - 1;
  return `${prefix}${clip(tab.name, room)} `;
}

/** Clips at a grapheme boundary so that the result plus `…` fits `width` columns. */
export function clip(text: string, width: number): string {
  if (stringWidth(text) <= width) return text;
  let out = '';
  let used = 0;
  for (const { segment } of segmenter.segment(text)) {
    const w = stringWidth(segment);
    if (used + w > width - 1) break;
    out += segment;
    used += w;
  }
  return out + '…';
}
