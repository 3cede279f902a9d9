// Counters are event counts by kind; test faults parse per role.
import { describe, it, expect } from 'vitest';
import { addCounters, countersOf, formatCounters } from '../../src/diag/counters.js';
import { faultFor } from '../../src/diag/testFaults.js';

describe('counters', () => {
  it('count events by kind and add up', () => {
    const c = countersOf({ 'holder-died': 2, 'child-respawn': 6, 'child-restart': 1, 'loop-stall': 3, 'holder-timeout': 1, 'input-rejected': 4, 'adopt-unverifiable': 1, 'client-resync': 5, other: 9 });
    expect(c).toEqual({ holderDeaths: 2, programRestarts: 6, forcedRestarts: 1, stalls: 4, resyncs: 5, rejectedInputs: 4, degraded: 1 });
    expect(addCounters(c, countersOf({}))).toEqual(c);
    expect(formatCounters(c)).toBe('holder deaths 2 · program restarts 6 · forced restarts 1 · stalls 4 · resyncs 5 · rejected inputs 4 · degraded 1');
  });
});

describe('test faults', () => {
  it('are chosen per role and family', () => {
    const spec = 'server=block, holder=crash';
    expect(faultFor(spec, 'server')).toEqual({ kind: 'block', ms: null });
    expect(faultFor(spec, 'holder-tab1')).toEqual({ kind: 'crash' });
    expect(faultFor('holder=block:250', 'holder-x')).toEqual({ kind: 'block', ms: 250 });
    expect(faultFor('server=explode', 'server')).toBeNull();
    expect(faultFor('holders=crash', 'holder-x')).toBeNull();
    expect(faultFor(undefined, 'server')).toBeNull();
  });
});
