import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { propertyRuns } from '../helpers/runs.js';
import { ATTENTION_RETRY_MS, BACKOFF_BASE_MS, BACKOFF_CAP_MS, BACKOFF_MIN_MS, BACKOFF_RESET_AFTER_MS, backoffDelay, INCOMPATIBLE_RETRY_MS } from '../../src/remote/backoff.js';
import { startLink, stepLink, type LinkEvent, type LinkState, type LinkStep } from '../../src/remote/linkState.js';
import type { FailureState, LinkFailure } from '../../src/remote/sshFailure.js';

const FAILURES: Record<FailureState, LinkFailure> = {
  unreachable: { code: 'refused', state: 'unreachable', sentence: 'nothing answers ssh at gpu.lan:22 (connection refused).', command: null },
  attention: { code: 'auth', state: 'attention', sentence: 'ssh could not log in.', command: 'ssh-add' },
  incompatible: { code: 'generation', state: 'incompatible', sentence: 'a1 on gpu speaks protocol generation 2, this a1 1: update the older one.', command: null },
};

/** Drives one link with a clock, as its shell would: each event for the current attempt. */
class Driver {
  step: LinkStep = startLink();
  now = 1_000;

  get state(): LinkState {
    return this.step.state;
  }

  send(event: LinkEvent | 'connected' | 'retry' | FailureState, at = this.now, random = 0.5): LinkStep {
    this.now = at;
    const attempt = this.state.attempt;
    const e: LinkEvent = typeof event !== 'string' ? event : event === 'connected' || event === 'retry' ? { t: event, attempt } : { t: 'failed', attempt, failure: FAILURES[event] };
    this.step = stepLink(this.state, e, at, random);
    return this.step;
  }
}

describe('backoff', () => {
  it('draws each delay up to 250 ms doubled per failure, never past 15 s nor under 100 ms', () => {
    expect([1, 2, 3, 4, 6, 7, 30, 1000].map((n) => backoffDelay(n, 0.999999))).toEqual([249, 499, 999, 1999, 7999, 14_999, 14_999, 14_999]);
    expect(backoffDelay(1, 0)).toBe(BACKOFF_MIN_MS);
    expect(backoffDelay(20, 0.5)).toBe(BACKOFF_CAP_MS / 2);
  });

  it('stays within its bounds for any failure count and draw', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000 }), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (n, r) => {
        const d = backoffDelay(n, r);
        expect(Number.isInteger(d)).toBe(true);
        expect(d).toBeGreaterThanOrEqual(BACKOFF_MIN_MS);
        expect(d).toBeLessThan(Math.max(BACKOFF_MIN_MS + 1, Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, n - 1))));
      }),
      { numRuns: propertyRuns(1000) },
    );
  });
});

describe('the link state machine', () => {
  it('starts connecting, dialling attempt 1, and is connected once the entry answers', () => {
    const d = new Driver();
    expect(d.step).toEqual({ state: { status: { state: 'connecting' }, attempt: 1, failures: 0, failingSince: null }, effects: [{ t: 'dial', attempt: 1 }] });
    expect(d.send('connected', 1_500)).toEqual({ state: { status: { state: 'connected', since: 1_500 }, attempt: 1, failures: 0, failingSince: null }, effects: [] });
  });

  it('backs off with jitter while unreachable, since the first failure, and dials on the timer', () => {
    const d = new Driver();
    expect(d.send('unreachable', 2_000, 0.999)).toEqual({
      state: { status: { state: 'unreachable', code: 'refused', reason: FAILURES.unreachable.sentence, since: 2_000 }, attempt: 1, failures: 1, failingSince: 2_000 },
      effects: [{ t: 'retryIn', attempt: 1, ms: 249 }],
    });
    expect(d.send('retry', 2_249).effects).toEqual([{ t: 'dial', attempt: 2 }]);
    expect(d.state.status).toEqual({ state: 'connecting' });
    expect(d.send('unreachable', 2_300, 0.999).effects).toEqual([{ t: 'retryIn', attempt: 2, ms: 499 }]);
    expect(d.state.status).toMatchObject({ state: 'unreachable', since: 2_000 });
  });

  it('waits 60 s for a person, 10 minutes for an update, with the command to run', () => {
    const d = new Driver();
    expect(d.send('attention').effects).toEqual([{ t: 'retryIn', attempt: 1, ms: ATTENTION_RETRY_MS }]);
    expect(d.state.status).toEqual({ state: 'attention', code: 'auth', reason: 'ssh could not log in.', command: 'ssh-add' });
    d.send('retry');
    expect(d.send('incompatible').effects).toEqual([{ t: 'retryIn', attempt: 2, ms: INCOMPATIBLE_RETRY_MS }]);
    expect(d.state.status).toMatchObject({ state: 'incompatible', code: 'generation' });
  });

  it('dials again at once when a healthy link drops, and backs off from the start if that fails', () => {
    const d = new Driver();
    for (let i = 0; i < 5; i++) {
      d.send('unreachable');
      d.send('retry');
    }
    d.send('connected', 10_000);
    expect(d.send('unreachable', 10_000 + BACKOFF_RESET_AFTER_MS).effects).toEqual([{ t: 'dial', attempt: 7 }]);
    expect(d.state).toMatchObject({ status: { state: 'connecting' }, failures: 1, failingSince: 40_000 });
    expect(d.send('unreachable', 40_050, 0.999).effects).toEqual([{ t: 'retryIn', attempt: 7, ms: 499 }]);
    expect(d.state.status).toMatchObject({ state: 'unreachable', since: 40_000 });
  });

  it('does not spin on a link that keeps dropping: the count resets only after 30 s up', () => {
    const d = new Driver();
    d.send('connected', 1_000);
    expect(d.send('unreachable', 2_000).effects).toEqual([{ t: 'dial', attempt: 2 }]);
    d.send('connected', 2_100);
    expect(d.send('unreachable', 3_000, 0.999).effects).toEqual([{ t: 'retryIn', attempt: 2, ms: 499 }]);
    expect(d.state.status).toMatchObject({ state: 'unreachable', since: 3_000 });
  });

  it('ignores events of an attempt it gave up and timers of a state it left', () => {
    const d = new Driver();
    d.send('unreachable');
    d.send('retry');
    const before = d.state;
    for (const stale of [{ t: 'connected', attempt: 1 }, { t: 'failed', attempt: 1, failure: FAILURES.attention }, { t: 'retry', attempt: 1 }, { t: 'retry', attempt: 2 }] as LinkEvent[]) {
      expect(d.send(stale)).toEqual({ state: before, effects: [] });
    }
    d.send('connected');
    expect(d.send('retry').effects).toEqual([]);
    expect(d.send('connected').effects).toEqual([]);
  });

  it('dials anew at once on a config change, from any state, with the backoff reset', () => {
    for (const prepare of [[], ['connected'], ['unreachable'], ['attention'], ['incompatible'], ['unreachable', 'retry', 'unreachable']] as ('connected' | 'retry' | FailureState)[][]) {
      const d = new Driver();
      for (const e of prepare) d.send(e);
      const attempt = d.state.attempt;
      expect(d.send({ t: 'configChanged' })).toEqual({ state: { ...d.state, status: { state: 'connecting' }, attempt: attempt + 1, failures: 0 }, effects: [{ t: 'dial', attempt: attempt + 1 }] });
    }
  });

  it('keeps every delay within bounds and `since` at the first failure after the last connected (any events)', () => {
    const action = fc.oneof(
      fc.constantFrom('connected' as const, 'retry' as const, 'configChanged' as const, 'stale' as const),
      fc.constantFrom<FailureState>('unreachable', 'unreachable', 'attention', 'incompatible'),
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(action, fc.integer({ min: 0, max: 40_000 }), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true })), { maxLength: 60 }), (actions) => {
        const d = new Driver();
        let firstFailure: number | null = null;
        for (const [a, elapsed, random] of actions) {
          const at = d.now + elapsed;
          const before = d.state;
          const event: LinkEvent | 'connected' | 'retry' | FailureState = a === 'configChanged' ? { t: 'configChanged' } : a === 'stale' ? { t: 'connected', attempt: before.attempt - 1 } : a;
          const { state, effects } = d.send(event, at, random);
          // The model: a failure counts when it is of the current attempt while connecting or connected.
          const live = before.status.state === 'connecting' || before.status.state === 'connected';
          if (a === 'connected' && before.status.state === 'connecting') firstFailure = null;
          if (typeof event === 'string' && event !== 'connected' && event !== 'retry' && live) firstFailure ??= at;
          if (state.status.state === 'unreachable') expect(state.status.since).toBe(firstFailure);
          expect(state.failingSince).toBe(firstFailure);
          expect(effects.length).toBeLessThanOrEqual(1);
          for (const effect of effects) {
            if (effect.t === 'dial') {
              expect(effect.attempt).toBe(before.attempt + 1);
              expect(state.status.state).toBe('connecting');
              continue;
            }
            expect(effect.attempt).toBe(state.attempt);
            if (state.status.state === 'attention') expect(effect.ms).toBe(ATTENTION_RETRY_MS);
            else if (state.status.state === 'incompatible') expect(effect.ms).toBe(INCOMPATIBLE_RETRY_MS);
            else {
              expect(state.status.state).toBe('unreachable');
              expect(effect.ms).toBeGreaterThanOrEqual(BACKOFF_MIN_MS);
              expect(effect.ms).toBeLessThanOrEqual(BACKOFF_CAP_MS);
            }
          }
        }
      }),
      { numRuns: propertyRuns(1000) },
    );
  });
});
