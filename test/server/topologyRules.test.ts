import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createAction, isStaleRevision, reorderPlan } from '../../src/server/core/index.js';

describe('topology rules shared by the core and the server shell', () => {
  it('refuses only a mutation that names a revision other than the current one', () => {
    expect(isStaleRevision(undefined, 7)).toBe(false);
    expect(isStaleRevision(7, 7)).toBe(false);
    expect(isStaleRevision(6, 7)).toBe(true);
    expect(isStaleRevision(8, 7)).toBe(true);
  });

  it('focuses a held session before it counts tabs, and opens nothing at the limit', () => {
    expect(createAction(true, 5, 5)).toBe('focus');
    expect(createAction(false, 5, 5)).toBe('full');
    expect(createAction(false, 6, 5)).toBe('full');
    expect(createAction(false, 4, 5)).toBe('insert');
  });

  it('names why a reorder has no new order', () => {
    expect(reorderPlan(['a', 'b'], 'c', 0)).toEqual({ t: 'noTab' });
    expect(reorderPlan(['a', 'b'], 'a', 2)).toEqual({ t: 'badIndex' });
    expect(reorderPlan(['a', 'b'], 'a', -1)).toEqual({ t: 'badIndex' });
    expect(reorderPlan(['a', 'b'], 'a', 0.5)).toEqual({ t: 'badIndex' });
    expect(reorderPlan(['a', 'b'], 'b', 1)).toEqual({ t: 'unchanged' });
    expect(reorderPlan(['a', 'b', 'c'], 'c', 0)).toEqual({ t: 'reorder', order: ['c', 'a', 'b'] });
    expect(reorderPlan(['a', 'b', 'c'], 'a', 2)).toEqual({ t: 'reorder', order: ['b', 'c', 'a'] });
  });

  it('moves the tab to the index asked and keeps every other tab in its order', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string({ minLength: 1, maxLength: 3 }), { minLength: 2, maxLength: 8 }), fc.nat(), fc.nat(), (order, pickFrom, pickTo) => {
        const tabId = order[pickFrom % order.length];
        const toIndex = pickTo % order.length;
        const plan = reorderPlan(order, tabId, toIndex);
        if (plan.t === 'unchanged') return order.indexOf(tabId) === toIndex;
        if (plan.t !== 'reorder') return false;
        const rest = (ids: string[]) => ids.filter((id) => id !== tabId);
        return plan.order.indexOf(tabId) === toIndex && plan.order.length === order.length && rest(plan.order).join('\0') === rest(order).join('\0');
      }),
    );
  });
});
