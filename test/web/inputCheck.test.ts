// A page's input is checked before a holder sees it (src/web/inputCheck.ts).
import { describe, expect, it } from 'vitest';
import { checkPageInput } from '../../src/web/inputCheck.js';
import { composeEvents, keysToEvents, quickKeyEvents } from '../../src/web/page/keys.js';

describe("a page's input", () => {
  it('lets through what the page sends: text, keys with modifiers, pastes, unparsed sequences', () => {
    const events = [
      { k: 'text', s: 'ls' },
      { k: 'text', s: 'c', mods: { ctrl: true } },
      { k: 'key', key: 'enter' },
      { k: 'key', key: 'up', mods: { shift: true }, type: 'repeat' },
      { k: 'key', key: 'mediaPlay' },
      { k: 'paste', s: 'a\nb' },
      { k: 'raw', bytes: '\x1b[99~' },
    ];
    expect(checkPageInput(events)).toEqual(events);
    // Everything the page's own key parser makes passes.
    for (const keys of ['\r', '\x1b[A', '\x03', '\x7f', '\x1b[1;5C', 'é', '\x1b', '\x1bx', '\x1b[200~pasted\x1b[201~']) {
      expect(checkPageInput(keysToEvents(keys)), JSON.stringify(keys)).not.toBeNull();
    }
    for (const key of ['enter', 'escape', 'tab', 'up', 'down', 'ctrl-c', '1', '2', '3', 'y', 'n']) expect(checkPageInput(quickKeyEvents(key)), key).not.toBeNull();
    expect(checkPageInput(composeEvents('make test\nand again'))).not.toBeNull();
  });

  it('refuses a message whole when any event has a shape a holder does not take', () => {
    const bad: unknown[] = [
      { k: 'text', s: 3 },
      { k: 'text', s: '' },
      { k: 'text', s: 'x', mods: { ctrl: 'yes' } },
      { k: 'text', s: 'x', mods: { super: true } },
      { k: 'key', key: 'rm -rf' },
      { k: 'key', key: 'enter', code: -1 },
      { k: 'mouse', action: 'press', button: 'left', x: 0, y: 0 },
      { k: 'focus', focused: true },
      { k: 'paste' },
      null,
      'enter',
    ];
    for (const e of bad) expect(checkPageInput([{ k: 'text', s: 'ok' }, e]), JSON.stringify(e)).toBeNull();
    expect(checkPageInput([])).toBeNull();
    expect(checkPageInput('text')).toBeNull();
    expect(checkPageInput(Array.from({ length: 2000 }, () => ({ k: 'text', s: 'a' })))).toBeNull();
  });
});
