// What a tab's child finds in its environment beyond the tab's own (issue 28 items 1 and 9).
import { describe, expect, it } from 'vitest';
import { childEnvironment, pathWithShims } from '../../src/holder/childEnvironment.js';

const base = { tabId: 'tab1', bridgeSocketPath: '/run/a1/b.sock', bridgeToken: 'tok', shimDir: '/opt/a1/bin/shims' };

describe('childEnvironment', () => {
  it("keeps the client's COLORTERM, and adds none where the client's terminal said none", () => {
    expect(childEnvironment({ ...base, env: { PATH: '/usr/bin' } }).COLORTERM).toBeUndefined();
    expect(childEnvironment({ ...base, env: { PATH: '/usr/bin', COLORTERM: 'truecolor' } }).COLORTERM).toBe('truecolor');
    expect(childEnvironment({ ...base, env: { PATH: '/usr/bin', COLORTERM: '24bit' } }).COLORTERM).toBe('24bit');
  });

  it('names the terminal a1 emulates and the tab’s bridge, over whatever the client had', () => {
    const env = childEnvironment({ ...base, env: { TERM: 'tmux-256color', A1_TAB_ID: 'other', HOME: '/home/u' } });
    expect(env).toMatchObject({ TERM: 'xterm-256color', A1_TAB_ID: 'tab1', A1_BRIDGE: '/run/a1/b.sock', A1_BRIDGE_TOKEN: 'tok', HOME: '/home/u' });
  });

  it('puts the shims first on PATH, and leaves PATH alone without a shim directory', () => {
    expect(childEnvironment({ ...base, env: { PATH: '/usr/local/bin:/usr/bin' } }).PATH).toBe('/opt/a1/bin/shims:/usr/local/bin:/usr/bin');
    expect(childEnvironment({ ...base, shimDir: undefined, env: { PATH: '/usr/bin' } }).PATH).toBe('/usr/bin');
  });
});

describe('pathWithShims', () => {
  it('holds the shim directory once, first, however the inherited PATH had it (a tab opened from a tab)', () => {
    expect(pathWithShims('/usr/bin:/opt/a1/bin/shims:/bin', '/opt/a1/bin/shims')).toBe('/opt/a1/bin/shims:/usr/bin:/bin');
    expect(pathWithShims('/opt/a1/bin/shims/:/usr/bin', '/opt/a1/bin/shims')).toBe('/opt/a1/bin/shims:/usr/bin');
    expect(pathWithShims('/opt/a1/bin/shims', '/opt/a1/bin/shims')).toBe('/opt/a1/bin/shims');
  });

  it('keeps empty entries (the current directory, to the shell) and gives an unset PATH the usual default', () => {
    expect(pathWithShims('/usr/bin::/bin', '/s')).toBe('/s:/usr/bin::/bin');
    expect(pathWithShims(undefined, '/s')).toBe('/s:/usr/local/bin:/usr/bin:/bin');
  });
});
