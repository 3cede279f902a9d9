import { describe, expect, it } from 'vitest';
import { describeBindings, keyLabel, openHotkeys, scrollHotkeys, UNBOUND_LABEL } from '../../../src/app/overlays/hotkeys.js';
import { ACTIONS } from '../../../src/keymap/actions.js';
import type { Keymap } from '../../../src/keymap/keys.js';
import { resolveKeymap } from '../../../src/keymap/resolve.js';
import { key, text } from './events.js';

function keymap(overrides: Record<string, string | string[]> = {}): Keymap {
  const r = resolveKeymap(overrides);
  if (!('keymap' in r)) throw new Error(r.error.message);
  return r.keymap;
}

describe('keyLabel', () => {
  it('writes canonical keys as people do', () => {
    expect(keyLabel('alt+a')).toBe('Alt+A');
    expect(keyLabel('alt+.')).toBe('Alt+.');
    expect(keyLabel('alt+,')).toBe('Alt+,');
    expect(keyLabel('alt+>')).toBe('Alt+>');
    expect(keyLabel('alt++')).toBe('Alt++');
    expect(keyLabel('f2')).toBe('F2');
    expect(keyLabel('alt+enter')).toBe('Alt+Enter');
    expect(keyLabel('ctrl+alt+shift+meta+pageup')).toBe('Ctrl+Alt+Shift+Meta+PageUp');
    expect(keyLabel('escape')).toBe('Esc');
  });
});

describe('describeBindings', () => {
  it('lists every action in declared order with its default keys', () => {
    const rows = describeBindings(keymap());
    expect(rows.map((r) => r.action)).toEqual(ACTIONS.map((a) => a.id));
    const byAction = Object.fromEntries(rows.map((r) => [r.action, r.keys]));
    expect(byAction).toMatchObject({
      newTab: 'Alt+A', nextTab: 'Alt+.', prevTab: 'Alt+,', jump10: 'Alt+0', moveTabRight: 'Alt+>',
      rename: 'F2', closeTab: 'Alt+W', tabsPicker: 'Alt+J', commandPrompt: 'Alt+;', takeControl: 'Alt+I', detach: 'Alt+E', detachTwice: 'Ctrl+C',
    });
    expect(rows.find((r) => r.action === 'newTab')?.description).toBe('Open a new tab');
  });

  it('shows the user overrides, several keys and unbound actions', () => {
    const rows = describeBindings(keymap({ newTab: ['ctrl+t', 'alt+n'], copyMode: [] }));
    const byAction = Object.fromEntries(rows.map((r) => [r.action, r.keys]));
    expect(byAction.newTab).toBe('Ctrl+T / Alt+N');
    expect(byAction.copyMode).toBe(UNBOUND_LABEL);
    expect(rows).toHaveLength(ACTIONS.length);
  });
});

describe('scrollHotkeys', () => {
  const state = openHotkeys(keymap());
  const n = state.rows.length;

  it('scrolls within the list by rows and pages', () => {
    expect(scrollHotkeys(state, key('down'), 5).state.top).toBe(1);
    expect(scrollHotkeys(state, key('up'), 5).state.top).toBe(0);
    expect(scrollHotkeys(state, key('pagedown'), 5).state.top).toBe(5);
    expect(scrollHotkeys(state, key('end'), 5).state.top).toBe(n - 5);
    const bottom = scrollHotkeys(state, key('end'), 5).state;
    expect(scrollHotkeys(bottom, key('down'), 5).state.top).toBe(n - 5);
    expect(scrollHotkeys(bottom, key('home'), 5).state.top).toBe(0);
    expect(scrollHotkeys(state, key('pagedown'), 100).state.top).toBe(0);
  });

  it('closes on Esc, Enter or q and ignores other input', () => {
    for (const ev of [key('escape'), key('enter'), text('q')]) expect(scrollHotkeys(state, ev, 5).action).toBe('close');
    expect(scrollHotkeys(state, text('x'), 5)).toEqual({ state, action: 'none' });
    expect(scrollHotkeys(state, { k: 'paste', s: 'q' }, 5)).toEqual({ state, action: 'none' });
  });
});
