// A line editor's text in a field `width` columns wide, with the cursor drawn as an inverse
// cell (the real cursor stays where the tab's child put it) and a dim placeholder when empty.
import React from 'react';
import { Text } from 'ink';
import stringWidth from 'string-width';
import { lineView, type LineState } from '../overlays/lineEditor.js';
import { padEnd } from '../overlays/text.js';

export function LineField({ line, width, placeholder = '' }: { line: LineState; width: number; placeholder?: string }): React.ReactElement {
  const view = lineView(line, width);
  if (width <= 0) return <Text>{''}</Text>;
  const used = stringWidth(view.before) + Math.max(1, stringWidth(view.under)) + stringWidth(view.after);
  const rest = width - used;
  return (
    <Text>
      {view.before}
      <Text inverse>{view.under === '' ? ' ' : view.under}</Text>
      {view.after}
      {line.text === '' ? <Text dimColor>{padEnd(placeholder, rest)}</Text> : ' '.repeat(Math.max(0, rest))}
    </Text>
  );
}
