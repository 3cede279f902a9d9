import React from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render } from 'ink-testing-library';
import { Picker } from '../../../src/app/ui/Picker.js';
import { movePicker, openPicker, type PickerState, type PickerTab } from '../../../src/app/overlays/picker.js';
import { overlaySize, PICKER_HINT } from '../../../src/app/ui/overlayLayout.js';
import type { InputEvent } from '../../../src/input/events.js';
import { measure } from './overlayFrames.js';

afterEach(cleanup);

const tab = (id: string, name: string, status: string, cwd: string, glyph = ''): PickerTab => ({ id, name, glyph, status, cwd });
const TABS = [
  tab('a', 'api', 'working', '/home/me/src/api', '⠋'),
  tab('b', 'build', 'idle', '/home/me/src/web'),
  tab('c', 'docs', 'needs input', '/home/me/notes', '?'),
];

function typed(state: PickerState, s: string): PickerState {
  return [...s].reduce((st, ch) => movePicker(st, { k: 'text', s: ch } as InputEvent).state, state);
}

describe('<Picker>', () => {
  it('shows the hint on an empty filter, then every tab with glyph, name, status and cwd', () => {
    const state = openPicker(TABS, 'b');
    const m = measure(render(<Picker state={state} cols={80} rows={24} />).lastFrame());
    expect({ w: m.w, h: m.h }).toEqual(overlaySize({ kind: 'picker', state }, 80, 24));
    expect(m.lines[1]).toContain(PICKER_HINT);
    expect(m.lines[2]).toMatch(/^│ {3}⠋ api +working +\/home\/me\/src\/api +│$/);
    expect(m.lines[3]).toMatch(/^│ • {3}build +idle +\/home\/me\/src\/web +│$/);
    expect(m.lines[4]).toMatch(/^│ {3}\? docs +needs input +\/home\/me\/notes +│$/);
  });

  it('lists only the matches, under the query, and keeps its size', () => {
    const state = typed(openPicker(TABS, 'a'), 'src');
    const m = measure(render(<Picker state={state} cols={80} rows={24} />).lastFrame());
    expect(m.lines[1]).toMatch(/^│ src +│$/);
    expect(m.lines.filter((l) => l.includes('/home/me/src/'))).toHaveLength(2);
    expect(m.lines.some((l) => l.includes('docs'))).toBe(false);
    expect(m.h).toBe(overlaySize({ kind: 'picker', state: openPicker(TABS, 'a') }, 80, 24).h);
  });

  it('says when nothing matches', () => {
    const frame = render(<Picker state={typed(openPicker(TABS, 'a'), 'zzz')} cols={80} rows={24} />).lastFrame();
    expect(frame).toContain('no tab matches');
  });

  it('clips a long cwd from the left in a narrow box', () => {
    const state = openPicker([tab('a', 'api', 'idle', '/home/me/a/very/deep/directory/project')], 'a');
    const m = measure(render(<Picker state={state} cols={46} rows={24} />).lastFrame());
    expect(m.w).toBe(46);
    expect(m.lines[2]).toMatch(/…[a-z/]*project │$/);
  });
});
