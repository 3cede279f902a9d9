// The controller rules (SPEC §15 "Controller") that the core and the server shell both decide by.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { controlHandover, controlOnRequest, nextControllerRev } from '../../src/server/core/index.js';

describe('controller rules', () => {
  it('viewing takes control only from nobody or from a controller that looks elsewhere; a claim from anyone', () => {
    expect(controlOnRequest('view', null, false, 'a')).toBe(true);
    expect(controlOnRequest('view', 'b', true, 'a')).toBe(false);
    expect(controlOnRequest('view', 'b', false, 'a')).toBe(true);
    expect(controlOnRequest('claim', 'b', true, 'a')).toBe(true);
    // The controller asking again changes nothing.
    expect(controlOnRequest('claim', 'a', true, 'a')).toBe(false);
    expect(controlOnRequest('view', 'a', false, 'a')).toBe(false);
  });

  it('hands control to a viewer, or to nobody, only when the controller no longer views the tab', () => {
    expect(controlHandover('a', ['b', 'a'])).toBeUndefined();
    expect(controlHandover('a', ['c', 'b'])).toBe('b');
    expect(controlHandover('a', [])).toBeNull();
    expect(controlHandover(null, [])).toBeUndefined();
    expect(controlHandover(null, ['c', 'b'])).toBe('b');
  });

  it('always leaves control with a viewer or nobody, and keeps a viewing controller (property)', () => {
    const id = fc.constantFrom<string>('a', 'b', 'c', 'd');
    fc.assert(
      fc.property(fc.option(id, { nil: null }), fc.uniqueArray(id), (current, viewers) => {
        const next = controlHandover(current, viewers);
        const after = next === undefined ? current : next;
        expect(after === null || viewers.includes(after)).toBe(true);
        if (current !== null && viewers.includes(current)) expect(next).toBeUndefined();
        // The same viewers in any order choose the same client.
        expect(controlHandover(current, [...viewers].reverse())).toEqual(next);
      }),
    );
  });

  it('numbers a transfer above the acknowledged, the in-flight and the committed revisions', () => {
    expect(nextControllerRev(3, null, 2)).toBe(4);
    expect(nextControllerRev(3, 4, 2)).toBe(5);
    expect(nextControllerRev(0, null, 7)).toBe(8);
    fc.assert(
      fc.property(fc.nat(), fc.option(fc.nat(), { nil: null }), fc.nat(), (acked, inFlight, committed) => {
        const rev = nextControllerRev(acked, inFlight, committed);
        expect(rev).toBeGreaterThan(Math.max(acked, inFlight ?? 0, committed));
      }),
    );
  });
});
