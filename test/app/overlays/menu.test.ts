import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { chipMenu, moveMenu, openMenu, tabsMenu, type MenuState } from '../../../src/app/overlays/menu.js';
import type { InputEvent } from '../../../src/input/events.js';
import { ctrl, eventArb, key, text } from './events.js';

function run(state: MenuState, events: InputEvent[]) {
  let action: ReturnType<typeof moveMenu>['action'] = { kind: 'none' };
  for (const ev of events) ({ state, action } = moveMenu(state, ev));
  return { state, action };
}

const tabs = [
  { id: 'a', name: 'api', glyph: '✓' },
  { id: 'b', name: 'build' },
  { id: 'c', name: 'Bugs' },
  { id: 'd', name: 'docs' },
];

describe('menus', () => {
  it('offers Rename and Close on a chip', () => {
    const m = chipMenu();
    expect(m.items.map((i) => [i.id, i.label])).toEqual([['rename', 'Rename'], ['close', 'Close']]);
    expect(run(m, [key('enter')]).action).toEqual({ kind: 'select', id: 'rename' });
    expect(run(m, [key('down'), key('enter')]).action).toEqual({ kind: 'select', id: 'close' });
  });

  it('lists tabs in the overflow menu with the viewed one marked and highlighted', () => {
    const m = tabsMenu(tabs, 'c');
    expect(m.index).toBe(2);
    expect(m.items.filter((i) => i.marked).map((i) => i.id)).toEqual(['c']);
    expect(m.items[0].glyph).toBe('✓');
    expect(tabsMenu(tabs, null).index).toBe(0);
    expect(tabsMenu(tabs, 'gone').index).toBe(0);
  });

  it('starts the overflow menu on the tab its chip points to, still marking the viewed one', () => {
    const m = tabsMenu(tabs, 'c', 'b');
    expect(m.index).toBe(1);
    expect(m.items.filter((i) => i.marked).map((i) => i.id)).toEqual(['c']);
    expect(run(m, [key('enter')]).action).toEqual({ kind: 'select', id: 'b' });
  });

  it('moves with the arrows (wrapping), Ctrl+P/N, Home and End', () => {
    const m = tabsMenu(tabs, 'a');
    expect(run(m, [key('up')]).state.index).toBe(3);
    expect(run(m, [key('down'), key('down')]).state.index).toBe(2);
    expect(run(m, [key('up'), key('down')]).state.index).toBe(0);
    expect(run(m, [ctrl('n'), ctrl('n'), ctrl('p')]).state.index).toBe(1);
    expect(run(m, [key('end')]).state.index).toBe(3);
    expect(run(m, [key('end'), key('home')]).state.index).toBe(0);
  });

  it('jumps to the next item starting with a typed letter, cycling', () => {
    const m = tabsMenu(tabs, 'a');
    expect(run(m, [text('b')]).state.index).toBe(1);
    expect(run(m, [text('b'), text('B')]).state.index).toBe(2);
    expect(run(m, [text('b'), text('b'), text('b')]).state.index).toBe(1);
    expect(run(m, [text('z')]).state.index).toBe(0);
    expect(run(chipMenu(), [text('c'), key('enter')]).action).toEqual({ kind: 'select', id: 'close' });
  });

  it('cancels on Escape and ignores everything else', () => {
    const m = tabsMenu(tabs, 'b');
    expect(run(m, [key('escape')]).action).toEqual({ kind: 'cancel' });
    for (const ev of [key('tab'), key('f1'), ctrl('b'), text('b', { alt: true }), { k: 'focus', focused: true }] as InputEvent[]) {
      expect(moveMenu(m, ev)).toEqual({ state: m, action: { kind: 'none' } });
    }
  });

  it('selects nothing from an empty menu, and can still be cancelled', () => {
    const m = openMenu([]);
    expect(run(m, [key('down'), text('a'), key('enter')])).toEqual({ state: m, action: { kind: 'none' } });
    expect(run(m, [key('escape')]).action).toEqual({ kind: 'cancel' });
  });

  it('always highlights an existing item and selects only what is highlighted', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }), fc.array(eventArb, { maxLength: 30 }), (n, events) => {
        let state = openMenu(Array.from({ length: n }, (_, i) => ({ id: `t${i}`, label: `tab ${i}` })));
        for (const ev of events) {
          const r = moveMenu(state, ev);
          if (r.action.kind === 'select') expect(r.action.id).toBe(state.items[state.index].id);
          state = r.state;
          expect(state.index).toBeGreaterThanOrEqual(0);
          expect(state.index).toBeLessThan(n);
        }
      }),
    );
  });
});
