// The Ink layer: the tab strip on row 1, the first-run hint beside or under it, and the notices
// drawn over the surface. Terminal content never goes through these components (SPEC §8).
import React from 'react';
import { Box, Text } from 'ink';
import type { Theme } from '../../config.js';
import type { StripLayout } from '../strip/layout.js';
import { Strip } from './Strip.js';
import type { Overlay } from './overlayLayout.js';
import { Menu } from './Menu.js';
import { Picker } from './Picker.js';
import { Prompt } from './Prompt.js';
import { Confirm } from './Confirm.js';
import { Hotkeys } from './Hotkeys.js';

export interface UiProps {
  cols: number;
  strip: StripLayout;
  theme: Theme;
  /** False under NO_COLOR: the strip and notices use attributes only. */
  colour: boolean;
  notices: string[];
  /** The first-run hint as placed (attach/hintPlacement.ts): drawn on the line after the strip's,
   *  which the client moves to its place. */
  hint: string | null;
  /** The open overlay, drawn right under the strip; the client places its rectangle. */
  overlay: Overlay | null;
  surfaceRows: number;
}

function OverlayView({ overlay, cols, rows }: { overlay: Overlay; cols: number; rows: number }): React.ReactElement | null {
  switch (overlay.kind) {
    case 'menu':
      return <Menu state={overlay.state} cols={cols} rows={rows} />;
    case 'picker':
      return <Picker state={overlay.state} cols={cols} rows={rows} />;
    case 'prompt':
      return <Prompt state={overlay.state} cols={cols} rows={rows} />;
    case 'confirm':
      return <Confirm state={overlay.state} cols={cols} rows={rows} />;
    case 'hotkeys':
      return <Hotkeys state={overlay.state} cols={cols} rows={rows} />;
  }
}

export function Ui({ cols, strip, theme, colour, notices, hint, overlay, surfaceRows }: UiProps): React.ReactElement {
  const noticeStyle = colour ? { backgroundColor: theme.notice, color: 'black' } : { inverse: true };
  return (
    <Box flexDirection="column" width={cols}>
      <Strip layout={strip} theme={theme} colour={colour} />
      {hint === null ? null : (
        <Text wrap="truncate" {...noticeStyle}>
          {hint}
        </Text>
      )}
      {overlay ? <OverlayView overlay={overlay} cols={cols} rows={surfaceRows} /> : null}
      {notices.map((n, i) => (
        <Text key={i} {...noticeStyle}>
          {` ${n} `}
        </Text>
      ))}
    </Box>
  );
}
