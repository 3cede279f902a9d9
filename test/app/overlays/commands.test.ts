import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { COMMANDS, commandUsage, parseCommand } from '../../../src/app/overlays/commands.js';

function error(line: string): string {
  const r = parseCommand(line);
  if (r.ok) throw new Error(`expected an error for ${JSON.stringify(line)}`);
  return r.error;
}

describe('command table', () => {
  it('declares every command of the prompt once', () => {
    expect(COMMANDS.map((c) => c.name)).toEqual(['tabs', 'new-tab', 'name', 'close', 'sleep', 'restart', 'detach', 'quit', 'quit-all', 'hotkeys']);
    expect(COMMANDS.map(commandUsage)).toEqual([
      '/tabs', '/new-tab [name]', '/name <name>', '/close', '/sleep', '/restart', '/detach', '/quit', '/quit-all', '/hotkeys',
    ]);
  });
});

describe('parseCommand', () => {
  it('parses every command without an argument', () => {
    for (const name of ['tabs', 'close', 'sleep', 'restart', 'detach', 'quit', 'quit-all', 'hotkeys'] as const) {
      expect(parseCommand(`/${name}`)).toEqual({ ok: true, command: { name } });
    }
  });

  it('accepts surrounding space and any case in the command word', () => {
    expect(parseCommand('   /Tabs  ')).toEqual({ ok: true, command: { name: 'tabs' } });
  });

  it('takes the rest of the line as a validated name', () => {
    expect(parseCommand('/name  my   agent ')).toEqual({ ok: true, command: { name: 'name', arg: 'my   agent' } });
    expect(parseCommand('/new-tab')).toEqual({ ok: true, command: { name: 'new-tab', arg: null } });
    expect(parseCommand('/new-tab api\x07 ')).toEqual({ ok: true, command: { name: 'new-tab', arg: 'api' } });
    expect(error(`/name ${'x'.repeat(65)}`)).toBe('A name has at most 64 characters.');
  });

  it('says what a required argument is missing', () => {
    expect(error('/name')).toBe('/name needs a name: /name <name>.');
    expect(error('/name   ')).toBe('/name needs a name: /name <name>.');
  });

  it('refuses an argument to a command that takes none', () => {
    expect(error('/close now')).toBe('/close takes no argument.');
  });

  it('suggests the command an unknown one most likely meant', () => {
    expect(error('/tab')).toBe('Unknown command /tab; did you mean /tabs?');
    expect(error('/hot')).toBe('Unknown command /hot; did you mean /hotkeys?');
    expect(error('/nwe-tab')).toBe('Unknown command /nwe-tab; did you mean /new-tab?');
    expect(error('/quit-al')).toBe('Unknown command /quit-al; did you mean /quit-all?');
    expect(error('/qit')).toBe('Unknown command /qit; did you mean /quit?');
  });

  it('lists the commands when nothing is close', () => {
    expect(error('/frobnicate')).toBe(
      'Unknown command /frobnicate; try /tabs /new-tab /name /close /sleep /restart /detach /quit /quit-all /hotkeys.',
    );
    expect(error('/')).toMatch(/^Unknown command \/; /);
  });

  it('requires the leading slash', () => {
    expect(error('tabs')).toBe('Commands start with "/": try /tabs.');
    expect(error('hello')).toBe('Commands start with "/": /tabs /new-tab /name /close /sleep /restart /detach /quit /quit-all /hotkeys.');
    expect(error('  ')).toBe('Type a command, such as /tabs.');
  });

  it('answers any line with a command or one line of error', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 30 }), fc.string({ maxLength: 20 }).map((s) => `/${s}`)), (lineText) => {
        const r = parseCommand(lineText);
        if (r.ok) expect(COMMANDS.some((c) => c.name === r.command.name)).toBe(true);
        else expect(r.error).toMatch(/^[^\n]+[.?]$/);
      }),
      { numRuns: 500 },
    );
  });
});
