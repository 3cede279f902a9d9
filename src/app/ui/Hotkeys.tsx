// /hotkeys: the effective key bindings, scrolled by the model's `top`.
import React from 'react';
import { Text } from 'ink';
import type { HotkeysState } from '../overlays/hotkeys.js';
import { clampTop } from '../overlays/scroll.js';
import { padEnd } from '../overlays/text.js';
import { frameOf, HOTKEYS_TITLE, hotkeysKeysColumns, hotkeysRowText, overlaySize } from './overlayLayout.js';
import { OverlayFrame } from './OverlayFrame.js';

export function Hotkeys({ state, cols, rows }: { state: HotkeysState; cols: number; rows: number }): React.ReactElement | null {
  const frame = frameOf(overlaySize({ kind: 'hotkeys', state }, cols, rows));
  const visible = Math.max(0, frame.ch - 1);
  const top = clampTop(state.top, state.rows.length, visible);
  const keysColumns = hotkeysKeysColumns(state);
  const lines = [
    <Text dimColor>{padEnd(HOTKEYS_TITLE, frame.cw)}</Text>,
    ...state.rows.slice(top, top + visible).map((row) => <Text>{hotkeysRowText(row, keysColumns, frame.cw)}</Text>),
  ];
  return <OverlayFrame frame={frame} lines={lines} />;
}
