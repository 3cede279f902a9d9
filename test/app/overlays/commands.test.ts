import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { propertyRuns } from '../../helpers/runs.js';
import { COMMANDS, commandUsage, completeCommand, matchCommand, parseCommand } from '../../../src/app/overlays/commands.js';

function error(line: string): string {
  const r = parseCommand(line);
  if (r.ok) throw new Error(`expected an error for ${JSON.stringify(line)}`);
  return r.error;
}

describe('command table', () => {
  it('declares every command of the prompt once', () => {
    expect(COMMANDS.map((c) => c.name)).toEqual([
      'tabs', 'new-tab', 'next-tab', 'previous-tab', 'view-tab', 'move-tab', 'name', 'edit-name', 'close', 'sleep', 'restart',
      'control', 'copy-mode', 'command-prompt', 'detach', 'quit', 'quit-all', 'hotkeys', 'help',
    ]);
    expect(COMMANDS.map(commandUsage)).toEqual([
      '/tabs', '/new-tab [name]', '/next-tab', '/previous-tab', '/view-tab <number>', '/move-tab <left|right>', '/name <name>', '/edit-name',
      '/close', '/sleep', '/restart', '/control', '/copy-mode', '/command-prompt', '/detach', '/quit', '/quit-all', '/hotkeys', '/help',
    ]);
  });
});

describe('parseCommand', () => {
  it('parses every command without an argument', () => {
    for (const name of ['tabs', 'close', 'sleep', 'restart', 'detach', 'quit', 'quit-all', 'hotkeys', 'help'] as const) {
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

  it('takes a tab number for /view-tab and a side for /move-tab', () => {
    expect(parseCommand('/view-tab 3')).toEqual({ ok: true, command: { name: 'view-tab', arg: 3 } });
    expect(parseCommand('/view-tab 10')).toEqual({ ok: true, command: { name: 'view-tab', arg: 10 } });
    for (const bad of ['0', '-1', 'two', '1.5', '1000']) {
      expect(error(`/view-tab ${bad}`)).toBe("/view-tab takes a tab's number, 1 for the first: /view-tab <number>.");
    }
    expect(error('/view-tab')).toBe('/view-tab needs a number: /view-tab <number>.');
    expect(parseCommand('/move-tab right')).toEqual({ ok: true, command: { name: 'move-tab', arg: 'right' } });
    expect(parseCommand('/move-tab LEFT')).toEqual({ ok: true, command: { name: 'move-tab', arg: 'left' } });
    expect(error('/move-tab up')).toBe('/move-tab takes left or right: /move-tab <left|right>.');
  });

  it('refuses an argument to a command that takes none', () => {
    expect(error('/close now')).toBe('/close takes no argument.');
  });

  it('runs a prefix that names one command, as tmux does', () => {
    expect(parseCommand('/tab')).toEqual({ ok: true, command: { name: 'tabs' } });
    expect(parseCommand('/hot')).toEqual({ ok: true, command: { name: 'hotkeys' } });
    expect(parseCommand('/quit-al')).toEqual({ ok: true, command: { name: 'quit-all' } });
    expect(parseCommand('/new api')).toEqual({ ok: true, command: { name: 'new-tab', arg: 'api' } });
    // An exact name wins over the longer names it begins.
    expect(parseCommand('/quit')).toEqual({ ok: true, command: { name: 'quit' } });
  });

  it('says a prefix of several commands is ambiguous and lists them', () => {
    expect(error('/n')).toBe('ambiguous: /n could be /new-tab, /next-tab, /name; Tab completes.');
    expect(error('/q')).toBe('ambiguous: /q could be /quit, /quit-all; Tab completes.');
    expect(error('/h')).toBe('ambiguous: /h could be /hotkeys, /help; Tab completes.');
    expect(matchCommand('s')).toEqual({ kind: 'one', spec: COMMANDS.find((c) => c.name === 'sleep') });
  });

  it('suggests the command an unknown one most likely meant', () => {
    expect(error('/nwe-tab')).toBe('Unknown command /nwe-tab; did you mean /new-tab?');
    expect(error('/qit')).toBe('Unknown command /qit; did you mean /quit?');
    expect(error('/tbas')).toBe('Unknown command /tbas; did you mean /tabs?');
  });

  it('lists the commands when nothing is close', () => {
    expect(error('/frobnicate')).toBe(
      'Unknown command /frobnicate; try /tabs /new-tab /next-tab /previous-tab /view-tab /move-tab /name /edit-name /close /sleep /restart /control /copy-mode /command-prompt /detach /quit /quit-all /hotkeys /help.',
    );
  });

  it('takes the leading slash or not, but only one', () => {
    expect(parseCommand('tabs')).toEqual({ ok: true, command: { name: 'tabs' } });
    expect(parseCommand('/tabs')).toEqual({ ok: true, command: { name: 'tabs' } });
    expect(parseCommand('name api')).toEqual({ ok: true, command: { name: 'name', arg: 'api' } });
    expect(error('//tabs')).toMatch(/^Unknown command \/\/tabs/);
    expect(error('  ')).toBe('Type a command, such as /tabs; /help lists them.');
    expect(error('/')).toBe('Type a command, such as /tabs; /help lists them.');
  });

  it('/? is /help', () => {
    expect(parseCommand('/?')).toEqual({ ok: true, command: { name: 'help' } });
    expect(parseCommand('?')).toEqual({ ok: true, command: { name: 'help' } });
  });

  it('answers any line with a command or one line of error', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 30 }), fc.string({ maxLength: 20 }).map((s) => `/${s}`)), (lineText) => {
        const r = parseCommand(lineText);
        if (r.ok) expect(COMMANDS.some((c) => c.name === r.command.name)).toBe(true);
        else expect(r.error).toMatch(/^[^\n]+[.?]$/);
      }),
      { numRuns: propertyRuns(500) },
    );
  });
});

describe('completeCommand', () => {
  it('completes a prefix of one command, with a space when it takes an argument', () => {
    expect(completeCommand('/ta')).toEqual({ text: '/tabs', hint: null });
    expect(completeCommand('ta')).toEqual({ text: 'tabs', hint: null });
    expect(completeCommand('/na')).toEqual({ text: '/name ', hint: null });
    expect(completeCommand('/quit-')).toEqual({ text: '/quit-all', hint: null });
  });

  it('extends several to what they share and lists them', () => {
    expect(completeCommand('/n')).toEqual({ text: '/n', hint: '/new-tab  /next-tab  /name' });
    expect(completeCommand('/q')).toEqual({ text: '/quit', hint: '/quit  /quit-all' });
    expect(completeCommand('/he')).toEqual({ text: '/help', hint: null });
    expect(completeCommand('/h')).toEqual({ text: '/h', hint: '/hotkeys  /help' });
    expect(completeCommand('')).toEqual({ text: '', hint: COMMANDS.map((c) => `/${c.name}`).join('  ') });
  });

  it('says when nothing starts so, and leaves an argument alone', () => {
    expect(completeCommand('/zz')).toEqual({ text: '/zz', hint: 'no command starts with /zz; /help lists them' });
    expect(completeCommand('/name ap')).toEqual({ text: '/name ap', hint: null });
  });
});
