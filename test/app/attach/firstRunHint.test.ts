import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveKeymap } from '../../../src/keymap/resolve.js';
import type { Keymap } from '../../../src/keymap/keys.js';
import { dismissHint, firstRunHintText, HINT_KEY, HINT_KEYS_USED_FILE, hintDismissed, hintKeysUsed, recordHintKeyUsed } from '../../../src/app/attach/firstRunHint.js';
import { keyUses } from '../../../src/keymap/keyTable.js';

function keymap(overrides: Record<string, string | string[]> = {}): Keymap {
  const r = resolveKeymap(overrides);
  if (!('keymap' in r)) throw new Error(r.error.message);
  return r.keymap;
}

describe('the first-run hint', () => {
  it('names the main keys as bound, and its own key', () => {
    expect(firstRunHintText(keymap())).toBe('Alt+A new tab · Alt+. Alt+, switch · Alt+W close · Alt+E detach · Alt+; commands · F12 hides this');
  });

  it('follows the user\'s bindings, and leaves out an unbound action', () => {
    const text = firstRunHintText(keymap({ newTab: 'alt+t', detach: [] }));
    expect(text).toContain('Alt+T new tab');
    expect(text).not.toContain('detach');
  });

  it('drops each key once used (either of the switch keys), and is no line at all once every key it names was used', () => {
    expect(firstRunHintText(keymap(), new Set(['newTab', 'prevTab']))).toBe('Alt+W close · Alt+E detach · Alt+; commands · F12 hides this');
    expect(firstRunHintText(keymap(), new Set(['newTab', 'nextTab', 'closeTab', 'detach', 'commandPrompt']))).toBeNull();
    // An unbound action is not waited for.
    expect(firstRunHintText(keymap({ detach: [] }), new Set(['newTab', 'nextTab', 'closeTab', 'commandPrompt']))).toBeNull();
  });

  it('uses a key that none of the programs in the key table uses and that a1 binds to nothing', () => {
    expect(keyUses(HINT_KEY)).toEqual([]);
    expect([...keymap().byAction.values()].flat()).not.toContain(HINT_KEY);
  });

  it('is dismissed for good by a file in the state directory', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'a1-hint-'));
    try {
      expect(hintDismissed(dir)).toBe(false);
      dismissHint(dir);
      expect(hintDismissed(dir)).toBe(true);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('remembers the keys used in the state directory, with another launch\'s, and forgets them once dismissed', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'a1-hint-'));
    try {
      expect(hintKeysUsed(dir)).toEqual(new Set());
      recordHintKeyUsed(dir, 'newTab');
      fs.appendFileSync(path.join(dir, HINT_KEYS_USED_FILE), 'detach\nnotAnAction\nrename\n');
      recordHintKeyUsed(dir, 'closeTab');
      expect(hintKeysUsed(dir)).toEqual(new Set(['newTab', 'detach', 'closeTab']));
      dismissHint(dir);
      expect(fs.existsSync(path.join(dir, HINT_KEYS_USED_FILE))).toBe(false);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
