// The tab strip as an Ink row: draws a layout from ../strip/layout.ts with the theme's colours.
// All placement decisions are the layout's; this component only styles what it is given.
import React from 'react';
import { Box, Text, type TextProps } from 'ink';
import type { Theme } from '../../config.js';
import type { Glyph } from '../../status/glyphs.js';
import type { StripItem, StripLayout } from '../strip/layout.js';

export interface StripProps {
  layout: StripLayout;
  theme: Theme;
  /** False under NO_COLOR: attributes alone (bold, underline, inverse, dim) tell items apart. */
  colour: boolean;
}

/** Glyph colours are fixed by SPEC §8 rather than themed: they carry meaning, not decoration. */
const GLYPH_STYLE: Readonly<Record<Glyph, TextProps>> = {
  none: {},
  working: {},
  'needs-input': { color: 'yellow' },
  done: { color: 'green' },
  error: { color: 'red' },
  starting: { dimColor: true },
  asleep: { dimColor: true },
  unresponsive: { color: 'magenta' },
  stalled: { color: 'magenta' },
};

/** NO_COLOR (https://no-color.org): the same roles told apart by attributes only. */
function monochromeStyle(item: StripItem): TextProps {
  switch (item.kind) {
    case 'chip':
      if (item.role === 'viewed') return { bold: true, underline: true };
      return item.role === 'hovered' ? { inverse: true } : {};
    case 'editor':
      return { inverse: true };
    case 'overflow':
      return item.hovered ? { inverse: true } : {};
    case 'plus':
      return item.hovered ? { inverse: true, bold: true } : { bold: true };
    case 'drop':
      return { bold: true };
    case 'hint':
      return { dimColor: true };
  }
}

function itemStyle(item: StripItem, theme: Theme, colour: boolean): TextProps {
  if (!colour) return monochromeStyle(item);
  switch (item.kind) {
    case 'chip':
      if (item.role === 'viewed') return { backgroundColor: theme.viewed, color: 'whiteBright', bold: true };
      return { backgroundColor: item.role === 'hovered' ? theme.hovered : theme.other, color: 'black' };
    case 'editor':
      return { inverse: true };
    case 'overflow':
      return { backgroundColor: item.hovered ? theme.hovered : theme.other, color: 'black' };
    case 'plus':
      return { backgroundColor: item.hovered ? theme.hovered : theme.plus, color: 'black', bold: true };
    case 'drop':
      return { color: theme.hovered, bold: true };
    case 'hint':
      return { color: theme.hint };
  }
}

function ItemText({ item, theme, colour }: { item: StripItem; theme: Theme; colour: boolean }): React.ReactElement {
  const style = itemStyle(item, theme, colour);
  if ((item.kind === 'chip' || item.kind === 'overflow') && item.glyph && item.glyphText) {
    const before = item.text.slice(0, item.glyphAt);
    const rest = item.text.slice(item.glyphAt + item.glyphText.length);
    // Without colour a glyph is its own shape; dim ones stay dim.
    const glyphStyle = colour ? GLYPH_STYLE[item.glyph] : { dimColor: GLYPH_STYLE[item.glyph].dimColor };
    return (
      <Text {...style}>
        {before}
        <Text {...glyphStyle}>{item.glyphText}</Text>
        {rest}
      </Text>
    );
  }
  return <Text {...style}>{item.text}</Text>;
}

export function Strip({ layout, theme, colour }: StripProps): React.ReactElement {
  const parts: React.ReactElement[] = [];
  let x = 0;
  for (const [i, item] of layout.items.entries()) {
    if (item.x > x) parts.push(<Text key={`gap${i}`}>{' '.repeat(item.x - x)}</Text>);
    parts.push(<ItemText key={i} item={item} theme={theme} colour={colour} />);
    x = item.x + item.w;
  }
  if (layout.cols > x) parts.push(<Text key="pad">{' '.repeat(layout.cols - x)}</Text>);
  return (
    <Box width={layout.cols} height={1} overflow="hidden">
      <Text wrap="truncate">{parts}</Text>
    </Box>
  );
}
