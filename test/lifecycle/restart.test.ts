import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CRASH_WINDOW_MS,
  CRASHES_TO_FAIL,
  decideAfterExit,
  isCrash,
  type AfterExit,
  type ChildExit,
} from '../../src/lifecycle/restart.js';

const CRASH: ChildExit = { code: 1, signal: null };

describe('isCrash', () => {
  it('treats exit 0 without a signal as clean and anything else as a crash', () => {
    expect(isCrash({ code: 0, signal: null })).toBe(false);
    expect(isCrash({ code: 0, signal: 0 })).toBe(false);
    expect(isCrash({ code: 1, signal: null })).toBe(true);
    expect(isCrash({ code: null, signal: 9 })).toBe(true);
    expect(isCrash({ code: 0, signal: 15 })).toBe(true);
    expect(isCrash({ code: null, signal: null })).toBe(true);
  });
});

describe('decideAfterExit', () => {
  it('never restarts a clean exit', () => {
    expect(decideAfterExit({ code: 0, signal: null }, [1, 2], 3)).toEqual({ action: 'exited' });
  });

  it('restarts with 0 s then 1 s backoff and fails on the third crash in the window', () => {
    const first = decideAfterExit(CRASH, [], 1_000);
    expect(first).toEqual({ action: 'restart', delayMs: 0, crashTimes: [1_000] });
    const second = decideAfterExit(CRASH, [1_000], 2_000);
    expect(second).toEqual({ action: 'restart', delayMs: 1_000, crashTimes: [1_000, 2_000] });
    expect(decideAfterExit(CRASH, [1_000, 2_000], 3_000)).toEqual({ action: 'fail', crashTimes: [1_000, 2_000, 3_000] });
  });

  it('forgets crashes that left the window', () => {
    const now = 5_000 + CRASH_WINDOW_MS;
    // The one exactly a window old is out; the one 1 ms younger still counts.
    expect(decideAfterExit(CRASH, [5_000, 5_001], now)).toEqual({
      action: 'restart',
      delayMs: 1_000,
      crashTimes: [5_001, now],
    });
    expect(decideAfterExit({ code: null, signal: 11 }, [0, 1], now)).toEqual({ action: 'restart', delayMs: 0, crashTimes: [now] });
  });

  /** Crash gaps (ms after the child was restarted); runs until the policy fails the tab. */
  function simulate(gaps: number[]): Array<{ at: number; decision: AfterExit; before: number[] }> {
    const out: Array<{ at: number; decision: AfterExit; before: number[] }> = [];
    let times: number[] = [];
    let t = 0;
    for (const gap of gaps) {
      t += gap;
      const decision = decideAfterExit(CRASH, times, t);
      out.push({ at: t, decision, before: times });
      if (decision.action !== 'restart') break;
      times = decision.crashTimes;
      t += decision.delayMs;
    }
    return out;
  }

  const gapsArb = fc.array(fc.oneof(fc.integer({ min: 0, max: 5_000 }), fc.integer({ min: 0, max: 2 * CRASH_WINDOW_MS })), {
    maxLength: 40,
  });

  it('never restarts more than CRASHES_TO_FAIL - 1 times inside any window', () => {
    fc.assert(
      fc.property(gapsArb, (gaps) => {
        const restarts = simulate(gaps)
          .filter((s) => s.decision.action === 'restart')
          .map((s) => s.at);
        for (const start of restarts) {
          const inWindow = restarts.filter((t) => t >= start && t < start + CRASH_WINDOW_MS);
          expect(inWindow.length).toBeLessThanOrEqual(CRASHES_TO_FAIL - 1);
        }
      }),
    );
  });

  it('never lets backoff shrink within a burst, and keeps only crashes inside the window', () => {
    fc.assert(
      fc.property(gapsArb, (gaps) => {
        const steps = simulate(gaps);
        for (const { at, decision } of steps) {
          if (decision.action === 'exited') throw new Error('a crash was treated as a clean exit');
          expect(decision.crashTimes[decision.crashTimes.length - 1]).toBe(at);
          for (const t of decision.crashTimes) expect(at - t).toBeLessThan(CRASH_WINDOW_MS);
        }
        for (let i = 1; i < steps.length; i++) {
          const prev = steps[i - 1].decision;
          const cur = steps[i].decision;
          if (prev.action !== 'restart' || cur.action !== 'restart') continue;
          // Same burst: every crash the previous decision counted is still in the window.
          if (steps[i].at - Math.min(...prev.crashTimes) < CRASH_WINDOW_MS) {
            expect(cur.delayMs).toBeGreaterThanOrEqual(prev.delayMs);
          }
        }
      }),
    );
  });
});
