// The chip's Rename/Close menu and the overflow chip's tab menu (SPEC §8).
import React from 'react';
import { Text } from 'ink';
import type { MenuState } from '../overlays/menu.js';
import { padEnd } from '../overlays/text.js';
import { EMPTY_MENU_TEXT, frameOf, menuRowText, menuWindow, overlaySize } from './overlayLayout.js';
import { OverlayFrame } from './OverlayFrame.js';

export function Menu({ state, cols, rows }: { state: MenuState; cols: number; rows: number }): React.ReactElement | null {
  const frame = frameOf(overlaySize({ kind: 'menu', state }, cols, rows));
  const { start, items } = menuWindow(state, frame.ch);
  const lines =
    state.items.length === 0
      ? [<Text dimColor>{padEnd(EMPTY_MENU_TEXT, frame.cw)}</Text>]
      : items.map((item, i) => (
          <Text inverse={start + i === state.index} bold={item.marked === true}>
            {padEnd(menuRowText(item), frame.cw)}
          </Text>
        ));
  return <OverlayFrame frame={frame} lines={lines} />;
}
