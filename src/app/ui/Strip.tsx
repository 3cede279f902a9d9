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
}

/** Glyph colours are fixed by SPEC §8 rather than themed: they carry meaning, not decoration. */
const GLYPH_STYLE: Readonly<Record<Glyph, TextProps>> = {
  none: {},
  working: {},
  needsInput: { color: 'yellow' },
  done: { color: 'green' },
  error: { color: 'red' },
  starting: { dimColor: true },
  suspended: { dimColor: true },
  unresponsive: { color: 'magenta' },
  stalled: { color: 'magenta' },
};

function itemStyle(item: StripItem, theme: Theme): TextProps {
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

function ItemText({ item, theme }: { item: StripItem; theme: Theme }): React.ReactElement {
  const style = itemStyle(item, theme);
  if (item.kind === 'chip' && item.glyphText) {
    // The layout guarantees the text starts with a space and then the glyph.
    const rest = item.text.slice(1 + item.glyphText.length);
    return (
      <Text {...style}>
        {' '}
        <Text {...GLYPH_STYLE[item.glyph]}>{item.glyphText}</Text>
        {rest}
      </Text>
    );
  }
  return <Text {...style}>{item.text}</Text>;
}

export function Strip({ layout, theme }: StripProps): React.ReactElement {
  const parts: React.ReactElement[] = [];
  let x = 0;
  for (const [i, item] of layout.items.entries()) {
    if (item.x > x) parts.push(<Text key={`gap${i}`}>{' '.repeat(item.x - x)}</Text>);
    parts.push(<ItemText key={i} item={item} theme={theme} />);
    x = item.x + item.w;
  }
  if (layout.cols > x) parts.push(<Text key="pad">{' '.repeat(layout.cols - x)}</Text>);
  return (
    <Box width={layout.cols} height={1} overflow="hidden">
      <Text wrap="truncate">{parts}</Text>
    </Box>
  );
}
