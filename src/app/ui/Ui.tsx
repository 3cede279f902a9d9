// The Ink layer: the tab strip on row 1 and the notices drawn over the surface. Terminal
// content never goes through these components (SPEC §8).
import React from 'react';
import { Box, Text } from 'ink';
import type { TabInfo } from '../../protocol/messages.js';
import { chipLabel } from './chip.js';

export interface UiProps {
  cols: number;
  tabs: TabInfo[];
  viewed: string | null;
  notices: string[];
}

export function Ui({ cols, tabs, viewed, notices }: UiProps): React.ReactElement {
  return (
    <Box flexDirection="column" width={cols}>
      <Box width={cols} height={1} overflow="hidden">
        {tabs.map((tab) => (
          <Text key={tab.id} {...(tab.id === viewed ? { backgroundColor: 'blue', color: 'whiteBright', bold: true } : { backgroundColor: 'gray', color: 'black' })}>
            {chipLabel(tab)}
          </Text>
        ))}
        <Text backgroundColor="gray" color="black">
          {' + '}
        </Text>
        {tabs.length === 0 ? <Text dimColor>{'  no tabs · Alt+A or + opens one'}</Text> : null}
      </Box>
      {notices.map((n, i) => (
        <Text key={i} backgroundColor="yellow" color="black">
          {` ${n} `}
        </Text>
      ))}
    </Box>
  );
}
