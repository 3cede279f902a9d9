// The command prompt (Alt+;, SPEC §8): the line being typed and, under it, why the last Enter
// ran nothing (or what Tab found), wrapped onto as many lines as it needs.
import React from 'react';
import { Text } from 'ink';
import { promptMessage, promptMessageLines, type PromptState } from '../overlays/prompt.js';
import { padEnd } from '../overlays/text.js';
import { frameOf, overlaySize } from './overlayLayout.js';
import { OverlayFrame } from './OverlayFrame.js';
import { LineField } from './LineField.js';

export function Prompt({ state, cols, rows }: { state: PromptState; cols: number; rows: number }): React.ReactElement | null {
  const frame = frameOf(overlaySize({ kind: 'prompt', state }, cols, rows));
  const lines = [<LineField line={state.line} width={frame.cw} />];
  const color = promptMessage(state)?.error ? 'red' : undefined;
  for (const line of promptMessageLines(state, frame.cw)) lines.push(<Text color={color}>{padEnd(line, frame.cw)}</Text>);
  return <OverlayFrame frame={frame} lines={lines} />;
}
