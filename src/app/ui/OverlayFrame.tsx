// The box every overlay is drawn in: a rounded border with a blank column inside each side,
// exactly w × h cells so that it covers the surface beneath it. Lines must already fit the
// content width (overlayLayout.ts fits them); the frame draws at most as many as it has rows.
import React from 'react';
import { Box } from 'ink';
import type { Frame } from './overlayLayout.js';

/** Overlays read as one family apart from the surface and the strip's theme colours. */
const OVERLAY_BORDER_COLOR = 'gray';

export function OverlayFrame({ frame, lines }: { frame: Frame; lines: React.ReactElement[] }): React.ReactElement | null {
  if (frame.w <= 0 || frame.h <= 0) return null;
  return (
    <Box
      width={frame.w}
      height={frame.h}
      flexDirection="column"
      flexShrink={0}
      overflow="hidden"
      {...(frame.bordered ? { borderStyle: 'round' as const, borderColor: OVERLAY_BORDER_COLOR, paddingX: 1 } : {})}
    >
      {lines.slice(0, frame.ch).map((line, i) => (
        <Box key={i} height={1} flexShrink={0}>
          {line}
        </Box>
      ))}
    </Box>
  );
}
