// The Ink layer: the tab strip on row 1 and the notices drawn over the surface. Terminal
// content never goes through these components (SPEC §8).
import React from 'react';
import { Box, Text } from 'ink';
import type { Theme } from '../../config.js';
import type { StripLayout } from '../strip/layout.js';
import { Strip } from './Strip.js';

export interface UiProps {
  cols: number;
  strip: StripLayout;
  theme: Theme;
  notices: string[];
}

export function Ui({ cols, strip, theme, notices }: UiProps): React.ReactElement {
  return (
    <Box flexDirection="column" width={cols}>
      <Strip layout={strip} theme={theme} />
      {notices.map((n, i) => (
        <Text key={i} backgroundColor={theme.notice} color="black">
          {` ${n} `}
        </Text>
      ))}
    </Box>
  );
}
