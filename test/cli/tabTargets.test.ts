// The tab-target rule (src/cli/tabTargets.ts): id, then position (all digits), then exact name;
// an ambiguous or unknown target names no tab, and one failure resolves nothing.
import { describe, it, expect } from 'vitest';
import { resolveTarget, resolveTargets } from '../../src/cli/tabTargets.js';

const TABS = [
  { id: 'tabx_1', name: 'agent' },
  { id: 'tabx_2', name: 'build watcher' },
  { id: 'tabx_3', name: '7' },
  { id: 'tabx_4', name: 'twin' },
  { id: 'tabx_5', name: 'twin' },
];

describe('resolveTarget', () => {
  const cases: [target: string, expected: string][] = [
    ['tabx_2', 'tabx_2'],
    ['build watcher', 'tabx_2'],
    ['1', 'tabx_1'],
    ['3', 'tabx_3'],
    ['5', 'tabx_5'],
    ['agent', 'tabx_1'],
  ];
  it.each(cases)('%s names %s', (target, expected) => {
    expect(resolveTarget(TABS, target)).toEqual(TABS.find((t) => t.id === expected));
  });

  it('a number is always a position, even where a tab has it as its name', () => {
    expect(resolveTarget(TABS, '7')).toBe('There is no tab 7: positions go from 1 to 5.');
    expect(resolveTarget(TABS, '0')).toBe('There is no tab 0: positions go from 1 to 5.');
    expect(resolveTarget([], '1')).toBe('There is no tab 1: no tabs are open.');
  });

  it('names match exactly: case and prefixes name nothing', () => {
    expect(resolveTarget(TABS, 'Agent')).toBe('No tab has the id or name "Agent".');
    expect(resolveTarget(TABS, 'build')).toBe('No tab has the id or name "build".');
  });

  it('an ambiguous name lists the candidates with their ids and positions', () => {
    expect(resolveTarget(TABS, 'twin')).toBe('The name "twin" is ambiguous: tabx_4 (position 4), tabx_5 (position 5); name one by its id or position.');
  });
});

describe('resolveTargets', () => {
  it('resolves several, in the order named, each tab once', () => {
    const r = resolveTargets(TABS, ['3', 'build watcher', 'tabx_3', '1']);
    expect(r).toEqual({ ok: true, tabs: [TABS[2], TABS[1], TABS[0]] });
  });

  it('resolves nothing when any target fails, and says so', () => {
    expect(resolveTargets(TABS, ['1', 'nope', '2'])).toEqual({ ok: false, message: 'No tab has the id or name "nope". Nothing was done.' });
    expect(resolveTargets(TABS, ['nope'])).toEqual({ ok: false, message: 'No tab has the id or name "nope".' });
    expect(resolveTargets(TABS, [])).toMatchObject({ ok: false });
  });
});
