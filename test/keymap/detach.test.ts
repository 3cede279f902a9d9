import { describe, expect, it } from 'vitest';
import { INITIAL_DETACH_STATE, onCtrlC, type DetachState } from '../../src/keymap/detach.js';

const INTERVAL = 500;

function presses(times: number[]): ('forward' | 'detach')[] {
  let state: DetachState = INITIAL_DETACH_STATE;
  return times.map((t) => {
    const r = onCtrlC(state, t, INTERVAL);
    state = r.state;
    return r.action;
  });
}

describe('onCtrlC', () => {
  it('forwards the first press and detaches on a second within the interval', () => {
    expect(presses([1000, 1200])).toEqual(['forward', 'detach']);
    expect(presses([1000, 1000 + INTERVAL])).toEqual(['forward', 'detach']);
  });

  it('forwards a second press that comes too late, which then starts a new pair', () => {
    expect(presses([1000, 1000 + INTERVAL + 1, 1000 + INTERVAL + 100])).toEqual(['forward', 'forward', 'detach']);
  });

  it('starts over after a detach', () => {
    expect(presses([0, 100, 200])).toEqual(['forward', 'detach', 'forward']);
  });

  it('treats a clock that went backwards as a first press', () => {
    expect(presses([5000, 4900, 5000])).toEqual(['forward', 'forward', 'detach']);
  });
});
