// The orphan sweep's pure part (SPEC §10): which holders are orphans, when one is retired (after
// its grace, once), and what host status reports.
import { describe, expect, it } from 'vitest';
import { orphanStep, type HolderProcess, type OrphanSighting } from '../../src/server/orphans.js';
import { ownedHolders } from '../../src/server/core/index.js';

const GRACE = 3_000;
const h = (pid: number, tabId: string, inc: string): HolderProcess => ({ pid, startTime: `s${pid}`, tabId, inc });

describe('orphanStep', () => {
  it('a holder whose tab and incarnation a row owns is no orphan', () => {
    const r = orphanStep(new Map(), [h(10, 'tab-a', 'i1')], [{ tabId: 'tab-a', inc: 'i1' }], 1_000, GRACE);
    expect(r.report).toEqual({ count: 0, oldestAgeMs: null });
    expect(r.retire).toEqual([]);
  });

  it('an old incarnation of a live tab, and a holder of a closed tab, are orphans', () => {
    const holders = [h(10, 'tab-a', 'i1'), h(11, 'tab-a', 'i0'), h(12, 'tab-gone', 'i9')];
    const r = orphanStep(new Map(), holders, [{ tabId: 'tab-a', inc: 'i1' }], 1_000, GRACE);
    expect(r.report).toEqual({ count: 2, oldestAgeMs: 0 });
    expect([...r.seen.keys()].sort()).toEqual(['11:s11', '12:s12']);
  });

  it('is retired once, only after staying unowned for the grace', () => {
    const orphan = h(12, 'tab-gone', 'i9');
    let seen: ReadonlyMap<string, OrphanSighting> = new Map();
    const at = (now: number) => {
      const r = orphanStep(seen, [orphan], [], now, GRACE);
      seen = r.seen;
      return r;
    };
    expect(at(1_000).retire).toEqual([]);
    const before = at(1_000 + GRACE - 1);
    expect(before.retire).toEqual([]);
    expect(before.report).toEqual({ count: 1, oldestAgeMs: GRACE - 1 });
    expect(at(1_000 + GRACE).retire).toEqual([orphan]);
    // Still there while it ends: counted, not retired a second time.
    const later = at(1_000 + GRACE + 2_000);
    expect(later.retire).toEqual([]);
    expect(later.report.count).toBe(1);
  });

  it('forgets an orphan that went away or came to be owned, so its grace starts over', () => {
    const orphan = h(12, 'tab-b', 'i2');
    const first = orphanStep(new Map(), [orphan], [], 1_000, GRACE);
    const owned = orphanStep(first.seen, [orphan], [{ tabId: 'tab-b', inc: 'i2' }], 2_000, GRACE);
    expect(owned.seen.size).toBe(0);
    const again = orphanStep(owned.seen, [orphan], [], 1_000 + GRACE, GRACE);
    expect(again.retire).toEqual([]);
    expect(again.report.oldestAgeMs).toBe(0);
  });

  it('a reused pid with another start time is another process', () => {
    const first = orphanStep(new Map(), [h(12, 'tab-gone', 'i9')], [], 1_000, GRACE);
    const recycled = { ...h(12, 'tab-gone', 'i9'), startTime: 'later' };
    expect(orphanStep(first.seen, [recycled], [], 1_000 + GRACE, GRACE).retire).toEqual([]);
  });
});

describe('ownedHolders (the core rule the shell shares)', () => {
  it('owns the recorded incarnation, pending or bound, and a spawn in flight', () => {
    const tabs = [
      { id: 'a', holder: { inc: 'i1', pid: 5, startTime: 's' }, starting: null },
      { id: 'b', holder: { inc: 'i2', pid: null, startTime: null }, starting: 'i2' },
      { id: 'c', holder: null, starting: 'i3' },
      { id: 'd', holder: null, starting: null },
    ];
    expect(ownedHolders(tabs)).toEqual([
      { tabId: 'a', inc: 'i1' },
      { tabId: 'b', inc: 'i2' },
      { tabId: 'c', inc: 'i3' },
    ]);
  });
});
