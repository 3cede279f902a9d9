// Measuring what an overlay component rendered (ink-testing-library frames: no colours unless
// forced, lines separated by '\n').
import stringWidth from 'string-width';

export interface Measured {
  lines: string[];
  /** The widest line's display width. */
  w: number;
  h: number;
}

export function measure(frame: string | undefined): Measured {
  const lines = frame === undefined || frame === '' ? [] : frame.split('\n');
  return { lines, w: Math.max(0, ...lines.map((l) => stringWidth(l))), h: lines.length };
}
