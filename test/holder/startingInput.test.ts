import { describe, expect, it } from 'vitest';
import { StartingInput } from '../../src/holder/startingInput.js';

describe('StartingInput', () => {
  it('keeps batches in order up to the bound, refuses a batch that would pass it whole, and empties on take', () => {
    const queue = new StartingInput<string, string>(10);
    expect(queue.offer('a', ['x'], 4)).toBe(true);
    expect(queue.offer('b', ['y', 'z'], 7)).toBe(false);
    expect(queue.bytes).toBe(4);
    expect(queue.offer('b', ['w'], 6)).toBe(true);
    expect(queue.offer('a', ['v'], 1)).toBe(false);
    expect(queue.take()).toEqual([
      { owner: 'a', events: ['x'], bytes: 4 },
      { owner: 'b', events: ['w'], bytes: 6 },
    ]);
    expect(queue.bytes).toBe(0);
    expect(queue.take()).toEqual([]);
    expect(queue.offer('a', ['u'], 10)).toBe(true);
  });
});
