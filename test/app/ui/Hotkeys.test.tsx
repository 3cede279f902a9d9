import React from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render } from 'ink-testing-library';
import { Hotkeys } from '../../../src/app/ui/Hotkeys.js';
import { openHotkeys, scrollHotkeys } from '../../../src/app/overlays/hotkeys.js';
import { hotkeysPageRows, overlaySize } from '../../../src/app/ui/overlayLayout.js';
import { resolveKeymap } from '../../../src/keymap/resolve.js';
import { measure } from './overlayFrames.js';

afterEach(cleanup);

function keymap(overrides: Record<string, string | string[]> = {}) {
  const r = resolveKeymap(overrides);
  if (!('keymap' in r)) throw new Error(r.error.message);
  return r.keymap;
}

describe('<Hotkeys>', () => {
  it('lists the effective bindings under a title', () => {
    const state = openHotkeys(keymap({ newTab: 'ctrl+t' }));
    const m = measure(render(<Hotkeys state={state} cols={100} rows={80} />).lastFrame());
    expect({ w: m.w, h: m.h }).toEqual(overlaySize({ kind: 'hotkeys', state }, 100, 80));
    expect(m.lines[1]).toMatch(/^│ Keys and commands/);
    expect(m.lines[2]).toMatch(/^│ Keys \(action ids are what keybindings\.json names\) +│$/);
    expect(m.lines[3]).toMatch(/^│ Ctrl\+T +Open a new tab · newTab +│$/);
    expect(m.lines.some((l) => /│ F2 +Rename the viewed tab/.test(l))).toBe(true);
    expect(m.h).toBe(state.rows.length + 3);
  });

  it('shows the scrolled page of a list taller than the surface', () => {
    let state = openHotkeys(keymap());
    const page = hotkeysPageRows(state, 80, 8);
    expect(page).toBe(5);
    state = scrollHotkeys(state, { k: 'key', key: 'pagedown' }, page).state;
    const m = measure(render(<Hotkeys state={state} cols={80} rows={8} />).lastFrame());
    expect(m.h).toBe(8);
    expect(m.lines.slice(2, 7).map((l) => l.slice(2, 8).trim())).toEqual(['Alt+2', 'Alt+3', 'Alt+4', 'Alt+5', 'Alt+6']);
  });
});
