import { describe, expect, it } from 'vitest';
import { chordLabel, describeBindings, describeHotkeys, keyLabel, openHotkeys, scrollHotkeys, UNBOUND_LABEL } from '../../../src/app/overlays/hotkeys.js';
import { COMMANDS, commandUsage } from '../../../src/app/overlays/commands.js';
import { COPY_MODE_KEYS } from '../../../src/app/copyMode/state.js';
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

describe('describeHotkeys', () => {
  it('lists every action with its id, every copy-mode key and every command, from the declared lists', () => {
    const rows = describeHotkeys(keymap());
    const headings = rows.flatMap((r, i) => (r.heading ? [i] : []));
    expect(headings).toHaveLength(3);
    const [actions, copy, commands] = [
      rows.slice(headings[0] + 1, headings[1]),
      rows.slice(headings[1] + 1, headings[2]),
      rows.slice(headings[2] + 1),
    ];
    expect(actions.map((r) => r.action)).toEqual(ACTIONS.map((a) => a.id));
    expect(copy.map((r) => r.description)).toEqual(COPY_MODE_KEYS.map((k) => k.description));
    expect(copy.find((r) => r.description === 'Last line')?.keys).toBe('G');
    expect(copy.find((r) => r.description === 'Back to live')?.keys).toBe('q / Esc');
    expect(commands.map((r) => r.keys)).toEqual(COMMANDS.map(commandUsage));
    // Each command says the keys that run it.
    const described = Object.fromEntries(commands.map((r) => [r.keys, r.description]));
    expect(described['/new-tab [name]']).toBe('Open a new tab · Alt+A');
    expect(described['/view-tab <number>']).toBe('View the tab at this place in the strip · Alt+1…Alt+0');
    expect(described['/move-tab <left|right>']).toBe('Move the viewed tab one place left or right · Alt+> / Alt+<');
    expect(described['/edit-name']).toBe("Edit the viewed tab's name on its chip · F2");
    expect(described['/sleep']).toBe('Checkpoint the viewed tab and stop it');
    expect(rows[headings[1]].description).toBe('In copy mode (Alt+K or the wheel)');
    expect(rows[headings[2]].description).toBe('Commands (Alt+; opens the prompt)');
  });

  it('writes chords with their later keys as typed', () => {
    expect(chordLabel('ctrl+b d')).toBe('Ctrl+B d');
    expect(chordLabel('ctrl+b shift+d')).toBe('Ctrl+B D');
    expect(chordLabel('alt+e')).toBe('Alt+E');
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
