import React from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render } from 'ink-testing-library';
import { Prompt } from '../../../src/app/ui/Prompt.js';
import { OPEN_PROMPT } from '../../../src/app/overlays/prompt.js';
import { overlaySize, PROMPT_MAX_COLUMNS } from '../../../src/app/ui/overlayLayout.js';
import { measure } from './overlayFrames.js';

afterEach(cleanup);

describe('<Prompt>', () => {
  it('shows the line being typed in a box as wide as the surface allows', () => {
    const state = { line: { text: '/name api', cursor: 9 }, error: null };
    const m = measure(render(<Prompt state={state} cols={60} rows={24} />).lastFrame());
    expect(m.lines).toHaveLength(3);
    expect(m.lines[1]).toMatch(/^│ \/name api +│$/);
    expect(m.w).toBe(60);
    expect(overlaySize({ kind: 'prompt', state }, 300, 24).w).toBe(PROMPT_MAX_COLUMNS);
  });

  it('shows the error under the input, wrapped onto as many lines as it needs (issue 18)', () => {
    const state = { line: { text: '/nope', cursor: 5 }, error: 'Unknown command /nope; did you mean /name? '.repeat(3).trim() };
    const m = measure(render(<Prompt state={state} cols={50} rows={24} />).lastFrame());
    expect(m.lines).toHaveLength(6);
    expect(m.lines[1]).toMatch(/^│ \/nope +│$/);
    expect(m.lines.slice(2, 5).map((l) => l.slice(2, -2).trimEnd())).toEqual([
      'Unknown command /nope; did you mean /name?',
      'Unknown command /nope; did you mean /name?',
      'Unknown command /nope; did you mean /name?',
    ]);
    expect(m.w).toBe(50);
  });

  it('lists what Tab found under the input', () => {
    const state = { line: { text: '/n', cursor: 2 }, error: null, hint: '/new-tab  /name' };
    const m = measure(render(<Prompt state={state} cols={40} rows={24} />).lastFrame());
    expect(m.lines).toHaveLength(4);
    expect(m.lines[2]).toMatch(/^│ \/new-tab \/name +│$/);
  });

  it('scrolls a long line so the end with the cursor shows', () => {
    const text = `/name ${'abcdefghij'.repeat(10)}`;
    const m = measure(render(<Prompt state={{ line: { text, cursor: [...text].length }, error: null }} cols={30} rows={24} />).lastFrame());
    // 26 content columns: 25 characters of the end, then the cursor cell.
    expect(m.lines[1]).toBe(`│ ${text.slice(-25)}  │`);
  });

  it('drops the border rather than overflow a tiny surface', () => {
    const m = measure(render(<Prompt state={OPEN_PROMPT} cols={4} rows={2} />).lastFrame());
    expect(m.w).toBeLessThanOrEqual(4);
    expect(m.h).toBeLessThanOrEqual(2);
    expect(m.lines[0]?.trim() ?? '').toBe('');
  });
});
