import { describe, expect, it } from 'vitest';
import { contradiction, type TopologyView } from '../../src/server/invariants.js';

const view = (rev: number, ...tabs: [string, string, number][]): TopologyView => ({ rev, tabs: tabs.map(([id, name, ord]) => ({ id, name, ord })) });

describe('memory against the registry', () => {
  const memory = view(7, ['a', 'one', 0], ['b', 'two', 1]);

  it('agrees when the tabs, their places, their names and the revision are the same, in any row order', () => {
    expect(contradiction(memory, view(7, ['b', 'two', 1], ['a', 'one', 0]))).toBeNull();
    expect(contradiction(view(0), view(0))).toBeNull();
  });

  it('names each kind of disagreement', () => {
    expect(contradiction(memory, view(7, ['a', 'one', 0]))).toBe('tab-extra');
    expect(contradiction(memory, view(7, ['a', 'one', 0], ['b', 'two', 1], ['c', 'three', 2]))).toBe('tab-missing');
    expect(contradiction(memory, view(7, ['a', 'one', 1], ['b', 'two', 0]))).toBe('order');
    expect(contradiction(memory, view(7, ['a', 'one', 0], ['b', 'renamed', 1]))).toBe('name');
    expect(contradiction(memory, view(6, ['a', 'one', 0], ['b', 'two', 1]))).toBe('revision-behind');
    expect(contradiction(memory, view(8, ['a', 'one', 0], ['b', 'two', 1]))).toBe('revision-ahead');
  });
});
