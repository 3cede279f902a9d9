// Orphaned holders (SPEC §10): a holder of the profile that no registry row owns is found by the
// next server, verified, and retired after a short grace, its child's session with it; host status
// shows the count and the oldest orphan's age meanwhile. The orphan is made the way a crash makes
// one: the server is SIGKILLed right after a close commits, before it ends the tab's processes.
import { afterEach, describe, expect, it } from 'vitest';
import { CRASH_AT_ENV } from '../../src/crashPoints.js';
import type { ServerClient } from '../../src/client/serverClient.js';
import { e2e, listing, protocolClient, tabId, type E2E, type Listing } from './harness.js';
import { readDiskRegistry, spawnServer } from './serverProcess.js';
import { isAlive, killTracked } from '../helpers/procs.js';
import { waitFor } from '../helpers/wait.js';

let t: E2E | undefined;
const clients: ServerClient[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  killTracked();
  await t?.teardown();
  t = undefined;
});

async function running(e: E2E, names: string[]): Promise<Listing> {
  return waitFor(async () => {
    const l = await listing(e);
    const ok = l.tabs.length === names.length && l.tabs.every((x) => x.status === 'running' && x.holderPid && x.childPid);
    return ok ? l : null;
  }, { what: `tabs ${names.join(', ')} running` });
}

describe('orphaned holders', () => {
  it('a closed tab whose server died before ending it loses its holder and child at the next start', async () => {
    const e = (t = e2e({ closeGraceMs: 300 }));
    for (const name of ['a', 'k']) {
      const r = await e.run('new', '--name', name);
      expect(r.code, r.stderr).toBe(0);
    }
    const first = await running(e, ['a', 'k']);
    // A clean exit: the holders keep running and start no replacement.
    process.kill(first.server!.pid, 'SIGTERM');
    await waitFor(() => !isAlive(first.server!.pid), { what: 'the first server gone' });

    const armed = spawnServer(e, { [CRASH_AT_ENV]: 'registry.retireTab.after' });
    expect(await armed.status).toMatchObject({ ready: true });
    const before = await running(e, ['a', 'k']);
    const a = before.tabs.find((x) => x.name === 'a')!;
    const k = before.tabs.find((x) => x.name === 'k')!;
    const closer = await protocolClient(e);
    clients.push(closer);
    await closer.request('close', { tabId: tabId(before, 'k') }).catch(() => undefined);
    expect(await armed.exited).toEqual({ code: null, signal: 'SIGKILL' });

    // The close is committed, and nothing ended k's processes: an orphan.
    expect(readDiskRegistry(e).tabs.map((x) => x.name)).toEqual(['a']);
    expect([isAlive(k.holderPid!), isAlive(k.childPid!)]).toEqual([true, true]);

    // The next start (ours, or a holder's if it was quicker) finds it and reports it.
    spawnServer(e);
    const client = await waitFor(() => protocolClient(e).catch(() => null), { what: 'the next server answering', timeoutMs: 30_000 });
    clients.push(client);
    const orphans = async () => ((await client.request('hostStatus')).orphans);
    const seen = await waitFor(async () => {
      const o = await orphans();
      return o.count === 1 ? o : null;
    }, { what: 'host status counting the orphan' });
    expect(seen.oldestAgeMs).toBeGreaterThanOrEqual(0);

    await waitFor(() => !isAlive(k.holderPid!) && !isAlive(k.childPid!), { what: "the closed tab's holder and child gone", timeoutMs: 30_000 });
    await waitFor(async () => (await orphans()).count === 0, { what: 'no orphan left' });
    const status = await e.run('tabs', 'host', 'status');
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toMatch(/^orphans {2}none$/m);

    // The live tab kept its processes.
    const after = await running(e, ['a']);
    expect(after.tabs.map((x) => [x.id, x.holderPid, x.childPid])).toEqual([[a.id, a.holderPid, a.childPid]]);
  });
});
