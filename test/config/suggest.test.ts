import { describe, expect, it } from 'vitest';
import { CONFIG_KEYS } from '../../src/config.js';
import { didYouMean, editDistance, nearestName } from '../../src/config/suggest.js';

const KEYS = Object.keys(CONFIG_KEYS);

describe('nearestName', () => {
  it('takes a known name the word is part of, the shortest such', () => {
    expect(nearestName('scrollback', KEYS)).toBe('scrollbackLines');
    expect(nearestName('idleSuspend', KEYS)).toBe('idleSuspendMinutes');
    expect(nearestName('clipboard', KEYS)).toBe('allowClipboardWrite');
    expect(nearestName('tabs', ['tabsMaxConcurrentStarts', 'tabsMax'])).toBe('tabsMax');
  });

  it('takes a name a few edits away: a letter missing, extra, wrong or swapped', () => {
    expect(nearestName('tabMax', KEYS)).toBe('tabsMax');
    expect(nearestName('tabsMaxx', KEYS)).toBe('tabsMax');
    expect(nearestName('thme', KEYS)).toBe('theme');
    expect(nearestName('tabsMxa', KEYS)).toBe('tabsMax');
    expect(nearestName('hovred', ['viewed', 'hovered', 'other'])).toBe('hovered');
  });

  it('ignores case', () => {
    expect(nearestName('TabsMax', KEYS)).toBe('tabsMax');
    expect(nearestName('SCROLLBACK', KEYS)).toBe('scrollbackLines');
  });

  it('suggests nothing for a word far from every name, or too short to be part of one', () => {
    expect(nearestName('colourful', KEYS)).toBeNull();
    expect(nearestName('toString', KEYS)).toBeNull();
    expect(nearestName('ab', KEYS)).toBeNull();
    expect(nearestName('', KEYS)).toBeNull();
    expect(nearestName('x', [])).toBeNull();
  });
});

describe('editDistance', () => {
  it('counts insertions, deletions, substitutions and neighbour swaps as one each', () => {
    expect(editDistance('', '')).toBe(0);
    expect(editDistance('abc', '')).toBe(3);
    expect(editDistance('', 'ab')).toBe(2);
    expect(editDistance('tabmax', 'tabsmax')).toBe(1);
    expect(editDistance('theme', 'thmee')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
  });
});

describe('didYouMean', () => {
  it('is a parenthesis with the name, or nothing', () => {
    expect(didYouMean('scrollback', KEYS)).toBe(' (did you mean "scrollbackLines"?)');
    expect(didYouMean('colourful', KEYS)).toBe('');
  });
});
