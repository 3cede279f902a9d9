import { describe, expect, it } from 'vitest';
import stringWidth from 'string-width';
import { chipMenu, tabsMenu } from '../../../src/app/overlays/menu.js';
import { openPicker, type PickerTab } from '../../../src/app/overlays/picker.js';
import { OPEN_PROMPT } from '../../../src/app/overlays/prompt.js';
import { openHotkeys } from '../../../src/app/overlays/hotkeys.js';
import { resolveKeymap } from '../../../src/keymap/resolve.js';
import {
  frameOf,
  hotkeysPageRows,
  itemAt,
  MENU_MAX_COLUMNS,
  menuRowText,
  overlayLeft,
  overlaySize,
  PICKER_MAX_COLUMNS,
  pickerColumns,
  pickerRowText,
  PROMPT_MAX_COLUMNS,
  type Overlay,
} from '../../../src/app/ui/overlayLayout.js';

const tab = (id: string, name: string, status = 'idle', cwd = '/home/me/src/project'): PickerTab => ({ id, name, glyph: '✓', status, cwd });
const TABS = [tab('a', 'api'), tab('b', 'build', 'working'), tab('c', 'a very long tab name that goes on', 'needs input', '/tmp')];

function keymap() {
  const r = resolveKeymap({});
  if (!('keymap' in r)) throw new Error(r.error.message);
  return r.keymap;
}

describe('overlay sizes', () => {
  it('fits a menu to its widest row, capped', () => {
    expect(overlaySize({ kind: 'menu', state: chipMenu() }, 80, 24)).toEqual({ w: stringWidth('  Rename') + 4, h: 4 });
    const long = tabsMenu([{ id: 'x', name: 'n'.repeat(64) }], 'x');
    expect(overlaySize({ kind: 'menu', state: long }, 80, 24).w).toBe(MENU_MAX_COLUMNS);
    expect(overlaySize({ kind: 'menu', state: long }, 30, 2)).toEqual({ w: 30, h: 2 });
  });

  it('sizes the picker by every tab, not by the matches, so it holds still while typing', () => {
    const open = openPicker(TABS, 'a');
    const size = overlaySize({ kind: 'picker', state: open }, 200, 50);
    expect(size.h).toBe(2 + 1 + TABS.length);
    expect(size.w).toBeLessThanOrEqual(PICKER_MAX_COLUMNS);
    const filtered = { ...open, query: { text: 'zzz', cursor: 3 } };
    expect(overlaySize({ kind: 'picker', state: filtered }, 200, 50)).toEqual(size);
  });

  it('gives the prompt a row for the error only when there is one', () => {
    expect(overlaySize({ kind: 'prompt', state: OPEN_PROMPT }, 200, 50)).toEqual({ w: PROMPT_MAX_COLUMNS, h: 3 });
    expect(overlaySize({ kind: 'prompt', state: { ...OPEN_PROMPT, error: 'No.' } }, 60, 50)).toEqual({ w: 60, h: 4 });
  });

  it('never exceeds the surface', () => {
    const overlays: Overlay[] = [
      { kind: 'menu', state: tabsMenu(TABS, 'a') },
      { kind: 'picker', state: openPicker(TABS, 'a') },
      { kind: 'prompt', state: { ...OPEN_PROMPT, error: 'x'.repeat(300) } },
      { kind: 'confirm', state: { kind: 'closeTab', tabId: 'a', name: 'api' } },
      { kind: 'hotkeys', state: openHotkeys(keymap()) },
    ];
    for (const o of overlays) {
      for (let cols = 0; cols <= 120; cols += 7) {
        for (let rows = 0; rows <= 30; rows += 3) {
          const { w, h } = overlaySize(o, cols, rows);
          expect(w).toBeGreaterThanOrEqual(0);
          expect(h).toBeGreaterThanOrEqual(0);
          expect(w).toBeLessThanOrEqual(cols);
          expect(h).toBeLessThanOrEqual(rows);
        }
      }
    }
  });
});

describe('overlay placement', () => {
  it('opens a menu at the chip it came from, moved left only as far as it must to fit', () => {
    const menu: Overlay = { kind: 'menu', state: chipMenu(), at: 37 };
    const { w } = overlaySize(menu, 120, 39);
    expect(overlayLeft(menu, w, 120)).toBe(37);
    expect(overlayLeft({ ...menu, at: 0 }, w, 120)).toBe(0);
    expect(overlayLeft({ ...menu, at: 118 }, w, 120)).toBe(120 - w);
    expect(overlayLeft({ ...menu, at: 5 }, 200, 120)).toBe(0);
  });

  it('centres a menu with no chip, and every other overlay', () => {
    expect(overlayLeft({ kind: 'menu', state: chipMenu() }, 12, 120)).toBe(54);
    expect(overlayLeft({ kind: 'prompt', state: OPEN_PROMPT }, 100, 120)).toBe(10);
  });
});

describe('frames', () => {
  it('has a border and a blank column each side when there is room, and none when there is not', () => {
    expect(frameOf({ w: 10, h: 3 })).toEqual({ w: 10, h: 3, bordered: true, cw: 6, ch: 1 });
    expect(frameOf({ w: 4, h: 3 })).toEqual({ w: 4, h: 3, bordered: false, cw: 4, ch: 3 });
    expect(frameOf({ w: 10, h: 2 })).toEqual({ w: 10, h: 2, bordered: false, cw: 10, ch: 2 });
  });
});

describe('rows', () => {
  it('marks the viewed tab in menus and shows glyphs', () => {
    expect(menuRowText({ id: 'a', label: 'api', glyph: '✓', marked: true })).toBe('• ✓ api');
    expect(menuRowText({ id: 'a', label: 'Rename' })).toBe('  Rename');
  });

  it('lays picker rows out in columns, keeping the end of a long cwd', () => {
    const columns = pickerColumns(TABS);
    expect(columns).toEqual({ name: 20, status: 11, title: 0 });
    const row = pickerRowText(tab('x', 'api', 'idle', '/home/me/a/very/deep/project'), columns, true, 50);
    expect(row).toBe(`• ✓ ${'api'.padEnd(20)}  ${'idle'.padEnd(11)}  …ep/project`);
    expect(stringWidth(row)).toBe(50);
    expect(pickerRowText(TABS[2], columns, false, 30)).toBe('  ✓ a very long tab nam…  nee…');
  });

  it('shows the title a child set between the status and the cwd, clipped', () => {
    const titled = [{ ...tab('a', 'api'), title: 'vim main.ts' }, { ...tab('b', 'build'), title: 'x'.repeat(50) }, tab('c', 'sh')];
    const columns = pickerColumns(titled);
    expect(columns).toEqual({ name: 5, status: 4, title: 30 });
    expect(pickerRowText(titled[0], columns, false, 60)).toBe(`  ✓ api    idle  ${'vim main.ts'.padEnd(30)}  …rc/project`);
    expect(pickerRowText(titled[1], columns, false, 60)).toContain(`${'x'.repeat(29)}…`);
    expect(pickerRowText(titled[2], columns, false, 60)).toBe(`  ✓ sh     idle  ${''.padEnd(30)}  …rc/project`);
  });
});

describe('hit testing', () => {
  it('finds the menu item or picker tab under a cell', () => {
    const menu: Overlay = { kind: 'menu', state: chipMenu() };
    expect(itemAt(menu, 80, 24, 2, 1)).toBe('rename');
    expect(itemAt(menu, 80, 24, 2, 2)).toBe('close');
    expect(itemAt(menu, 80, 24, 0, 1)).toBeNull();
    expect(itemAt(menu, 80, 24, 2, 0)).toBeNull();
    expect(itemAt(menu, 80, 24, 2, 3)).toBeNull();
    const picker: Overlay = { kind: 'picker', state: openPicker(TABS, 'a') };
    expect(itemAt(picker, 80, 24, 5, 1)).toBeNull();
    expect(itemAt(picker, 80, 24, 5, 2)).toBe('a');
    expect(itemAt(picker, 80, 24, 5, 4)).toBe('c');
    expect(itemAt({ kind: 'prompt', state: OPEN_PROMPT }, 80, 24, 5, 1)).toBeNull();
  });

  it('follows the scrolled window of a long list', () => {
    const many = Array.from({ length: 30 }, (_, i) => ({ id: `t${i}`, name: `tab ${i}` }));
    const menu: Overlay = { kind: 'menu', state: tabsMenu(many, 't20') };
    // 10 rows: 8 items shown, centred on t20.
    expect(itemAt(menu, 80, 10, 2, 1)).toBe('t17');
    expect(itemAt(menu, 80, 10, 2, 4)).toBe('t20');
  });
});

describe('hotkeysPageRows', () => {
  it('counts the rows under the title', () => {
    const state = openHotkeys(keymap());
    expect(hotkeysPageRows(state, 100, 10)).toBe(10 - 2 - 1);
    expect(hotkeysPageRows(state, 100, 100)).toBe(state.rows.length);
  });
});
