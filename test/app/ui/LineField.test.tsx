// The cursor is an inverse cell, so this test needs colours: they are forced before Ink (and
// chalk, which reads the environment once) is first imported in this file's own process.
import React from 'react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LineState } from '../../../src/app/overlays/lineEditor.js';

const INVERSE_ON = '\x1b[7m';
const INVERSE_OFF = '\x1b[27m';
const ANSI = /\x1b\[[0-9;]*m/g;

let renderLine: (line: LineState, width: number, placeholder?: string) => string;
let previous: string | undefined;

beforeAll(async () => {
  previous = process.env.FORCE_COLOR;
  process.env.FORCE_COLOR = '1';
  const { render } = await import('ink-testing-library');
  const { LineField } = await import('../../../src/app/ui/LineField.js');
  renderLine = (line, width, placeholder) => {
    const r = render(<LineField line={line} width={width} placeholder={placeholder} />);
    const frame = r.lastFrame() ?? '';
    r.unmount();
    return frame;
  };
});

afterAll(() => {
  if (previous === undefined) delete process.env.FORCE_COLOR;
  else process.env.FORCE_COLOR = previous;
});

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
