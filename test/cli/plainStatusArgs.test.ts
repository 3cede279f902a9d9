// The forms of `a1 status` that bin/a1 runs without the CLI (src/cli/hookEntry.ts): exactly the
// ones the CLI's parser reads the same way; everything else is left to the CLI.
import { describe, expect, it } from 'vitest';
import { PLAIN_OPTIONS, plainStatusArgs } from '../../src/cli/hookEntry.js';
import { statusCommand } from '../../src/cli/commands/status.js';

describe('plainStatusArgs', () => {
  it('reads a state and each of its options, spaced or with =', () => {
    expect(plainStatusArgs(['idle'])).toEqual({ state: 'idle' });
    expect(plainStatusArgs(['working', '--session-id', 's-1', '--agent', 'generic', '--name', 'two words'])).toEqual({
      state: 'working',
      sessionId: 's-1',
      agent: 'generic',
      name: 'two words',
    });
    expect(plainStatusArgs(['idle', '--session-id=abc=d', '--agent=codex'])).toEqual({ state: 'idle', sessionId: 'abc=d', agent: 'codex' });
  });

  it.each([
    [[]],
    [['--help']],
    [['idle', '--help']],
    [['nonsense']],
    [['--session-id', 'x', 'idle']],
    [['idle', '--session-id']],
    [['idle', '--session-id', '--agent', 'x']],
    [['idle', '--session-id=']],
    [['idle', '--session-id', 'a', '--session-id', 'b']],
    [['idle', '--sessionId', 'a']],
    [['idle', '--profile', 'work']],
    [['idle', 'extra']],
    [['idle', '--', 'x']],
    [['idle', '--hook', 'claude:Stop']],
    [['idle', '--constructor', 'x']],
  ])('leaves %j to the CLI', (args) => {
    expect(plainStatusArgs(args)).toBeNull();
  });

  it("reads only options the CLI's status command declares, under the same names", () => {
    for (const [flag, key] of Object.entries(PLAIN_OPTIONS)) {
      expect(statusCommand.options).toHaveProperty([flag.slice(2)]);
      expect(flag.slice(2).replace(/-(.)/g, (_, c: string) => c.toUpperCase())).toBe(key);
    }
  });
});
