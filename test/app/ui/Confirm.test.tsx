import React from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render } from 'ink-testing-library';
import { Confirm } from '../../../src/app/ui/Confirm.js';
import { measure } from './overlayFrames.js';

afterEach(cleanup);

describe('<Confirm>', () => {
  it('asks in a box just wide enough', () => {
    const m = measure(render(<Confirm state={{ kind: 'closeTab', tabId: 't', name: 'api' }} cols={80} rows={24} />).lastFrame());
    expect(m.lines).toEqual([
      '╭─────────────────────────────────────╮',
      '│ Stop "api"? Enter stop · Esc cancel │',
      '╰─────────────────────────────────────╯',
    ]);
  });

  it('clips the name to fit a narrow surface', () => {
    const m = measure(render(<Confirm state={{ kind: 'closeTab', tabId: 't', name: 'a long tab name' }} cols={38} rows={24} />).lastFrame());
    expect(m.w).toBe(38);
    expect(m.lines[1]).toBe('│ Stop "a…"? Enter stop · Esc cancel │');
  });
});
