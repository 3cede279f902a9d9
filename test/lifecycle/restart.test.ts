import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CRASH_WINDOW_MS,
  CRASHES_TO_FAIL,
  decideAfterExit,
  INTERRUPT_KEY_WINDOW_MS,
  interruptKeyIn,
  isCrash,
  type AfterExit,
  type ExitFacts,
  type InterruptKey,
} from '../../src/lifecycle/restart.js';

/** The policy's verdict for an exit that is a crash (decideAfterExit takes isCrash's answer). */
const CRASH = true;
const NOW = 100_000;
/** An agent that was idle, with no interrupt key typed. */
const AGENT: ExitFacts = { agent: true, working: false, interruptKeyAt: {}, now: NOW };
const PLAIN: ExitFacts = { ...AGENT, agent: false };
const typed = (key: InterruptKey, agoMs: number): ExitFacts => ({ ...AGENT, interruptKeyAt: { [key]: NOW - agoMs } });

describe('isCrash (issue 28: the restart budget is for agents)', () => {
  it('never calls a plain tab (a shell or a command) crashed, however its program ended', () => {
    for (const exit of [{ code: 0, signal: null }, { code: 1, signal: null }, { code: 130, signal: null }, { code: null, signal: 2 }, { code: null, signal: 9 }, { code: null, signal: null }]) {
      expect(isCrash(exit, PLAIN), JSON.stringify(exit)).toBe(false);
      expect(isCrash(exit, { ...PLAIN, working: true }), JSON.stringify(exit)).toBe(false);
    }
  });

  it("treats an agent's exit 0 (node-pty's signal 0 is none) as clean and any other exit or signal as a crash", () => {
    expect(isCrash({ code: 0, signal: null }, AGENT)).toBe(false);
    expect(isCrash({ code: 0, signal: 0 }, AGENT)).toBe(false);
    expect(isCrash({ code: 1, signal: null }, AGENT)).toBe(true);
    expect(isCrash({ code: null, signal: 9 }, AGENT)).toBe(true);
    expect(isCrash({ code: 0, signal: 15 }, AGENT)).toBe(true);
    expect(isCrash({ code: null, signal: null }, AGENT)).toBe(true);
    // SIGINT with no key typed came from elsewhere.
    expect(isCrash({ code: null, signal: 2 }, AGENT)).toBe(true);
  });

  it("is no crash when an idle agent dies of the signal its person's key sent, shortly after", () => {
    expect(isCrash({ code: null, signal: 2 }, typed('ctrl+c', 100))).toBe(false);
    expect(isCrash({ code: 130, signal: null }, typed('ctrl+c', 100))).toBe(false);
    expect(isCrash({ code: null, signal: 3 }, typed('ctrl+\\', 100))).toBe(false);
    expect(isCrash({ code: 131, signal: 0 }, typed('ctrl+\\', INTERRUPT_KEY_WINDOW_MS))).toBe(false);
  });

  it('is a crash when the key was another, long ago, or the agent was working', () => {
    expect(isCrash({ code: null, signal: 2 }, typed('ctrl+\\', 100))).toBe(true);
    expect(isCrash({ code: null, signal: 3 }, typed('ctrl+c', 100))).toBe(true);
    expect(isCrash({ code: null, signal: 2 }, typed('ctrl+c', INTERRUPT_KEY_WINDOW_MS + 1))).toBe(true);
    expect(isCrash({ code: null, signal: 2 }, { ...typed('ctrl+c', 100), working: true })).toBe(true);
    // A key does not excuse a death by another signal or status.
    expect(isCrash({ code: null, signal: 9 }, typed('ctrl+c', 100))).toBe(true);
    expect(isCrash({ code: 1, signal: null }, typed('ctrl+c', 100))).toBe(true);
  });
});

describe('interruptKeyIn', () => {
  it.each([
    ['\x03', 'ctrl+c'],
    ['ab\x03', 'ctrl+c'],
    ['\x1c', 'ctrl+\\'],
    ['\x1b[99;5u', 'ctrl+c'],
    ['\x1b[99;5:1u', 'ctrl+c'],
    ['\x1b[99;5:2u', 'ctrl+c'],
    // Caps Lock on (64) is still Ctrl+C.
    ['\x1b[99;69u', 'ctrl+c'],
    ['\x1b[99:67;5u', 'ctrl+c'],
    ['\x1b[92;5u', 'ctrl+\\'],
    ['\x1b[99;5:3u', null],
    ['\x1b[99;7u', null],
    ['\x1b[99u', null],
    ['\x1b[100;5u', null],
    ['c', null],
    ['\r', null],
  ] as const)('%j is %s', (bytes, key) => {
    expect(interruptKeyIn(bytes)).toBe(key);
  });
});

describe('decideAfterExit', () => {
  it('never restarts an exit that is no crash', () => {
    expect(decideAfterExit(false, [1, 2], 3)).toEqual({ action: 'exited' });
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
    expect(decideAfterExit(CRASH, [0, 1], now)).toEqual({ action: 'restart', delayMs: 0, crashTimes: [now] });
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
