import { describe, expect, it } from 'vitest';
import { ACTIONS, isActionId } from '../../src/keymap/actions.js';
import { parseKey } from '../../src/keymap/keys.js';
import { resolveKeymap } from '../../src/keymap/resolve.js';

/**
 * Keys the defaults must leave to the child (SPEC §8): word motion and history in shells and
 * editors (Alt+Left/Right/Up, Alt+[ and Alt+] which also begin escape sequences), screen clear
 * (Ctrl+L) and agents' mode switch (Shift+Tab).
 */
const FORBIDDEN_DEFAULTS = ['alt+[', 'alt+]', 'alt+left', 'alt+right', 'ctrl+l', 'alt+up', 'shift+tab'];

function canonical(descriptor: string): string {
  const parsed = parseKey(descriptor);
  if (!parsed.ok) throw new Error(`${descriptor}: ${parsed.reason}`);
  return parsed.key;
}

describe('declared actions', () => {
  it('declares each action id once, with a description', () => {
    const ids = ACTIONS.map((a) => a.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const a of ACTIONS) expect(a.description.length).toBeGreaterThan(0);
    expect(isActionId('newTab')).toBe(true);
    expect(isActionId('toString')).toBe(false);
  });

  it('has the default keys of the spec', () => {
    const defaults = Object.fromEntries(ACTIONS.map((a) => [a.id, a.keys.map(canonical)]));
    expect(defaults).toEqual({
      newTab: ['alt+a'], nextTab: ['alt+.'], prevTab: ['alt+,'],
      jump1: ['alt+1'], jump2: ['alt+2'], jump3: ['alt+3'], jump4: ['alt+4'], jump5: ['alt+5'],
      jump6: ['alt+6'], jump7: ['alt+7'], jump8: ['alt+8'], jump9: ['alt+9'], jump10: ['alt+0'],
      moveTabRight: ['alt+>'], moveTabLeft: ['alt+<'], rename: ['f2'], closeTab: ['alt+w'],
      tabsPicker: ['alt+j'], commandPrompt: ['alt+;'], takeControl: ['alt+i'], copyMode: ['alt+k'],
      detach: ['alt+e'], sendPrefix: [], detachTwice: ['ctrl+c'],
    });
  });

  it('never uses a forbidden key by default', () => {
    const forbidden = new Set(FORBIDDEN_DEFAULTS.map(canonical));
    expect(forbidden.size).toBe(FORBIDDEN_DEFAULTS.length);
    for (const a of ACTIONS) {
      for (const k of a.keys) expect(forbidden.has(canonical(k)), `${a.id}: ${k}`).toBe(false);
    }
  });

  it('defaults resolve without conflicts', () => {
    const result = resolveKeymap({});
    expect('keymap' in result).toBe(true);
  });
});
