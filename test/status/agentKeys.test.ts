// The key names an input event stands for, and the dialog tables of src/status/agentKeys.ts
// (the reducer's use of them is in model.test.ts; the real agents check the tables end to end).
import { describe, expect, it } from 'vitest';
import { DIALOG_OPENED, answerKey, keyNamesOf, keyRulesFor } from '../../src/status/agentKeys.js';

describe('keyNamesOf', () => {
  it('names plain keys, each character of typed text, and Ctrl+letter', () => {
    expect(keyNamesOf({ k: 'key', key: 'escape' })).toEqual(['escape']);
    expect(keyNamesOf({ k: 'key', key: 'enter' })).toEqual(['enter']);
    expect(keyNamesOf({ k: 'key', key: 'up' })).toEqual(['up']);
    expect(keyNamesOf({ k: 'text', s: '4' })).toEqual(['4']);
    expect(keyNamesOf({ k: 'text', s: 'y\r' })).toEqual(['y', 'enter']);
    expect(keyNamesOf({ k: 'text', s: 'c', mods: { ctrl: true } })).toEqual(['ctrl+c']);
    expect(keyNamesOf({ k: 'raw', bytes: '\x1b' })).toEqual(['escape']);
  });

  it('calls everything else other: pastes, mouse, modified keys', () => {
    expect(keyNamesOf({ k: 'paste', s: '4' })).toEqual(['other']);
    expect(keyNamesOf({ k: 'key', key: 'tab', mods: { shift: true } })).toEqual(['other']);
    expect(keyNamesOf({ k: 'key', key: 'enter', mods: { alt: true } })).toEqual(['other']);
    expect(keyNamesOf({ k: 'text', s: 'w', mods: { alt: true } })).toEqual(['other']);
    expect(keyNamesOf({ k: 'key', key: 'f2' })).toEqual(['other']);
    expect(keyNamesOf({ k: 'mouse', action: 'press', button: 'left', x: 1, y: 1 })).toEqual(['other']);
    expect(keyNamesOf({ k: 'focus', focused: true })).toEqual(['other']);
  });
});

describe('answerKey', () => {
  it('picks by digit at once, by Enter on the highlight, and denies on Esc whatever is highlighted', () => {
    const d = keyRulesFor('claude').dialog;
    expect(answerKey(d, DIALOG_OPENED, '4').verdict).toBe('deny');
    expect(answerKey(d, DIALOG_OPENED, '3').verdict).toBe('approve');
    expect(answerKey(d, { selected: 3, amending: false }, 'enter').verdict).toBe('deny');
    expect(answerKey(d, { selected: 0, amending: true }, 'escape').verdict).toBe('deny');
    expect(answerKey(d, DIALOG_OPENED, 'x')).toEqual({ state: DIALOG_OPENED, verdict: null });
  });

  it('every table names the version it was measured with, and every pick is an option', () => {
    for (const kind of ['claude', 'codex', 'generic']) {
      const rules = keyRulesFor(kind);
      expect(rules.version).toMatch(/^(\d+\.\d+\.\d+|\*)$/);
      for (const i of Object.values(rules.dialog.pick)) expect(rules.dialog.options[i]).toBeDefined();
      expect(rules.dialog.options).toContain('deny');
    }
    expect(keyRulesFor('claude').version).toBe('2.1.328');
    expect(keyRulesFor('codex').version).toBe('0.169.0');
    expect(keyRulesFor('aider')).toBe(keyRulesFor('generic'));
  });
});
