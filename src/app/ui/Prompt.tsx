// The command prompt (Alt+;, SPEC §8): the line being typed and, under it, why the last Enter
// ran nothing.
import React from 'react';
import { Text } from 'ink';
import type { PromptState } from '../overlays/prompt.js';
import { padEnd } from '../overlays/text.js';
import { frameOf, overlaySize } from './overlayLayout.js';
import { OverlayFrame } from './OverlayFrame.js';
import { LineField } from './LineField.js';

export function Prompt({ state, cols, rows }: { state: PromptState; cols: number; rows: number }): React.ReactElement | null {
  const frame = frameOf(overlaySize({ kind: 'prompt', state }, cols, rows));
  const lines = [<LineField line={state.line} width={frame.cw} />];
  if (state.error !== null) lines.push(<Text color="red">{padEnd(state.error, frame.cw)}</Text>);
  return <OverlayFrame frame={frame} lines={lines} />;
}
