import { describe, expect, it } from 'vitest';
import { CONFIG_KEYS, defaultConfig, type ConfigKey } from '../../src/config.js';
import { CONFIG_APPLIES, appliesOf, changedKeys, describeReload, nonDefaultKeys, whenItApplies } from '../../src/config/applies.js';

const env = { SHELL: '/bin/zsh' };

describe('CONFIG_APPLIES', () => {
  it('says for every key how a change to it applies (a new key: add it to src/config/applies.ts)', () => {
    const undeclared = Object.keys(CONFIG_KEYS).filter((k) => CONFIG_APPLIES[k as ConfigKey] === undefined);
    expect(undeclared).toEqual([]);
  });

  it('has the client keys at attach and what holders start with at each tab start', () => {
    expect(appliesOf('theme')).toBe('attach');
    expect(appliesOf('detachIntervalMs')).toBe('attach');
    expect(appliesOf('tabsMax')).toBe('reload');
    expect(appliesOf('scrollbackLines')).toBe('tabStart');
    expect(whenItApplies('tabsMax')).toBe('applies live at `a1 tabs host reload`');
  });
});

describe('changedKeys and nonDefaultKeys', () => {
  it('compares values, nested ones by content', () => {
    const base = defaultConfig(env);
    expect(changedKeys(base, defaultConfig(env))).toEqual([]);
    const next = { ...defaultConfig(env), tabsMax: 3, theme: { ...base.theme, viewed: 'red' } };
    expect(changedKeys(base, next)).toEqual(['tabsMax', 'theme']);
    expect(nonDefaultKeys(next, env)).toEqual(['tabsMax', 'theme']);
  });
});

describe('describeReload', () => {
  it('says in one line per kind what applied now and when the rest applies', () => {
    expect(
      describeReload([
        { key: 'tabsMax', applies: 'reload' },
        { key: 'theme', applies: 'attach' },
        { key: 'closeGraceMs', applies: 'reload' },
        { key: 'scrollbackLines', applies: 'tabStart' },
        { key: 'later', applies: 'hostStop' },
      ]),
    ).toEqual([
      'Applied now: tabsMax, closeGraceMs.',
      'scrollbackLines applies to each tab from its next start (`a1 tabs host stop` restarts them all).',
      'theme applies at the next attach (`a1`).',
      'later applies at the next `a1 tabs host stop`.',
    ]);
    expect(describeReload([])).toEqual([]);
    expect(describeReload([{ key: 'a', applies: 'attach' }, { key: 'b', applies: 'attach' }])).toEqual(['a, b apply at the next attach (`a1`).']);
  });
});
