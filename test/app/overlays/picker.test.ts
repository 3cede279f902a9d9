import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { propertyRuns } from '../../helpers/runs.js';
import {
  movePicker,
  openPicker,
  pickerRows,
  selectedRow,
  setPickerTabs,
  type PickerState,
  type PickerTab,
} from '../../../src/app/overlays/picker.js';
import type { InputEvent } from '../../../src/input/events.js';
import { ctrl, eventArb, key, paste, text, typed } from './events.js';

function run(state: PickerState, events: InputEvent[]) {
  let action: ReturnType<typeof movePicker>['action'] = { kind: 'none' };
  for (const ev of events) ({ state, action } = movePicker(state, ev));
  return { state, action };
}

const tab = (id: string, name: string, status: string, cwd: string): PickerTab => ({ id, name, glyph: '', status, cwd });
const TABS = [
  tab('a', 'api', 'working', '/home/me/src/api'),
  tab('b', 'Build', 'idle', '/home/me/src/web'),
  tab('c', 'docs', 'needs input', '/home/me/notes'),
  tab('d', 'agent 2', 'idle', '/tmp'),
];
const ids = (s: PickerState): string[] => pickerRows(s).map((t) => t.id);

describe('tabs picker', () => {
  it('opens on the viewed tab with every tab listed', () => {
    const p = openPicker(TABS, 'c');
    expect(ids(p)).toEqual(['a', 'b', 'c', 'd']);
    expect(p.selected).toBe('c');
    expect(openPicker(TABS, null).selected).toBe('a');
    expect(openPicker([], null).selected).toBeNull();
  });

  it('filters by case-insensitive substrings of name, status and cwd, every term on its own', () => {
    const p = openPicker(TABS, 'a');
    expect(ids(run(p, typed('build')).state)).toEqual(['b']);
    expect(ids(run(p, typed('SRC')).state)).toEqual(['a', 'b']);
    expect(ids(run(p, typed('src idle')).state)).toEqual(['b']);
    expect(ids(run(p, typed('needs')).state)).toEqual(['c']);
    expect(ids(run(p, typed('  ')).state)).toEqual(['a', 'b', 'c', 'd']);
    // Substrings, not subsequences: the letters of "ai" occur in order in "api" but not together.
    expect(ids(run(p, typed('ai')).state)).toEqual([]);
  });

  it('filters by the title a child set, too', () => {
    const titled = [{ ...TABS[0], title: 'vim Main.ts' }, ...TABS.slice(1)];
    expect(ids(run(openPicker(titled, 'a'), typed('main.TS')).state)).toEqual(['a']);
  });

  it('keeps the selection on the same tab while the filter narrows and widens', () => {
    const p = run(openPicker(TABS, 'b'), typed('src')).state;
    expect(p.selected).toBe('b');
    const narrowed = run(p, typed(' ap')).state;
    expect(narrowed.selected).toBe('a');
    expect(run(narrowed, [ctrl('u')]).state.selected).toBe('a');
  });

  it('selects nothing when nothing matches, and the first match when something does again', () => {
    const none = run(openPicker(TABS, 'c'), typed('zzz')).state;
    expect(none.selected).toBeNull();
    expect(run(none, [key('enter')]).action).toEqual({ kind: 'none' });
    expect(run(none, [key('down')]).state.selected).toBeNull();
    expect(run(none, [ctrl('u'), ...typed('src')]).state.selected).toBe('a');
  });

  it('moves among the matching rows, wrapping, and views the selected tab on Enter', () => {
    const p = run(openPicker(TABS, 'a'), typed('idle')).state;
    expect(p.selected).toBe('b');
    expect(run(p, [key('down')]).state.selected).toBe('d');
    expect(run(p, [key('down'), key('down')]).state.selected).toBe('b');
    expect(run(p, [key('up')]).state.selected).toBe('d');
    expect(run(p, [ctrl('p'), ctrl('n'), ctrl('n')]).state.selected).toBe('d');
    expect(run(p, [key('down'), key('enter')]).action).toEqual({ kind: 'view', tabId: 'd' });
  });

  it('cancels on Escape', () => {
    expect(run(openPicker(TABS, 'a'), [text('x'), key('escape')]).action).toEqual({ kind: 'cancel' });
  });

  it('edits the query like any line, pastes included', () => {
    const p = run(openPicker(TABS, 'a'), [paste('no\ntes'), key('left'), key('backspace')]).state;
    expect(p.query.text).toBe('no ts');
  });

  it('keeps the selection on its tab when the tab list changes', () => {
    const p = openPicker(TABS, 'c');
    const renamed = setPickerTabs(p, [tab('z', 'new', 'starting', '/'), ...TABS.slice(0, 2), { ...TABS[2], name: 'notes' }, TABS[3]], 'a');
    expect(renamed.selected).toBe('c');
    expect(renamed.viewed).toBe('a');
    expect(selectedRow(renamed)).toBe(3);
  });

  it('moves the selection to the row that took its place when its tab goes away', () => {
    const p = openPicker(TABS, 'b');
    expect(setPickerTabs(p, TABS.filter((t) => t.id !== 'b'), 'a').selected).toBe('c');
    const last = openPicker(TABS, 'd');
    expect(setPickerTabs(last, TABS.slice(0, 3), 'a').selected).toBe('c');
    expect(setPickerTabs(last, [], null).selected).toBeNull();
  });

  it('selects the first match when the selected tab stops matching after a change', () => {
    const p = run(openPicker(TABS, 'a'), typed('idle')).state;
    const busy = setPickerTabs(p, TABS.map((t) => (t.id === 'b' ? { ...t, status: 'working' } : t)), 'a');
    expect(busy.selected).toBe('d');
  });

  it('always selects a listed tab while any matches', () => {
    fc.assert(
      fc.property(fc.array(eventArb, { maxLength: 25 }), fc.subarray(TABS.map((t) => t.id)), (events, keep) => {
        let p = openPicker(TABS, 'b');
        for (const ev of events) {
          const r = movePicker(p, ev);
          if (r.action.kind === 'view') expect(r.action.tabId).toBe(p.selected);
          p = r.state;
          const rows = pickerRows(p);
          expect(rows.length === 0 ? p.selected === null : rows.some((t) => t.id === p.selected)).toBe(true);
        }
        p = setPickerTabs(p, TABS.filter((t) => keep.includes(t.id)), null);
        const rows = pickerRows(p);
        expect(rows.length === 0 ? p.selected === null : rows.some((t) => t.id === p.selected)).toBe(true);
      }),
      { numRuns: propertyRuns(300) },
    );
  });
});
