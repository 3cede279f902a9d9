import React from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render } from 'ink-testing-library';
import { Menu } from '../../../src/app/ui/Menu.js';
import { chipMenu, openMenu, tabsMenu } from '../../../src/app/overlays/menu.js';
import { overlaySize } from '../../../src/app/ui/overlayLayout.js';
import { measure } from './overlayFrames.js';

afterEach(cleanup);

describe('<Menu>', () => {
  it('draws the chip menu in a bordered box of the computed size', () => {
    const state = chipMenu();
    const m = measure(render(<Menu state={state} cols={80} rows={24} />).lastFrame());
    expect(m.lines).toEqual(['╭──────────╮', '│   Rename │', '│   Close  │', '╰──────────╯']);
    expect({ w: m.w, h: m.h }).toEqual(overlaySize({ kind: 'menu', state }, 80, 24));
  });

  it('marks the viewed tab and shows glyphs, clipping long names to the box', () => {
    const state = tabsMenu([{ id: 'a', name: 'api', glyph: '✓' }, { id: 'b', name: '漢字'.repeat(30) }], 'b');
    const m = measure(render(<Menu state={state} cols={80} rows={24} />).lastFrame());
    expect(m.lines[1]).toMatch(/^│ {3}✓ api +│$/);
    expect(m.lines[2]).toMatch(/^│ • 漢字.*… +│$/);
    expect(m.w).toBeLessThanOrEqual(40);
  });

  it('shows the window around the highlighted item when the list is taller than the box', () => {
    const many = Array.from({ length: 30 }, (_, i) => ({ id: `t${i}`, name: `tab ${i}` }));
    const m = measure(render(<Menu state={tabsMenu(many, 't20')} cols={80} rows={7} />).lastFrame());
    expect(m.h).toBe(7);
    expect(m.lines.slice(1, 6).map((l) => l.replace(/[│•]/g, '').trim())).toEqual(['tab 18', 'tab 19', 'tab 20', 'tab 21', 'tab 22']);
  });

  it('says so when there is nothing to list', () => {
    expect(render(<Menu state={openMenu([])} cols={80} rows={24} />).lastFrame()).toContain('no tabs');
  });
});
