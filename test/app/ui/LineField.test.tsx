// The cursor is an inverse cell, so this test needs colours. Ink colours through chalk, whose
// level is read from the environment once per process and shared by every file the fast tier
// runs in that process: pin it here and give it back after.
import chalk from 'chalk';
import React from 'react';
import { render } from 'ink-testing-library';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LineField } from '../../../src/app/ui/LineField.js';
import type { LineState } from '../../../src/app/overlays/lineEditor.js';

const INVERSE_ON = '\x1b[7m';
const INVERSE_OFF = '\x1b[27m';
const ANSI = /\x1b\[[0-9;]*m/g;

let savedLevel: typeof chalk.level;
beforeAll(() => {
  savedLevel = chalk.level;
  chalk.level = 1;
});
afterAll(() => {
  chalk.level = savedLevel;
});

function renderLine(line: LineState, width: number, placeholder?: string): string {
  const r = render(<LineField line={line} width={width} placeholder={placeholder} />);
  const frame = r.lastFrame() ?? '';
  r.unmount();
  return frame;
}

/** The text with the inverse cell marked as [x]. */
function marked(frame: string): string {
  return frame.replaceAll(INVERSE_ON, '[').replaceAll(INVERSE_OFF, ']').replace(ANSI, '');
}

describe('<LineField>', () => {
  it('draws the grapheme under the cursor in inverse', () => {
    expect(marked(renderLine({ text: 'a漢c', cursor: 1 }, 10))).toBe('a[漢]c');
  });

  it('draws an inverse blank cell at the end of the line', () => {
    expect(marked(renderLine({ text: 'abc', cursor: 3 }, 10))).toBe('abc[ ]');
  });

  it('shows the placeholder after the cursor while the line is empty', () => {
    expect(marked(renderLine({ text: '', cursor: 0 }, 12, 'type here'))).toBe('[ ]type here  ');
    expect(marked(renderLine({ text: '', cursor: 0 }, 6, 'type here'))).toBe('[ ]type…');
  });
});
