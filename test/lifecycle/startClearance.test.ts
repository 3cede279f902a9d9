import { describe, expect, it } from 'vitest';
import type { ProcessInfo } from '../../src/lifecycle/retirement.js';
import { isTabBridge, startClearance, type StartClaims } from '../../src/lifecycle/startClearance.js';

const SOCKETS = '/run/a1-0/default';
const bridgeOf = (tabId: string, inc: string, dir = SOCKETS) => `${dir}/b-${tabId}-${inc}.sock`;

/** A process whose start time is derived from its pid unless given. */
function proc(pid: number, over: Partial<ProcessInfo> = {}): ProcessInfo {
  return { pid, ppid: 1, pgid: pid, sid: pid, startTime: `s${pid}`, tabMarker: null, bridgeMarker: null, environReadable: true, ...over };
}
/** A child of holder incarnation `inc` of tab A: both markers. */
const childOfA = (pid: number, over: Partial<ProcessInfo> = {}, inc = 'inc1') => proc(pid, { tabMarker: 'A', bridgeMarker: bridgeOf('A', inc), ...over });

function claims(over: Partial<StartClaims> = {}): StartClaims {
  return { tabId: 'A', socketDir: SOCKETS, children: [], ...over };
}
const pids = (c: { end: { pid: number }[] }) => c.end.map((p) => p.pid);

describe('isTabBridge', () => {
  it('is a bridge socket of this profile for this tab', () => {
    expect(isTabBridge(bridgeOf('A', 'inc1'), SOCKETS, 'A')).toBe(true);
    expect(isTabBridge(bridgeOf('B', 'inc1'), SOCKETS, 'A')).toBe(false);
    expect(isTabBridge(bridgeOf('A', 'inc1', '/run/a1-0/other'), SOCKETS, 'A')).toBe(false);
    expect(isTabBridge(`${SOCKETS}/h-A-inc1.sock`, SOCKETS, 'A')).toBe(false);
    expect(isTabBridge(null, SOCKETS, 'A')).toBe(false);
  });
});

describe('startClearance', () => {
  it('ends every process an earlier holder of the tab started, found by both markers, with its descendants', () => {
    const agent = childOfA(100);
    const job = childOfA(110, { ppid: 100, sid: 100, pgid: 110 });
    const scrubbed = proc(120, { ppid: 110, sid: 100, pgid: 110 }); // cleared its environment
    const older = childOfA(200, {}, 'inc0');
    const c = startClearance([agent, job, scrubbed, older, proc(300)], claims(), [1]);
    expect(pids(c)).toEqual([100, 110, 120, 200]);
    expect(c.groups).toEqual([100, 110, 200]);
    expect(c.unverifiable).toEqual([]);
  });

  it('never takes a process marked for another tab, another profile, or with the tab id alone', () => {
    const otherTab = proc(100, { tabMarker: 'B', bridgeMarker: bridgeOf('B', 'inc1') });
    const otherProfile = proc(110, { tabMarker: 'A', bridgeMarker: bridgeOf('A', 'inc1', '/run/a1-0/work') });
    const idOnly = proc(120, { tabMarker: 'A' });
    const c = startClearance([otherTab, otherProfile, idOnly], claims(), [1]);
    expect(c).toEqual({ end: [], groups: [], unverifiable: [] });
  });

  it('nothing earlier runs: the start is clear', () => {
    expect(startClearance([proc(1), proc(50)], claims({ children: [{ pid: 100, startTime: 's100' }] }), [1])).toEqual({ end: [], groups: [], unverifiable: [] });
  });

  it('a recorded child verified by its start time is ended with its session, marked or not', () => {
    const child = proc(100); // cleared its environment: only its start time says it is ours
    const member = proc(110, { ppid: 100, sid: 100, pgid: 110 });
    const c = startClearance([child, member], claims({ children: [{ pid: 100, startTime: 's100' }] }), [1]);
    expect(pids(c)).toEqual([100, 110]);
  });

  it('a recorded pid now another process (another start time) is not touched', () => {
    const recycled = proc(100, { startTime: 'later', environReadable: false });
    const c = startClearance([recycled, proc(110, { ppid: 100, sid: 100 })], claims({ children: [{ pid: 100, startTime: 's100' }] }), [1]);
    expect(c).toEqual({ end: [], groups: [], unverifiable: [] });
  });

  it('with no recorded start time: ended when marked, left alone when readable without a marker, reported when unreadable', () => {
    const unknown = [{ pid: 100, startTime: null }];
    expect(pids(startClearance([proc(100, { tabMarker: 'A' })], claims({ children: unknown }), [1]))).toEqual([100]);
    expect(startClearance([proc(100)], claims({ children: unknown }), [1])).toEqual({ end: [], groups: [], unverifiable: [] });
    const hidden = startClearance([proc(100, { environReadable: false })], claims({ children: unknown }), [1]);
    expect(hidden).toEqual({ end: [], groups: [], unverifiable: [100] });
  });

  it('never plans a protected pid (the server itself, init)', () => {
    const server = childOfA(50);
    const c = startClearance([server, childOfA(100)], claims({ children: [{ pid: 50, startTime: 's50' }] }), [50, 1]);
    expect(pids(c)).toEqual([100]);
    expect(c.unverifiable).toEqual([]);
  });
});
