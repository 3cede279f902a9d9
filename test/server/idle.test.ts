import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { idleSuspendStep, isRunningLifecycle, isSuspendable, serverIdleStep, type TabIdleFacts } from '../../src/server/idle.js';

const MIN = 60_000;
const HOUR = 60 * MIN;

function quiet(tabId: string, over: Partial<TabIdleFacts> = {}): TabIdleFacts {
  return { tabId, running: true, viewed: false, glyph: 'none', resumable: true, ...over };
}

/** Runs one idle check per element of `checks` (a fake clock), carrying the state along. */
function run(checks: { now: number; tabs: TabIdleFacts[] }[], afterMs = HOUR): string[][] {
  let since = new Map<string, number>();
  return checks.map(({ now, tabs }) => {
    const step = idleSuspendStep(since, tabs, now, afterMs);
    since = step.quietSince;
    return step.suspend;
  });
}

describe('isSuspendable', () => {
  it('needs a running, unviewed, idle or done tab that can resume', () => {
    expect(isSuspendable(quiet('a'))).toBe(true);
    expect(isSuspendable(quiet('a', { glyph: 'done' }))).toBe(true);
    expect(isSuspendable(quiet('a', { viewed: true }))).toBe(false);
    expect(isSuspendable(quiet('a', { running: false }))).toBe(false);
    expect(isSuspendable(quiet('a', { resumable: false }))).toBe(false);
    expect(isSuspendable(quiet('a', { glyph: null }))).toBe(false);
    for (const glyph of ['working', 'needs-input', 'error', 'starting', 'asleep', 'unresponsive', 'stalled']) {
      expect(isSuspendable(quiet('a', { glyph })), glyph).toBe(false);
    }
  });
});

describe('idleSuspendStep', () => {
  it('sleeps a quiet tab once it has been quiet for the whole interval, not before', () => {
    const out = run([
      { now: 0, tabs: [quiet('a')] },
      { now: HOUR - 1, tabs: [quiet('a')] },
      { now: HOUR, tabs: [quiet('a')] },
    ]);
    expect(out).toEqual([[], [], ['a']]);
  });

  it('viewing, working or asking starts the clock again', () => {
    for (const interrupt of [{ viewed: true }, { glyph: 'working' }, { glyph: 'needs-input' }, { running: false }]) {
      const out = run([
        { now: 0, tabs: [quiet('a')] },
        { now: 30 * MIN, tabs: [quiet('a', interrupt)] },
        { now: 31 * MIN, tabs: [quiet('a')] },
        { now: 90 * MIN, tabs: [quiet('a')] },
        { now: 91 * MIN, tabs: [quiet('a')] },
      ]);
      expect(out, JSON.stringify(interrupt)).toEqual([[], [], [], [], ['a']]);
    }
  });

  it('never sleeps a tab with no resume record, a viewed tab, or anything when turned off', () => {
    const tabs = [quiet('shell', { resumable: false }), quiet('seen', { viewed: true }), quiet('agent')];
    expect(run([{ now: 0, tabs }, { now: 2 * HOUR, tabs }])).toEqual([[], ['agent']]);
    expect(run([{ now: 0, tabs }, { now: 100 * HOUR, tabs }], 0)).toEqual([[], []]);
  });

  it('forgets tabs that are gone or asleep', () => {
    const step = idleSuspendStep(new Map([['gone', 0], ['a', 0]]), [quiet('a', { running: false })], 10, HOUR);
    expect([...step.quietSince.keys()]).toEqual([]);
  });

  it('sleeps a tab exactly when its last quiet stretch reaches the interval (fake clock, any history)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ dt: fc.integer({ min: 1, max: 20 * MIN }), quiet: fc.boolean() }), { maxLength: 60 }),
        fc.integer({ min: 1, max: 2 * HOUR }),
        (checks, afterMs) => {
          let since = new Map<string, number>();
          let now = 0;
          let stretch: number | null = null;
          for (const c of checks) {
            now += c.dt;
            const step = idleSuspendStep(since, [quiet('a', { viewed: !c.quiet })], now, afterMs);
            since = step.quietSince;
            stretch = c.quiet ? (stretch ?? now) : null;
            const due = stretch !== null && now - stretch >= afterMs;
            expect(step.suspend).toEqual(due ? ['a'] : []);
            // A tab put to sleep stops being a running candidate.
            if (due) stretch = null;
          }
        },
      ),
    );
  });
});

describe('server idle exit', () => {
  it('running and starting tabs keep the server; asleep, exited and failed ones do not', () => {
    expect(isRunningLifecycle('running')).toBe(true);
    expect(isRunningLifecycle('starting')).toBe(true);
    for (const l of ['asleep', 'exited', 'failed']) expect(isRunningLifecycle(l), l).toBe(false);
  });

  it('exits after the interval with no client and no running tab, measured from the last busy check', () => {
    const after = 10 * MIN;
    let s = serverIdleStep(0, { clients: 1, runningTabs: 0 }, 5 * MIN, after);
    expect(s).toEqual({ idleSince: 5 * MIN, exit: false });
    s = serverIdleStep(s.idleSince, { clients: 0, runningTabs: 0 }, 14 * MIN, after);
    expect(s.exit).toBe(false);
    s = serverIdleStep(s.idleSince, { clients: 0, runningTabs: 0 }, 15 * MIN, after);
    expect(s.exit).toBe(true);
    // A running tab with no client keeps it, and restarts the interval.
    s = serverIdleStep(0, { clients: 0, runningTabs: 1 }, 20 * MIN, after);
    expect(s).toEqual({ idleSince: 20 * MIN, exit: false });
    expect(serverIdleStep(s.idleSince, { clients: 0, runningTabs: 0 }, 29 * MIN, after).exit).toBe(false);
  });
});
