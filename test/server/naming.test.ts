import { describe, it, expect } from 'vitest';
import { defaultTabName } from '../../src/server/naming.js';

describe('defaultTabName', () => {
  it('is agent, then agent N with the smallest free N', () => {
    expect(defaultTabName([])).toBe('agent');
    expect(defaultTabName(['agent'])).toBe('agent 2');
    expect(defaultTabName(['agent', 'agent 2', 'agent 4'])).toBe('agent 3');
    expect(defaultTabName(['agent 2'])).toBe('agent');
    expect(defaultTabName(['agent', 'build', 'agent 2'])).toBe('agent 3');
  });
});
