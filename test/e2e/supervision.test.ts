// Holder supervision (SPEC §10): the server heartbeats every holder; one that misses three beats
// (here: stopped with SIGSTOP) is hung, is killed after its pid and start time are checked, and
// is replaced within the restart budget while the other tabs are left alone.
import { describe, it, expect, afterEach } from 'vitest';
import { e2e, listing, type E2E } from './harness.js';
import { waitFor } from '../helpers/wait.js';
import { isAlive } from '../helpers/procs.js';

let t: E2E;
afterEach(async () => {
  await t?.teardown();
});

describe('holder heartbeats', () => {
  it('replaces a holder that stops answering, and leaves the other tab alone', async () => {
    t = e2e();
    for (const name of ['hung', 'other']) {
      const r = await t.run('new', '--name', name);
      expect(r.code, r.stderr).toBe(0);
    }
    const before = await waitFor(async () => {
      const l = await listing(t);
      return l.tabs.length === 2 && l.tabs.every((x) => x.status === 'running' && x.holderPid) ? l : null;
    }, { what: 'both tabs running' });
    const [hung, other] = before.tabs;
    process.kill(hung.holderPid!, 'SIGSTOP');
    try {
      const after = await waitFor(async () => {
        const l = await listing(t);
        const tab = l.tabs.find((x) => x.id === hung.id);
        return tab && tab.holderPid && tab.holderPid !== hung.holderPid && tab.status === 'running' ? l : null;
      }, { what: 'the hung holder replaced', timeoutMs: 60_000 });
      expect(isAlive(hung.holderPid!)).toBe(false);
      expect(after.tabs.find((x) => x.id === other.id)).toMatchObject({ holderPid: other.holderPid, childPid: other.childPid });
    } finally {
      try {
        process.kill(hung.holderPid!, 'SIGCONT');
      } catch {
        // Already gone.
      }
    }
  });
});

async function hostStatusPid(t: E2E): Promise<number | null> {
  const r = await t.run('tabs', 'host', 'status', '--json');
  expect(r.code, r.stderr).toBe(0);
  const s = JSON.parse(r.stdout) as { server: { pid: number } | null };
  return s.server?.pid ?? null;
}

describe('server start budget', () => {
  it('after three automatic starts in a minute the client stops, and r restarts the server', async () => {
    t = e2e();
    const a1 = t.attach();
    await a1.waitForText('agent');
    let pid = await waitFor(() => hostStatusPid(t), { what: 'a server' });
    // The client replaces a killed server three times within the minute...
    for (let kill = 1; kill <= 3; kill++) {
      process.kill(pid, 'SIGKILL');
      const old = pid;
      pid = await waitFor(async () => {
        const now = await hostStatusPid(t);
        return now !== null && now !== old ? now : null;
      }, { what: `a replacement server after kill ${kill}` });
    }
    // ...and then stops trying on its own, and says so with its two actions.
    process.kill(pid, 'SIGKILL');
    await a1.waitForText('a1 server stopped · [r] restart it  [q] quit');
    expect(await hostStatusPid(t)).toBeNull();
    a1.write('r');
    await waitFor(() => hostStatusPid(t), { what: 'the server restarted by r' });
    await a1.waitForScreen((lines) => !lines.some((l) => l.includes('a1 server stopped')), undefined, 'the stopped notice gone');
    expect((await listing(t)).tabs).toHaveLength(1);
  });
});
