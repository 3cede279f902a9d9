// The command table (src/cli/commands): well formed, and the every-form list laid out from it.
import { describe, expect, it } from 'vitest';
import { COMMANDS, GROUPS } from '../../src/cli/commands/index.js';
import type { CommandEntry } from '../../src/cli/commands/entry.js';
import { everyForm } from '../../src/cli/main.js';
import { formatForms } from '../../src/cli/forms.js';

const commands = COMMANDS.filter((e): e is CommandEntry<never> => e.kind === 'command');
const key = (path: readonly string[]) => path.join(' ');

describe('the command table', () => {
  it('declares each command once, and a group for every word that has commands below it', () => {
    expect(new Set(commands.map((c) => key(c.path))).size).toBe(commands.length);
    const groups = new Set(GROUPS.map((g) => key(g.path)));
    expect(groups.size).toBe(GROUPS.length);
    for (const c of [...commands, ...GROUPS]) {
      for (let n = 1; n < c.path.length; n++) expect(groups, `${key(c.path)} has no group ${key(c.path.slice(0, n))}`).toContain(key(c.path.slice(0, n)));
    }
  });

  it('shows each command in its form with its words and every option people use', () => {
    for (const c of commands) {
      expect(c.usage.startsWith(['a1', ...c.path].join(' ')), c.usage).toBe(true);
      for (const [name, spec] of Object.entries(c.options ?? {})) if (!spec.internal) expect(c.usage, name).toContain(`--${name}`);
    }
  });

  it('gives every command, option, positional and group a description', () => {
    for (const c of COMMANDS) expect(c.summary, c.usage).toMatch(/^[a-z].*[^.]$/);
    for (const g of GROUPS) expect(g.summary, key(g.path)).toMatch(/^[a-z].*[^.]$/);
    for (const c of commands) {
      for (const spec of [...Object.values(c.options ?? {}), ...Object.values(c.positionals ?? {})]) expect(spec.describe, c.usage).not.toBe('');
    }
  });
});

describe('the every-form list', () => {
  it.each([40, 60, 80, 100])('lists every form within %i columns', (width) => {
    const text = everyForm(width);
    for (const line of text.split('\n')) expect(line.length, line).toBeLessThanOrEqual(width);
    // Whole at 80 columns; a narrower terminal may wrap a long form, never a word.
    for (const c of COMMANDS) expect(width >= 80 ? text : text.replace(/\s+/g, ' ')).toContain(c.usage);
  });

  it('puts a summary beside a short form and under a long one; a long form breaks between its arguments', () => {
    const entry = (usage: string, summary: string) => ({ kind: 'direct', usage, summary, matches: () => false, run: async () => 0 }) as const;
    const entries = [entry('a1 x', 'one two three four'), entry('a1 a-very-long-form', 'five six'), entry('a1 b [--flag VALUE] [-- C D]', 'seven')];
    expect(formatForms(entries, { width: 24, indent: 2, column: 10 })).toBe(
      ['  a1 x    one two three', '          four', '  a1 a-very-long-form', '          five six', '  a1 b [--flag VALUE]', '    [-- C D]', '          seven'].join('\n'),
    );
  });
});
