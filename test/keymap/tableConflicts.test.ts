import { describe, expect, it } from 'vitest';
import { chordLabel } from '../../src/app/overlays/hotkeys.js';
import type { ActionId } from '../../src/keymap/actions.js';
import type { Keymap } from '../../src/keymap/keys.js';
import { resolveKeymap } from '../../src/keymap/resolve.js';
import { MAX_CONFLICT_NOTICES, tableConflicts } from '../../src/keymap/tableConflicts.js';

function conflicts(overrides: Record<string, string | string[]>): string[] {
  const r = resolveKeymap(overrides);
  if (!('keymap' in r)) throw new Error(r.error.message);
  const keymap: Keymap = r.keymap;
  return tableConflicts(keymap, Object.keys(overrides).filter((k) => k !== 'prefix') as ActionId[], chordLabel);
}

describe('tableConflicts', () => {
  it('names the program, its use of the key and the others that use it', () => {
    expect(conflicts({ tabsPicker: 'alt+t' })).toEqual([
      'Alt+T is bound to tabsPicker but Claude Code uses it for Chat: chat:thinkingToggle, as do bash, zsh.',
    ]);
    expect(conflicts({ takeControl: 'alt+enter' })).toEqual([
      'Alt+Enter is bound to takeControl but Codex uses it for Editor: Insert Newline, as do Claude Code.',
    ]);
  });

  it("says nothing about the defaults or a free key of the user's", () => {
    expect(conflicts({})).toEqual([]);
    expect(conflicts({ newTab: 'f6' })).toEqual([]);
  });

  it('names a prefix once, and the first key of a chord', () => {
    expect(conflicts({ prefix: 'ctrl+b' })).toEqual([
      'Ctrl+B is bound to the prefix but Claude Code uses it for Transcript: scroll:fullPageUp, as do Codex, bash, zsh, vim.',
    ]);
    expect(conflicts({ detach: 'ctrl+b d' })[0]).toMatch(/^Ctrl\+B \(the start of Ctrl\+B d\) is bound to detach but Claude Code uses it for /);
  });

  it('keeps to a few lines and counts the rest', () => {
    const many = conflicts({ newTab: 'alt+t', nextTab: 'alt+b', prevTab: 'alt+f', closeTab: 'alt+d' });
    expect(many).toHaveLength(MAX_CONFLICT_NOTICES);
    expect(many[MAX_CONFLICT_NOTICES - 1]).toBe('2 more of your keys are used by programs in tabs; see docs/keys.md.');
  });
});
