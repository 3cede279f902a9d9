// Plain-text views of a strip layout, for snapshots and for reading a layout at a glance:
// the text as the terminal shows it, and one character per column naming what is there.
import type { StripItem, StripLayout } from './layout.js';

/** The strip's text, padded with spaces to exactly `cols` columns. */
export function renderStripText(layout: StripLayout): string {
  let out = '';
  let x = 0;
  for (const item of layout.items) {
    out += ' '.repeat(Math.max(0, item.x - x)) + item.text;
    x = item.x + item.w;
  }
  return out + ' '.repeat(Math.max(0, layout.cols - x));
}

/** v viewed, h hovered, o other, e editor, … overflow, + plus, | drop marker, - hint, ' ' nothing. */
function roleChar(item: StripItem): string {
  switch (item.kind) {
    case 'chip':
      return item.role === 'viewed' ? 'v' : item.role === 'hovered' ? 'h' : 'o';
    case 'editor':
      return 'e';
    case 'overflow':
      return '…';
    case 'plus':
      return '+';
    case 'drop':
      return '|';
    case 'hint':
      return '-';
  }
}

/** One character per column (see roleChar), exactly `cols` long. */
export function renderStripRoles(layout: StripLayout): string {
  const roles = new Array<string>(layout.cols).fill(' ');
  for (const item of layout.items) {
    for (let c = item.x; c < item.x + item.w && c < layout.cols; c++) roles[c] = roleChar(item);
  }
  return roles.join('');
}
