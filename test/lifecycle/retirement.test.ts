import { describe, expect, it } from 'vitest';
import type { ResumeRecord } from '../../src/lifecycle/records.js';
import {
  planRetirement,
  type ProcessInfo,
  type RetirementSnapshot,
  type TabClaims,
} from '../../src/lifecycle/retirement.js';

/** A process whose start time is derived from its pid unless given. */
function proc(pid: number, over: Partial<ProcessInfo> = {}): ProcessInfo {
  return { pid, ppid: 1, pgid: pid, sid: pid, startTime: `s${pid}`, tabMarker: null, bridgeMarker: null, environReadable: true, ...over };
}
const ref = (p: ProcessInfo) => ({ pid: p.pid, startTime: p.startTime });
const pids = (plan: { processes: { pid: number }[] }) => plan.processes.map((p) => p.pid);

function tab(over: Partial<TabClaims> = {}): TabClaims {
  return { tabId: 'A', agent: false, bound: [], sessions: [], ...over };
}

function record(id: string, tabId: string): ResumeRecord {
  return { id, tabId, agentKind: 'claude', sessionId: `sess-${id}`, cwd: '/', name: id, origin: 'sleep', capturedAt: 1 };
}

function snapshot(over: Partial<RetirementSnapshot> = {}): RetirementSnapshot {
  return { tab: tab(), otherTabs: [], processes: [], records: [], protectedPids: [1], ...over };
}

// Tab A: holder 100 (own session), child 200 leading session 200 with a job in group 210.
const holder = proc(100, { ppid: 50, pgid: 50, sid: 50 });
const child = proc(200, { ppid: 100 });
const job = proc(210, { ppid: 200, pgid: 210, sid: 200 });
const jobPeer = proc(211, { ppid: 200, pgid: 210, sid: 200 });
const server = proc(50, { ppid: 1, pgid: 50, sid: 50 });

describe('planRetirement: which processes', () => {
  it('ends the union of live bound refs and session members, each pid once, sorted', () => {
    const s = snapshot({
      tab: tab({ bound: [ref(child), ref(holder), ref(child), ref(holder)], sessions: [ref(child), ref(child)] }),
      processes: [server, jobPeer, holder, job, child],
      protectedPids: [1, 50],
    });
    const plan = planRetirement(s, 'user');
    expect(pids(plan)).toEqual([100, 200, 210, 211]);
    expect(plan.processes[0]).toEqual({ pid: 100, startTime: 's100', pgid: 50 });
    // Group 50 also holds the server, so it is never signalled whole.
    expect(plan.groups).toEqual([200, 210]);
  });

  it('includes ids found in only one source (a pending spawn bound but not yet in sessions)', () => {
    const pending = proc(300, { ppid: 100 });
    const s = snapshot({ tab: tab({ bound: [ref(pending)], sessions: [ref(child)] }), processes: [child, pending, job] });
    expect(pids(planRetirement(s, 'cleanup'))).toEqual([200, 210, 300]);
  });

  it('never includes a recycled pid (same pid, other start time), a dead ref, or a protected pid', () => {
    const recycled = proc(400, { startTime: 'new' });
    const s = snapshot({
      tab: tab({ bound: [{ pid: 400, startTime: 'old' }, { pid: 999, startTime: 'gone' }, ref(proc(1)), ref(child)] }),
      processes: [recycled, proc(1, { pgid: 1, sid: 1, ppid: 0 }), child],
      protectedPids: [1],
    });
    expect(pids(planRetirement(s, 'user'))).toEqual([200]);
  });

  it('leaves out anything another live tab claims by bound ref, session or marker', () => {
    const shared = proc(500, { ppid: 200, sid: 200, pgid: 500 });
    const otherSession = proc(510, { ppid: 200, sid: 510 });
    const otherMarked = proc(520, { ppid: 200, sid: 200, pgid: 210, tabMarker: 'B' });
    const s = snapshot({
      tab: tab({ bound: [ref(child), ref(shared), ref(otherSession)], sessions: [ref(child), ref(otherSession)] }),
      otherTabs: [tab({ tabId: 'B', bound: [ref(shared)], sessions: [ref(otherSession)] })],
      processes: [child, job, shared, otherSession, otherMarked],
    });
    const plan = planRetirement(s, 'user');
    expect(pids(plan)).toEqual([200, 210]);
    // 520 is in group 210 but not planned, so group 210 is not signalled whole.
    expect(plan.groups).toEqual([200]);
  });

  it('leaves out what another agent tab would end as its own: a descendant that left its session, carrying this tab\'s marker', () => {
    // Tab B's child 600 carries A's marker (its environment says so), and so do its job 610 and
    // its setsid'd descendant 620: A's close finds all three by marker, B claims all three.
    const bChild = proc(600, { ppid: 590, tabMarker: 'A' });
    const bJob = proc(610, { ppid: 600, sid: 600, pgid: 610, tabMarker: 'A' });
    const bEscaped = proc(620, { ppid: 600, sid: 620, pgid: 620, tabMarker: 'A' });
    const aEscaped = proc(700, { ppid: 1, sid: 700, pgid: 700, tabMarker: 'A' });
    const processes = [child, job, bChild, bJob, bEscaped, aEscaped];
    const closing = tab({ agent: true, bound: [ref(child)], sessions: [ref(child)] });
    const asAgent = snapshot({ tab: closing, otherTabs: [tab({ tabId: 'B', agent: true, bound: [ref(bChild)], sessions: [ref(bChild)] })], processes });
    expect(pids(planRetirement(asAgent, 'user'))).toEqual([200, 210, 700]);
    // A plain shell tab would leave its escapee running on its close: it does not claim it.
    const asShell = snapshot({ tab: closing, otherTabs: [tab({ tabId: 'B', agent: false, bound: [ref(bChild)], sessions: [ref(bChild)] })], processes });
    expect(pids(planRetirement(asShell, 'user'))).toEqual([200, 210, 620, 700]);
  });

  it('a bound ref of another tab only counts with a matching start time', () => {
    const p = proc(600, { sid: 200, pgid: 200, ppid: 200 });
    const s = snapshot({
      tab: tab({ sessions: [ref(child)] }),
      otherTabs: [tab({ tabId: 'B', bound: [{ pid: 600, startTime: 'older' }] })],
      processes: [child, p],
    });
    expect(pids(planRetirement(s, 'user'))).toEqual([200, 600]);
  });

  describe('a recorded session leader counts only when verified', () => {
    // An unrelated session whose leader got the pid our child once had.
    const decoy = proc(200, { ppid: 1, startTime: 'decoy' });
    const decoyJob = proc(210, { ppid: 200, pgid: 210, sid: 200 });
    const ours = { pid: 200, startTime: 's200' };

    it('a live leader with another start time leads an unrelated session: nothing of it is planned', () => {
      const s = snapshot({ tab: tab({ agent: true, bound: [ours, ref(holder)], sessions: [ours] }), processes: [holder, decoy, decoyJob] });
      expect(pids(planRetirement(s, 'user'))).toEqual([100]);
      const reboot = snapshot({ tab: tab({ bound: [], sessions: [{ pid: 200, startTime: null }] }), processes: [decoy, decoyJob] });
      expect(pids(planRetirement(reboot, 'cleanup'))).toEqual([]);
    });

    it('a leader with no recorded start counts as the child of a verified holder, or by the tab marker', () => {
      const unrecorded = { pid: 200, startTime: null };
      const byParent = snapshot({ tab: tab({ bound: [ref(holder)], sessions: [unrecorded] }), processes: [holder, child, job] });
      expect(pids(planRetirement(byParent, 'cleanup'))).toEqual([100, 200, 210]);
      const marked = proc(200, { ppid: 1, tabMarker: 'A' });
      const byMarker = snapshot({ tab: tab({ sessions: [unrecorded] }), processes: [marked, job] });
      expect(pids(planRetirement(byMarker, 'cleanup'))).toEqual([200, 210]);
    });

    it('once the leader is gone, only members carrying the tab marker', () => {
      const markedJob = proc(220, { ppid: 1, pgid: 220, sid: 200, tabMarker: 'A' });
      const s = snapshot({ tab: tab({ sessions: [ours] }), processes: [job, markedJob] });
      expect(pids(planRetirement(s, 'user'))).toEqual([220]);
    });
  });

  describe('processes that left the session', () => {
    const daemon = proc(700, { ppid: 1, pgid: 700, sid: 700, tabMarker: 'A' }); // setsid'd, reparented
    const daemonChild = proc(710, { ppid: 700, pgid: 700, sid: 700, tabMarker: null }); // cleared its env
    const escaped = proc(720, { ppid: 210, pgid: 720, sid: 720 }); // setsid, still a descendant
    const escapedChild = proc(730, { ppid: 720, pgid: 720, sid: 720 });
    const unrelated = proc(800, { ppid: 1 });
    const processes = [child, job, daemon, daemonChild, escaped, escapedChild, unrelated];

    it('an agent tab ends them, by marker and by ancestry', () => {
      const s = snapshot({ tab: tab({ agent: true, bound: [ref(child)], sessions: [ref(child)] }), processes });
      const plan = planRetirement(s, 'user');
      expect(pids(plan)).toEqual([200, 210, 700, 710, 720, 730]);
      expect(plan.groups).toEqual([200, 210, 700, 720]);
    });

    it('a plain shell tab leaves them running', () => {
      const s = snapshot({ tab: tab({ agent: false, bound: [ref(child)], sessions: [ref(child)] }), processes });
      expect(pids(planRetirement(s, 'user'))).toEqual([200, 210]);
    });

    it('the ancestry walk neither plans nor passes through what another tab claims or what is protected', () => {
      const otherHolder = proc(900, { ppid: 720, pgid: 900, sid: 900 });
      const otherChild = proc(910, { ppid: 900, pgid: 910, sid: 910 });
      const srv = proc(950, { ppid: 730, pgid: 950, sid: 950 });
      const srvKid = proc(960, { ppid: 950, pgid: 960, sid: 960 });
      const s = snapshot({
        tab: tab({ agent: true, bound: [ref(child)], sessions: [ref(child)] }),
        otherTabs: [tab({ tabId: 'B', bound: [ref(otherHolder)] })],
        processes: [...processes, otherHolder, otherChild, srv, srvKid],
        protectedPids: [1, 950],
      });
      expect(pids(planRetirement(s, 'user'))).toEqual([200, 210, 700, 710, 720, 730]);
    });
  });
});

describe('planRetirement: records', () => {
  const records = [record('a1', 'A'), record('b1', 'B'), record('a2', 'A'), record('c1', 'C')];

  it('user close revokes every record of the tab and moves them to history; siblings untouched', () => {
    const plan = planRetirement(snapshot({ records }), 'user');
    expect(plan.revoke).toEqual(['a1', 'a2']);
    expect(plan.history.map((r) => r.id)).toEqual(['a1', 'a2']);
    expect(plan.history[0]).toEqual(records[0]);
  });

  it('cleanup revokes without history', () => {
    const plan = planRetirement(snapshot({ records }), 'cleanup');
    expect(plan.revoke).toEqual(['a1', 'a2']);
    expect(plan.history).toEqual([]);
  });

  it('natural exit ends nothing, revokes nothing and records no history', () => {
    const s = snapshot({
      tab: tab({ agent: true, bound: [ref(child)], sessions: [ref(child)] }),
      processes: [child, job, proc(700, { tabMarker: 'A' })],
      records,
    });
    expect(planRetirement(s, 'natural-exit')).toEqual({
      tabId: 'A',
      reason: 'natural-exit',
      groups: [],
      processes: [],
      revoke: [],
      history: [],
    });
  });

  it('a tab with nothing live plans no processes (close after exit)', () => {
    const s = snapshot({ tab: tab({ bound: [{ pid: 200, startTime: 's200' }], sessions: [{ pid: 200, startTime: 's200' }] }), records });
    const plan = planRetirement(s, 'user');
    expect(plan.processes).toEqual([]);
    expect(plan.groups).toEqual([]);
    expect(plan.revoke).toEqual(['a1', 'a2']);
  });
});

describe('planRetirement: a shared agent server (issue 28: Codex typed in two tabs)', () => {
  // Tab A's Codex 200 started the shared server 300 (it left the session) with an update loop 310
  // and a hook 320 under it; tab B's Codex 600 (session 600) is the server's client.
  const codexA = proc(200, { ppid: 100, tabMarker: 'A' });
  const shared = proc(300, { ppid: 200, tabMarker: 'A' });
  const updater = proc(310, { ppid: 200, tabMarker: 'A' });
  const hook = proc(320, { ppid: 300, pgid: 320, sid: 300, tabMarker: 'A' });
  const codexB = proc(600, { ppid: 500, tabMarker: 'B' });
  const tabB = tab({ tabId: 'B', agent: true, bound: [ref(codexB)], sessions: [ref(codexB)] });
  const base = snapshot({
    tab: tab({ agent: true, bound: [ref(codexA)], sessions: [ref(codexA)] }),
    otherTabs: [tabB],
    processes: [codexA, shared, updater, hook, codexB],
  });

  it("keeps the server and what it runs while another tab's agent is its client", () => {
    const plan = planRetirement({ ...base, sharedServers: [{ pid: 300, clients: [200, 600] }] }, 'user');
    expect(pids(plan)).toEqual([200, 310]);
  });

  it('ends it with the tab when only the closing tab used it', () => {
    const plan = planRetirement({ ...base, sharedServers: [{ pid: 300, clients: [200] }] }, 'user');
    expect(pids(plan)).toEqual([200, 300, 310, 320]);
  });

  it('keeps it while another tab lives when its clients could not be read', () => {
    expect(pids(planRetirement({ ...base, sharedServers: [{ pid: 300, clients: null }] }, 'user'))).toEqual([200, 310]);
    expect(pids(planRetirement({ ...base, otherTabs: [], sharedServers: [{ pid: 300, clients: null }] }, 'user'))).toEqual([200, 300, 310, 320]);
  });

  it("ends it as before when nothing says it is shared (the other tab's processes are not its clients)", () => {
    expect(pids(planRetirement(base, 'user'))).toEqual([200, 300, 310, 320]);
  });
});
