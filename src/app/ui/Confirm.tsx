// The question before stopping busy tabs (SPEC §8): `Stop "<name>"? Enter stop · Esc cancel`.
import React from 'react';
import { Text } from 'ink';
import { confirmText, type ConfirmState } from '../overlays/confirm.js';
import { padEnd } from '../overlays/text.js';
import { frameOf, overlaySize } from './overlayLayout.js';
import { OverlayFrame } from './OverlayFrame.js';

export function Confirm({ state, cols, rows }: { state: ConfirmState; cols: number; rows: number }): React.ReactElement | null {
  const frame = frameOf(overlaySize({ kind: 'confirm', state }, cols, rows));
  return <OverlayFrame frame={frame} lines={[<Text bold>{padEnd(confirmText(state, frame.cw), frame.cw)}</Text>]} />;
}
