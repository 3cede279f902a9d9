import { describe, expect, it } from 'vitest';
import type { InputEvent } from '../../src/input/events.js';
import { tokenToEvents } from '../../src/input/parse.js';
import { ESC_TIMEOUT_MS, InputTokenizer } from '../../src/input/tokenizer.js';
import type { ActionId } from '../../src/keymap/actions.js';
import { eventKey, nearestChord, parseKey, type Keymap } from '../../src/keymap/keys.js';
import { chordStep, NO_CHORD } from '../../src/keymap/chords.js';

/** The action one press runs with nothing waiting, as the client matches it. */
function matchAction(ev: InputEvent, keymap: Keymap): ActionId | null {
  const { result } = chordStep(NO_CHORD, ev, keymap);
  return result.kind === 'action' ? result.action : null;
}
import { resolveKeymap } from '../../src/keymap/resolve.js';

function events(bytes: string): InputEvent[] {
  const t = new InputTokenizer();
  return [...t.push(bytes, 0), ...t.flush(ESC_TIMEOUT_MS)].flatMap(tokenToEvents);
}

function defaults(): Keymap {
  const r = resolveKeymap({});
  if (!('keymap' in r)) throw new Error(r.error.message);
  return r.keymap;
}

describe('parseKey', () => {
  const valid: [string, string][] = [
    ['alt+a', 'alt+a'],
    ['Alt+A', 'alt+a'],
    ['alt+shift+a', 'alt+shift+a'],
    ['ctrl+c', 'ctrl+c'],
    ['shift+ctrl+alt+x', 'ctrl+alt+shift+x'],
    ['f2', 'f2'],
    ['F12', 'f12'],
    ['alt+enter', 'alt+enter'],
    ['alt+return', 'alt+enter'],
    ['alt+>', 'alt+>'],
    ['alt+.', 'alt+.'],
    ['alt+comma', 'alt+,'],
    ['alt+,', 'alt+,'],
    ['alt+plus', 'alt++'],
    ['alt++', 'alt++'],
    ['alt+/', 'alt+/'],
    ['ctrl+space', 'ctrl+space'],
    ['shift+tab', 'shift+tab'],
    ['meta+left', 'meta+left'],
    ['esc', 'escape'],
    ['alt+é', 'alt+é'],
    [' alt+a ', 'alt+a'],
  ];
  it.each(valid)('%s -> %s', (d, expected) => expect(parseKey(d)).toEqual({ ok: true, key: expected }));

  const invalid: [string, RegExp][] = [
    ['', /missing/],
    ['alt+', /missing/],
    ['hyper+a', /"hyper" is not a modifier/],
    ['alt+alt+a', /alt appears twice/],
    ['alt+foo', /"foo" is not a key name/],
    ['shift+>', /shift cannot be combined/],
    ['alt+\x01', /control characters/],
  ];
  it.each(invalid)('rejects %j', (d, reason) => {
    const r = parseKey(d);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(reason);
  });
});

describe('nearestChord', () => {
  it('replaces a misspelt key name or modifier with the nearest known one', () => {
    expect(nearestChord('alt+entr')).toBe('alt+enter');
    expect(nearestChord('Alt+Escpae')).toBe('alt+escape');
    expect(nearestChord('contrl+b d')).toBe('ctrl+b d');
    expect(nearestChord('ctrl+b dleete')).toBe('ctrl+b delete');
    expect(nearestChord('alt+coma')).toBe('alt+,');
  });

  it('suggests nothing for a word near no name, or a mistake that is not in a name', () => {
    expect(nearestChord('alt+xyzzy')).toBeNull();
    expect(nearestChord('hyper+a')).toBeNull();
    expect(nearestChord('shift+>')).toBeNull();
    expect(nearestChord('alt+')).toBeNull();
  });
});

describe('one press with the default keymap', () => {
  const keymap = defaults();
  const cases: [string, string, ActionId | null][] = [
    ['Alt+A', '\x1ba', 'newTab'],
    ['Alt+.', '\x1b.', 'nextTab'],
    ['Alt+,', '\x1b,', 'prevTab'],
    ['Alt+1', '\x1b1', 'jump1'],
    ['Alt+9', '\x1b9', 'jump9'],
    ['Alt+0', '\x1b0', 'jump10'],
    ['Alt+>', '\x1b>', 'moveTabRight'],
    ['Alt+<', '\x1b<', 'moveTabLeft'],
    ['F2', '\x1bOQ', 'rename'],
    ['F2 (rxvt)', '\x1b[12~', 'rename'],
    ['Alt+W', '\x1bw', 'closeTab'],
    ['Alt+J', '\x1bj', 'tabsPicker'],
    ['Alt+;', '\x1b;', 'commandPrompt'],
    ['Alt+I', '\x1bi', 'takeControl'],
    ['Alt+K', '\x1bk', 'copyMode'],
    ['Ctrl+C', '\x03', 'detachTwice'],
    ['Alt+E', '\x1be', 'detach'],
    ['Alt+A from a kitty key report', '\x1b[97;3u', 'newTab'],
    ['plain a', 'a', null],
    ['Alt+Shift+A', '\x1bA', null],
    ['Alt+Left', '\x1b[1;3D', null],
    ['Alt+[', '\x1b[', null],
    ['Shift+Tab', '\x1b[Z', null],
    ['Ctrl+L', '\x0c', null],
    ['shift+F2', '\x1b[1;2Q', null],
  ];
  it.each(cases)('%s', (_n, bytes, expected) => {
    const evs = events(bytes);
    expect(evs).toHaveLength(1);
    expect(matchAction(evs[0], keymap)).toBe(expected);
  });

  it('matches nothing that is not a single key press', () => {
    expect(matchAction({ k: 'text', s: 'ab', mods: { alt: true } }, keymap)).toBeNull();
    expect(matchAction({ k: 'paste', s: 'a' }, keymap)).toBeNull();
    expect(matchAction({ k: 'mouse', action: 'press', button: 'left', x: 0, y: 0 }, keymap)).toBeNull();
    expect(matchAction({ k: 'focus', focused: true }, keymap)).toBeNull();
    expect(matchAction({ k: 'raw', bytes: '\x1ba' }, keymap)).toBeNull();
  });
});

describe('eventKey', () => {
  it('treats an upper-case letter as shift and drops shift from other characters', () => {
    expect(eventKey({ k: 'text', s: 'A', mods: { alt: true } })).toBe('alt+shift+a');
    expect(eventKey({ k: 'text', s: '>', mods: { alt: true, shift: true } })).toBe('alt+>');
    expect(eventKey({ k: 'text', s: ' ', mods: { ctrl: true } })).toBe('ctrl+space');
    expect(eventKey({ k: 'key', key: 'space', mods: { ctrl: true } })).toBe('ctrl+space');
    expect(eventKey({ k: 'key', key: 'tab', mods: { shift: true, meta: true } })).toBe('shift+meta+tab');
  });
});
