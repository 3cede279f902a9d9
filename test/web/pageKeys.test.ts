// The page's keyboard: what xterm.js emits for keys and pastes becomes the input events the
// terminal client would send for the same keys (the same tokenizer and parser).
import { describe, expect, it } from 'vitest';
import { composeEvents, keysToEvents, QUICK_KEYS, quickKeyEvents } from '../../src/web/page/keys.js';

describe('keysToEvents', () => {
  it('reads the strings xterm.js emits as keys', () => {
    expect(keysToEvents('\r')).toEqual([{ k: 'key', key: 'enter' }]);
    expect(keysToEvents('\x1b[A')).toEqual([{ k: 'key', key: 'up' }]);
    expect(keysToEvents('\x1bOB')).toEqual([{ k: 'key', key: 'down' }]);
    expect(keysToEvents('\x03')).toEqual([{ k: 'text', s: 'c', mods: { ctrl: true } }]);
    expect(keysToEvents('\x7f')).toEqual([{ k: 'key', key: 'backspace' }]);
    expect(keysToEvents('\x1b[1;5C')).toEqual([{ k: 'key', key: 'right', mods: { ctrl: true } }]);
    expect(keysToEvents('é')).toEqual([{ k: 'text', s: 'é' }]);
  });

  it('a lone Escape is the key at once, not the start of a sequence', () => {
    expect(keysToEvents('\x1b')).toEqual([{ k: 'key', key: 'escape' }]);
    expect(keysToEvents('\x1bx')).toEqual([{ k: 'text', s: 'x', mods: { alt: true } }]);
  });

  it('a bracketed paste is one paste event, newlines and all', () => {
    expect(keysToEvents('\x1b[200~line one\rline two\x1b[201~')).toEqual([{ k: 'paste', s: 'line one\rline two' }]);
  });

  it('each chunk stands alone: nothing carries over to the next', () => {
    expect(keysToEvents('\x1b[')).toEqual([{ k: 'text', s: '[', mods: { alt: true } }]);
    expect(keysToEvents('A')).toEqual([{ k: 'text', s: 'A' }]);
  });
});

describe('quick keys and the compose line', () => {
  it('every quick key sends one event; the permission answers are plain text', () => {
    for (const key of QUICK_KEYS) expect(quickKeyEvents(key)).toHaveLength(1);
    expect(quickKeyEvents('ctrl-c')).toEqual([{ k: 'text', s: 'c', mods: { ctrl: true } }]);
    expect(quickKeyEvents('escape')).toEqual([{ k: 'key', key: 'escape' }]);
    expect(quickKeyEvents('2')).toEqual([{ k: 'text', s: '2' }]);
    expect(quickKeyEvents('nope')).toEqual([]);
  });

  it('compose sends its text then Enter; an empty line is just Enter', () => {
    expect(composeEvents('echo hi')).toEqual([{ k: 'text', s: 'echo hi' }, { k: 'key', key: 'enter' }]);
    expect(composeEvents('')).toEqual([{ k: 'key', key: 'enter' }]);
    expect(composeEvents('a\nb')).toEqual([{ k: 'text', s: 'a' }, { k: 'key', key: 'enter' }, { k: 'text', s: 'b' }, { k: 'key', key: 'enter' }]);
  });
});
