import { describe, it, expect } from 'vitest';
import { ENTER_SEQUENCE, RESTORE_SEQUENCE, keyboardReply, styledUnderlines, uiColour, unsuitableTerminal } from '../../src/app/outerTerminal.js';

describe('outer terminal modes', () => {
  it('turns off every mode it turns on, in reverse order', () => {
    const on = [...ENTER_SEQUENCE.matchAll(/\x1b\[\?(\d+)h/g)].map((m) => m[1]);
    const off = [...RESTORE_SEQUENCE.matchAll(/\x1b\[\?(\d+)l/g)].map((m) => m[1]).filter((m) => on.includes(m));
    expect(on.length).toBeGreaterThan(0);
    expect(off).toEqual([...on].reverse());
  });
});

describe('keyboard query replies', () => {
  it.each([
    ['\x1b[?0u', { k: 'kitty', flags: 0 }],
    ['\x1b[?u', { k: 'kitty', flags: 0 }],
    ['\x1b[?7u', { k: 'kitty', flags: 7 }],
    ['\x1b[?62;22c', { k: 'da1' }],
    ['\x1b[?1;2c', { k: 'da1' }],
    ['\x1b[97;5u', null],
    ['\x1b[?1;2u', null],
    ['\x1b[c', null],
  ])('%j', (raw, reply) => expect(keyboardReply(raw)).toEqual(reply));
});

describe('terminals a1 refuses, and NO_COLOR', () => {
  it('refuses TERM=dumb and an unset or empty TERM with one sentence, and accepts a real terminal', () => {
    for (const env of [{ TERM: 'dumb' }, {}, { TERM: '' }]) {
      const why = unsuitableTerminal(env);
      expect(why).toMatch(/^[^.]+\.$/);
    }
    expect(unsuitableTerminal({ TERM: 'dumb' })).toContain('TERM=dumb');
    expect(unsuitableTerminal({ TERM: 'xterm-256color' })).toBeNull();
    expect(unsuitableTerminal({ TERM: 'screen' })).toBeNull();
  });

  it('draws in colour unless NO_COLOR is present and non-empty (no-color.org)', () => {
    expect(uiColour({})).toBe(true);
    expect(uiColour({ NO_COLOR: '' })).toBe(true);
    expect(uiColour({ NO_COLOR: '1' })).toBe(false);
    expect(uiColour({ NO_COLOR: '0' })).toBe(false);
  });
});

describe('underline styles and colours', () => {
  it('are drawn by the terminal families known to draw them, tmux included', () => {
    for (const env of [
      { TERM: 'xterm-kitty' },
      { TERM: 'xterm-ghostty' },
      { TERM: 'foot' },
      { TERM: 'foot-extra' },
      { TERM: 'wezterm' },
      { TERM: 'alacritty' },
      { TERM: 'tmux-256color' },
      { TERM: 'screen-256color', TMUX: '/tmp/tmux-1000/default,1,0' },
      { TERM: 'xterm-256color', TERM_PROGRAM: 'WezTerm' },
      { TERM: 'xterm-256color', TERM_PROGRAM: 'iTerm.app' },
      { TERM: 'xterm-256color', TERM_PROGRAM: 'vscode' },
      { TERM: 'xterm-256color', VTE_VERSION: '7600' },
    ]) {
      expect(styledUnderlines(env), JSON.stringify(env)).toBe(true);
    }
  });

  it('fall back to a plain underline on a terminal not known to draw them', () => {
    for (const env of [
      { TERM: 'xterm-256color' },
      { TERM: 'xterm' },
      { TERM: 'screen-256color' },
      { TERM: 'linux' },
      { TERM: 'xterm-256color', TERM_PROGRAM: 'Apple_Terminal' },
      { TERM: 'xterm-256color', VTE_VERSION: '5000' },
      { TERM: 'xterm-256color', VTE_VERSION: 'x' },
      {},
    ]) {
      expect(styledUnderlines(env), JSON.stringify(env)).toBe(false);
    }
  });
});
