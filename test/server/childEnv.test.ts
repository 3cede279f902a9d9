import { describe, expect, it } from 'vitest';
import { isOuterIdentity, sanitizeChildEnv } from '../../src/server/childEnv.js';

describe('sanitizeChildEnv', () => {
  it("drops the outer multiplexer's and terminal's identity and another tab's a1 markers", () => {
    const env = {
      PATH: '/usr/bin',
      HOME: '/home/u',
      LANG: 'C.UTF-8',
      TMUX: '/tmp/tmux-1000/default,123,0',
      TMUX_PANE: '%3',
      STY: '123.pts-0.host',
      ZELLIJ: '0',
      ZELLIJ_SESSION_NAME: 'x',
      TERM_PROGRAM: 'iTerm.app',
      TERM_PROGRAM_VERSION: '3.5',
      WEZTERM_PANE: '1',
      KITTY_WINDOW_ID: '2',
      A1_TAB_ID: 'tab1',
      A1_BRIDGE: '/tmp/b.sock',
      A1_BRIDGE_TOKEN: 'x.y',
      A1_HOLDER_KEY: 'k',
      A1_HOME: '/tmp/a1home',
      A1_TEST_PTY_HANG_WHILE: '/tmp/hang',
      UNSET: undefined,
    };
    expect(sanitizeChildEnv(env)).toEqual({ PATH: '/usr/bin', HOME: '/home/u', LANG: 'C.UTF-8', A1_HOME: '/tmp/a1home', A1_TEST_PTY_HANG_WHILE: '/tmp/hang' });
  });

  it('keeps look-alikes that are not identities', () => {
    for (const name of ['TERM', 'COLORTERM', 'TMUXINATOR_CONFIG_X', 'TERMINFO', 'A1_PROFILE']) expect(isOuterIdentity(name)).toBe(false);
  });
});
