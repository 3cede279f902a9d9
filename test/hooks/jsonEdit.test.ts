// The splice core of hook install: every removal must undo its insertion exactly, whatever the
// file's layout.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { propertyRuns } from '../helpers/runs.js';
import { parse as parseJsonc } from 'jsonc-parser';
import { HookFileError, installJsonHooks, uninstallJsonHooks, type HookEntry } from '../../src/hooks/jsonEdit.js';

const isOurs = (command: string): boolean => command.includes(' status --hook test:');
const entry = (event: string, matcher?: string): HookEntry => ({
  event,
  matcher,
  command: `/bin/a1 status --hook test:${event}`,
  timeoutSeconds: 5,
});
const ENTRIES = [entry('Stop'), entry('Notification', 'permission_prompt'), entry('PreToolUse')];

function roundTrip(text: string): { installed: string; restored: string } {
  const { text: installed, created } = installJsonHooks(text, ENTRIES, isOurs);
  const again = installJsonHooks(installed, ENTRIES, isOurs);
  expect(again.text).toBe(installed);
  expect(again.created).toEqual([]);
  return { installed, restored: uninstallJsonHooks(installed, isOurs, new Set(created)) };
}

describe('installJsonHooks / uninstallJsonHooks', () => {
  it.each([
    ['an empty object', '{}'],
    ['an empty object with inner space', '{ }\n'],
    ['one line', '{"a": 1, "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x"}]}]}}'],
    ['tabs', '{\n\t"a": [\n\t\t1\n\t],\n\t"hooks": {}\n}\n'],
    ['a comment alone in hooks', '{\n  "hooks": { // none yet\n  }\n}'],
    ['a trailing comma', '{\n  "hooks": {\n    "Stop": [],\n  },\n}\n'],
    ['an empty event the user made', '{"hooks": {"Stop": [ ]}}'],
    ['a block comment before the end', '{\n  "a": true /* last */\n}\n'],
  ])('round-trips %s', (_name, text) => {
    const { installed, restored } = roundTrip(text);
    const parsed = parseJsonc(installed, [], { allowTrailingComma: true });
    expect(parsed.hooks.Notification.at(-1)).toEqual({
      matcher: 'permission_prompt',
      hooks: [{ type: 'command', command: '/bin/a1 status --hook test:Notification', timeout: 5 }],
    });
    expect(restored).toBe(text);
  });

  it('writes a new file as plain JSON with a final newline', () => {
    const { text, created } = installJsonHooks(null, ENTRIES, isOurs);
    expect(JSON.parse(text)).toEqual({
      hooks: {
        Stop: [{ hooks: [{ type: 'command', command: '/bin/a1 status --hook test:Stop', timeout: 5 }] }],
        Notification: [
          { matcher: 'permission_prompt', hooks: [{ type: 'command', command: '/bin/a1 status --hook test:Notification', timeout: 5 }] },
        ],
        PreToolUse: [{ hooks: [{ type: 'command', command: '/bin/a1 status --hook test:PreToolUse', timeout: 5 }] }],
      },
    });
    expect(text.endsWith('}\n')).toBe(true);
    expect(created).toEqual(['hooks', 'hooks/Stop', 'hooks/Notification', 'hooks/PreToolUse']);
    expect(uninstallJsonHooks(text, isOurs, new Set(created)).replace(/\s/g, '')).toBe('{}');
  });

  it('refuses shapes it cannot edit safely', () => {
    expect(() => installJsonHooks('[]', ENTRIES, isOurs)).toThrow(HookFileError);
    expect(() => installJsonHooks('{"hooks": {"Stop": {}}}', ENTRIES, isOurs)).toThrow(/"hooks.Stop" value is not an array/);
    expect(() => installJsonHooks('{"a": }', ENTRIES, isOurs)).toThrow(/not valid JSON \(ValueExpected at line 1, column 7\)/);
  });

  it('round-trips any settings object in any indentation (property)', () => {
    const userGroup = fc.record({
      matcher: fc.option(fc.constantFrom('Bash', '*', 'Edit|Write'), { nil: undefined }),
      hooks: fc.array(fc.record({ type: fc.constant('command'), command: fc.string() }), { minLength: 1, maxLength: 2 }),
    });
    const hooks = fc.dictionary(fc.constantFrom('Stop', 'PreToolUse', 'SessionEnd', 'Notification'), fc.array(userGroup, { maxLength: 2 }));
    const settings = fc.record(
      { model: fc.string(), hooks, env: fc.dictionary(fc.string(), fc.string(), { maxKeys: 2 }), n: fc.integer() },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(settings, fc.constantFrom(0, 2, 4, '\t'), fc.boolean(), (value, indent, crlf) => {
        let text = JSON.stringify(value, null, indent);
        if (crlf) text = text.replace(/\n/g, '\r\n');
        const { installed, restored } = roundTrip(text);
        const parsed = parseJsonc(installed) as { hooks: Record<string, unknown[]> };
        for (const e of ENTRIES) expect(JSON.stringify(parsed.hooks[e.event])).toContain(`test:${e.event}`);
        expect(restored).toBe(text);
      }),
      { numRuns: propertyRuns(300) },
    );
  });
});
