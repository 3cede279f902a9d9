// The /tabs picker (SPEC §8): the filter line, then the matching tabs with the selection.
import React from 'react';
import { Text } from 'ink';
import type { PickerState } from '../overlays/picker.js';
import { padEnd } from '../overlays/text.js';
import { frameOf, NO_MATCH_TEXT, overlaySize, PICKER_HINT, pickerColumns, pickerRowText, pickerWindow } from './overlayLayout.js';
import { OverlayFrame } from './OverlayFrame.js';
import { LineField } from './LineField.js';

export function Picker({ state, cols, rows }: { state: PickerState; cols: number; rows: number }): React.ReactElement | null {
  const frame = frameOf(overlaySize({ kind: 'picker', state }, cols, rows));
  const { start, rows: shown, selected } = pickerWindow(state, frame.ch - 1);
  const columns = pickerColumns(state.tabs);
  const list =
    shown.length === 0
      ? [<Text dimColor>{padEnd(NO_MATCH_TEXT, frame.cw)}</Text>]
      : shown.map((tab, i) => (
          <Text inverse={start + i === selected}>{pickerRowText(tab, columns, tab.id === state.viewed, frame.cw)}</Text>
        ));
  return <OverlayFrame frame={frame} lines={[<LineField line={state.query} width={frame.cw} placeholder={PICKER_HINT} />, ...list]} />;
}
