import { describe, it, expect } from 'vitest';
import { stepTab, jumpTab, moveIndex, neighbourAfterClose } from '../../src/app/navigation.js';

const order = ['a', 'b', 'c'];

describe('tab navigation', () => {
  it('steps next and previous with wrap-around', () => {
    expect(stepTab(order, 'a', 1)).toBe('b');
    expect(stepTab(order, 'c', 1)).toBe('a');
    expect(stepTab(order, 'a', -1)).toBe('c');
    expect(stepTab(order, null, 1)).toBe('a');
    expect(stepTab([], null, 1)).toBeNull();
    expect(stepTab(['a'], 'a', 1)).toBe('a');
  });

  it('jumps by position and does nothing beyond the count', () => {
    expect(jumpTab(order, 1)).toBe('a');
    expect(jumpTab(order, 3)).toBe('c');
    expect(jumpTab(order, 4)).toBeNull();
    expect(jumpTab(order, 10)).toBeNull();
    expect(jumpTab(order, 0)).toBeNull();
  });

  it('moves within the ends only', () => {
    expect(moveIndex(order, 'a', 1)).toBe(1);
    expect(moveIndex(order, 'a', -1)).toBeNull();
    expect(moveIndex(order, 'c', 1)).toBeNull();
    expect(moveIndex(order, 'b', -1)).toBe(0);
    expect(moveIndex(order, 'x', 1)).toBeNull();
  });

  it('views the closed tab\'s right neighbour, else its left one', () => {
    expect(neighbourAfterClose(['a', 'b', 'c'], ['a', 'c'], 'b')).toBe('c');
    expect(neighbourAfterClose(['a', 'b', 'c'], ['a', 'b'], 'c')).toBe('b');
    expect(neighbourAfterClose(['a', 'b', 'c'], ['b', 'c'], 'a')).toBe('b');
    expect(neighbourAfterClose(['a'], [], 'a')).toBeNull();
  });

  it('skips neighbours that left at the same time, nearest first', () => {
    expect(neighbourAfterClose(['a', 'b', 'c', 'd'], ['a', 'd'], 'b')).toBe('d');
    expect(neighbourAfterClose(['a', 'b', 'c', 'd'], ['a', 'b'], 'c')).toBe('b');
    expect(neighbourAfterClose(['a', 'b', 'c', 'd'], ['a'], 'c')).toBe('a');
  });

  it('falls back to the first tab when the closed tab was never in the order seen', () => {
    expect(neighbourAfterClose([], ['x', 'y'], 'gone')).toBe('x');
  });
});
