// executeTermination and snapshotProcesses against real processes.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { isLiveProcess } from '../../src/proc.js';
import { snapshotProcesses } from '../../src/lifecycle/processSnapshot.js';
import { planRetirement } from '../../src/lifecycle/retirement.js';
import { executeTermination } from '../../src/lifecycle/terminate.js';
import { killTracked, startTimeOf, track } from '../helpers/procs.js';
import { waitFor } from '../helpers/wait.js';

/** Short, so the test is quick; the stubborn processes prove it is a real deadline. */
const GRACE_MS = 300;

/** A detached (own session and group) shell started with env A1_TAB_ID=marker, or without it. */
function spawnDetached(script: string, marker: string | null, bridge: string | null = null): { pid: number; startTime: string } {
  const env = { ...process.env };
  delete env.A1_TAB_ID;
  delete env.A1_BRIDGE;
  if (marker !== null) env.A1_TAB_ID = marker;
  if (bridge !== null) env.A1_BRIDGE = bridge;
  const child = spawn('sh', ['-c', script], { detached: true, stdio: 'ignore', env });
  child.unref();
  const pid = child.pid;
  if (pid === undefined) throw new Error('spawn failed');
  track(pid, { group: true });
  const startTime = startTimeOf(pid);
  if (startTime === null) throw new Error('child vanished at once');
  return { pid, startTime };
}

afterEach(() => {
  killTracked();
});

// Real process trees are read from Linux's /proc; elsewhere skipped, not faked (a1 supports Linux only).
describe.skipIf(process.platform !== 'linux')('lifecycle with real processes', () => {
  it('snapshotProcesses reads the A1_TAB_ID and A1_BRIDGE markers, and null without them', async () => {
    const marker = `x-${randomUUID()}`;
    const bridge = `/tmp/a1-test/b-${marker}-inc.sock`;
    const marked = spawnDetached('sleep 1000 & wait', marker, bridge);
    const unmarked = spawnDetached('sleep 1000', null);
    const snap = await waitFor(() => {
      const s = snapshotProcesses();
      return s.some((p) => p.ppid === marked.pid) && s.some((p) => p.pid === unmarked.pid) ? s : null;
    }, { what: 'the marked shell, its sleep and the unmarked process in the snapshot' });
    const shell = snap.find((p) => p.pid === marked.pid);
    expect(shell).toEqual({
      pid: marked.pid,
      ppid: process.pid,
      pgid: marked.pid,
      sid: marked.pid,
      startTime: marked.startTime,
      tabMarker: marker,
      bridgeMarker: bridge,
      environReadable: true,
    });
    expect(snap.find((p) => p.ppid === marked.pid)?.tabMarker).toBe(marker);
    expect(snap.find((p) => p.pid === unmarked.pid)).toMatchObject({ tabMarker: null, bridgeMarker: null, environReadable: true });
  });

  it('ends a tab whose processes ignore SIGHUP and one that cooperates, within the grace window', async () => {
    const marker = `t-${randomUUID()}`;
    const stubborn = spawnDetached('trap "" HUP; sleep 1000 & wait', marker);
    const polite = spawnDetached('sleep 1000 & wait', marker);
    const snap = await waitFor(() => {
      const s = snapshotProcesses();
      const ready = [stubborn, polite].every((leader) => s.some((p) => p.ppid === leader.pid));
      return ready ? s : null;
    }, { what: 'both shells to have started their sleep' });
    const members = snap.filter((p) => p.sid === stubborn.pid || p.sid === polite.pid);
    expect(members).toHaveLength(4);

    const plan = planRetirement(
      {
        tab: { tabId: marker, agent: false, bound: [stubborn, polite], sessions: [stubborn, polite] },
        otherTabs: [],
        processes: snap,
        records: [],
        protectedPids: [1, process.pid],
      },
      'user',
    );
    expect(plan.processes.map((p) => p.pid)).toEqual(members.map((p) => p.pid).sort((a, b) => a - b));
    expect(plan.groups).toEqual([stubborn.pid, polite.pid].sort((a, b) => a - b));

    const started = Date.now();
    const result = await executeTermination(plan, { graceMs: GRACE_MS });
    expect(result.signalled).toBe(4);
    // The stubborn shell and its sleep (which inherited the ignored HUP) outlive the grace window.
    expect(result.killed).toBe(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(GRACE_MS);
    await waitFor(() => members.every((p) => !isLiveProcess(p)), { what: 'every planned process gone' });

    // Running the same plan again finds nothing live and returns at once.
    expect(await executeTermination(plan, { graceMs: GRACE_MS })).toEqual({ signalled: 0, killed: 0, unended: [] });
  });
});
