// The crash-point list and its parser (src/crashPoints.ts); the points themselves are exercised
// end to end in test/e2e/crashPoints.test.ts.
import { describe, expect, it } from 'vitest';
import { CRASH_POINTS, parseCrashTarget } from '../src/crashPoints.js';

describe('crash points', () => {
  it('lists every step once, each with a before and an after point', () => {
    expect(new Set(CRASH_POINTS).size).toBe(CRASH_POINTS.length);
    const steps = new Set(CRASH_POINTS.map((p) => p.replace(/\.(before|after)$/, '')));
    for (const step of steps) expect(CRASH_POINTS).toEqual(expect.arrayContaining([`${step}.before`, `${step}.after`]));
    expect(CRASH_POINTS).toEqual(expect.arrayContaining(['lease.acquire.before', 'registry.startServer.after', 'registry.putResumeRecord.before', 'backup.generation.after', 'holder.spawn.before', 'server.ready.after']));
  });

  it('parses a point, optionally with the hit to crash at', () => {
    expect(parseCrashTarget('holder.bind.after')).toEqual({ name: 'holder.bind.after', hit: 1 });
    expect(parseCrashTarget('registry.updateTab.before#3')).toEqual({ name: 'registry.updateTab.before', hit: 3 });
  });

  it('ignores an unset, unknown or malformed value rather than crashing somewhere unintended', () => {
    for (const raw of [undefined, '', 'holder.bind', 'no.such.point.before', 'holder.bind.after#0', 'holder.bind.after#x', ' holder.bind.after']) {
      expect(parseCrashTarget(raw)).toBeNull();
    }
  });
});
