// Supervision (SPEC §10, §15; issue 7): a holder whose PTY creation hangs (the test-only override
// A1_TEST_PTY_HANG_WHILE, set in the one tab's environment) misses its start deadline and is
// replaced within the restart budget while the other tab is untouched; a server killed with no
// client attached is replaced by a holder after a random 1–3 s, or as soon as the lease it found
// held comes free, and a clean server exit or a host stop is never followed by a start.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { e2e, hostStop, listing, logEntries, serverPids, takeLeaseNow, type E2E, type Listing } from './harness.js';
import { isAlive, pidsWithEnv } from '../helpers/procs.js';
import { holdsFor, waitFor } from '../helpers/wait.js';
import { a1Argv } from '../helpers/pty.js';
import { HOLDER_START_DEADLINE_MS } from '../../src/server/holderLink.js';
import { retryDelayMs, SERVER_RESTART_DELAY_MAX_MS, SERVER_RESTART_DELAY_MIN_MS } from '../../src/holder/serverWatch.js';

let t: E2E | undefined;
afterEach(async () => {
  await t?.teardown();
  t = undefined;
});

/** `a1 ...args` with the test's environment plus `extra`, for this one command. */
function runWithEnv(e: E2E, extra: Record<string, string>, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const [file, ...rest] = a1Argv(...args);
  return new Promise((resolve) => {
    execFile(file, rest, { env: { ...e.env, ...extra }, cwd: e.home.dir, timeout: 30_000 }, (err, stdout, stderr) => resolve({ code: err ? 1 : 0, stdout, stderr }));
  });
}

async function runningTabs(e: E2E, names: string[]): Promise<Listing> {
  for (const name of names) {
    const r = await e.run('new', '--name', name);
    expect(r.code, r.stderr).toBe(0);
  }
  return waitFor(async () => {
    const l = await listing(e);
    return l.server && l.tabs.length === names.length && l.tabs.every((x) => x.status === 'running' && x.holderPid && x.childPid) ? l : null;
  }, { what: `tabs ${names.join(', ')} running` });
}

describe('PTY creation deadline', () => {
  it('a holder whose PTY creation hangs is replaced within the restart budget; the other tab is untouched', async () => {
    t = e2e();
    const before = await runningTabs(t, ['other']);
    // The override travels in the creating client's environment, which its replacement gets too:
    // the hang lasts while the file exists, and the file goes once the first holder was replaced.
    const hang = path.join(t.home.dir, 'pty-hang');
    fs.writeFileSync(hang, '');
    const made = await runWithEnv(t, { A1_TEST_PTY_HANG_WHILE: hang }, 'new', '--name', 'slow');
    expect(made.code, made.stderr).toBe(0);
    const slowId = made.stdout.trim();
    const hungHolder = await waitFor(() => pidsWithEnv('A1_HOLDER_TAB', slowId).find(isAlive), { what: 'the hanging holder' });
    await waitFor(() => !isAlive(hungHolder) && pidsWithEnv('A1_HOLDER_TAB', slowId).some(isAlive), {
      what: 'the hanging holder killed at its deadline and a replacement starting',
      timeoutMs: HOLDER_START_DEADLINE_MS * 3,
    });
    fs.rmSync(hang);
    const after = await waitFor(async () => {
      const l = await listing(t!);
      const slow = l.tabs.find((x) => x.id === slowId);
      return slow?.status === 'running' && slow.holderPid && slow.holderPid !== hungHolder ? l : null;
    }, { what: 'the slow tab running under a replacement holder', timeoutMs: HOLDER_START_DEADLINE_MS * 4 });
    expect(isAlive(hungHolder)).toBe(false);
    const other = before.tabs[0];
    expect(after.tabs.find((x) => x.id === other.id)).toMatchObject({ status: 'running', holderPid: other.holderPid, childPid: other.childPid });
    expect(after.server!.pid).toBe(before.server!.pid);
    expect(logEntries(t, /^server/).filter((e) => e.event === 'holder-start-failed')).toHaveLength(1);
  });
});

describe('a server that dies while a holder starts', () => {
  it('its replacement waits for the starting holder and adopts it: the tab never runs two holders', async () => {
    t = e2e();
    const before = await runningTabs(t, ['other']);
    // Long enough that the replacement (started by the other tab's holder after 1-3 s) looks
    // for the new holder before its socket answers; shorter than a holder's start deadline.
    const made = await runWithEnv(t, { A1_TEST_HOLDER_LISTEN_DELAY_MS: String(HOLDER_START_DEADLINE_MS * 0.7) }, 'new', '--name', 'slow');
    expect(made.code, made.stderr).toBe(0);
    const slowId = made.stdout.trim();
    const holdersOfSlow = () => pidsWithEnv('A1_HOLDER_TAB', slowId).filter(isAlive);
    const first = await waitFor(() => holdersOfSlow()[0], { what: 'the starting holder' });
    process.kill(before.server!.pid, 'SIGKILL');
    let most = 0;
    const after = await waitFor(async () => {
      most = Math.max(most, holdersOfSlow().length);
      const l = await listing(t!);
      const slow = l.tabs.find((x) => x.id === slowId);
      return l.server && l.server.pid !== before.server!.pid && slow?.status === 'running' && slow.childPid ? l : null;
    }, { what: 'the slow tab running under the replacement server', timeoutMs: HOLDER_START_DEADLINE_MS * 4 });
    expect(most).toBe(1);
    expect(holdersOfSlow()).toEqual([first]);
    expect(after.tabs.find((x) => x.id === slowId)!.holderPid).toBe(first);
    const other = before.tabs[0];
    expect(after.tabs.find((x) => x.id === other.id)).toMatchObject({ status: 'running', holderPid: other.holderPid, childPid: other.childPid });
  });
});

describe('server replacement by holders', () => {
  it('a killed server is replaced by a holder after 1 to 3 s, with every tab adopted', async () => {
    t = e2e();
    const before = await runningTabs(t, ['a', 'b']);
    const old = before.server!.pid;
    const killedAt = Date.now();
    process.kill(old, 'SIGKILL');
    const after = await waitFor(async () => {
      const l = await listing(t!);
      return l.server && l.server.pid !== old && l.tabs.every((x) => x.status === 'running') ? l : null;
    }, { what: 'a replacement server started by a holder' });
    expect(after.tabs.map((x) => [x.id, x.holderPid, x.childPid])).toEqual(before.tabs.map((x) => [x.id, x.holderPid, x.childPid]));
    const started = logEntries(t, /^server/).find((e) => e.event === 'start' && e.pid === after.server!.pid)!;
    const waited = Date.parse(started.at) - killedAt;
    expect(waited).toBeGreaterThanOrEqual(SERVER_RESTART_DELAY_MIN_MS);
    // The replacement's own start adds to the holder's wait; bounded generously for a busy machine.
    expect(waited).toBeLessThan(SERVER_RESTART_DELAY_MAX_MS + 10_000);
    expect(logEntries(t, /^holder-/).filter((e) => e.event === 'server-replace').length).toBeGreaterThanOrEqual(1);
  });

  it('a holder that found the lease held keeps looking: once it is free, a holder-started server adopts every tab', async () => {
    t = e2e();
    const before = await runningTabs(t, ['a', 'b']);
    const old = before.server!.pid;
    process.kill(old, 'SIGKILL');
    // Held as a hung server or a starting one would hold it: no holder may start a server meanwhile.
    const lease = takeLeaseNow(t);
    try {
      await waitFor(() => {
        const lost = logEntries(t!, /^holder-/).filter((e) => e.event === 'server-lost');
        return lost.length === 2 && lost.every((e) => e.reason === 'lease-held');
      }, { what: 'both holders finding the lease held' });
      expect(logEntries(t, /^holder-/).filter((e) => e.event === 'server-replace')).toEqual([]);
      expect(serverPids(t)).toEqual([]);
    } finally {
      lease.release();
    }
    const after = await waitFor(async () => {
      const l = await listing(t!);
      return l.server && l.server.pid !== old && l.tabs.every((x) => x.status === 'running') ? l : null;
    }, { what: 'a replacement server started by a holder', timeoutMs: 60_000 });
    expect(after.tabs.map((x) => [x.id, x.holderPid, x.childPid])).toEqual(before.tabs.map((x) => [x.id, x.holderPid, x.childPid]));
    expect(logEntries(t, /^holder-/).filter((e) => e.event === 'server-replace').length).toBeGreaterThanOrEqual(1);
    // Both holders may find the lease free at once and both start a server: the lease settles it,
    // and the one that lost it exits. Only the adopting server stays.
    await waitFor(() => {
      const pids = serverPids(t!);
      return pids.length === 1 && pids[0] === after.server!.pid;
    }, { what: `only the adopting server ${after.server!.pid} left running` });
  });

  it('a clean server exit is never followed by a start from a holder', async () => {
    t = e2e();
    const before = await runningTabs(t, ['a', 'b']);
    process.kill(before.server!.pid, 'SIGTERM');
    // Each holder decides once its random wait is over, and logs what it found.
    const decided = await waitFor(() => {
      const lost = logEntries(t!, /^holder-/).filter((e) => e.event === 'server-lost');
      return lost.length === 2 ? lost : null;
    }, { what: 'both holders decided' });
    expect(decided.map((e) => e.reason)).toEqual(['clean-exit', 'clean-exit']);
    // Past the time a holder would have looked again: holders stopped looking for good.
    await holdsFor(retryDelayMs(1, () => 1), 'after a clean exit', () => {
      const starts = logEntries(t!, /^holder-/).filter((e) => e.event === 'server-replace' || e.event === 'server-lost').length;
      if (starts !== 2) return `holders logged ${starts - 2} more server-lost or server-replace entries`;
      return serverPids(t!).length > 0 ? 'a server runs' : null;
    });
    expect(logEntries(t, /^holder-/).filter((e) => e.event === 'server-replace')).toEqual([]);
    expect((await listing(t)).server).toBeNull();
    expect(before.tabs.every((x) => isAlive(x.holderPid!) && isAlive(x.childPid!))).toBe(true);
  });

  it('a host stop leaves no holder to start a server', async () => {
    t = e2e();
    await runningTabs(t, ['a']);
    await hostStop(t);
    expect((await listing(t)).server).toBeNull();
    expect(logEntries(t, /^holder-/).filter((e) => e.event === 'server-replace')).toEqual([]);
  });
});
