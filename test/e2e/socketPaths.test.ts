// Socket paths that vanish (SPEC §4): logind or a tmp cleaner may delete files under /tmp while
// a1 runs. A resident process whose socket path vanished binds it again within one heartbeat, so
// a new client reaches the server and the tab again, and nothing restarts for it.
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { e2e, listing, logEntries, probeViewed, PROMPT_SEEN, runDir, waitForListing, type E2E } from './harness.js';
import { holderSocket, isSocket } from './harness.js';
import { resolvePaths } from '../../src/paths.js';
import { waitFor } from '../helpers/wait.js';

let t: E2E | undefined;
afterEach(async () => {
  await t?.teardown();
  t = undefined;
});

describe('socket paths that vanish', () => {
  it("the holder's socket and server.sock are bound again: a new a1 lists, attaches and views the tab, and nothing restarted", async () => {
    t = e2e();
    const made = await t.run('new', '--name', 'a');
    expect(made.code, made.stderr).toBe(0);
    const id = made.stdout.trim();
    const before = (await waitForListing(t, ['a'])).tabs[0];
    const server = (await listing(t)).server!;
    const serverSock = resolvePaths({ env: t.env }).serverSock;
    const holderSock = holderSocket(t, id);
    expect(isSocket(serverSock) && isSocket(holderSock)).toBe(true);

    fs.rmSync(serverSock);
    fs.rmSync(holderSock);
    // Bound again by their own processes: new sockets at the same paths.
    await waitFor(() => isSocket(serverSock) && isSocket(holderSock), { what: 'server.sock and the holder socket bound again' });

    const after = await listing(t);
    expect(after.server).toEqual(server);
    expect(after.tabs).toEqual([expect.objectContaining({ id, status: 'running', holderPid: before.holderPid, childPid: before.childPid })]);
    const a1 = t.attach();
    await a1.waitForText(PROMPT_SEEN);
    await probeViewed(a1, id);
    expect((await listing(t)).tabs[0]).toMatchObject({ holderPid: before.holderPid, childPid: before.childPid });
    expect((await listing(t)).server).toEqual(server);
    const events = (file: RegExp) => logEntries(t!, file).map((e) => e.event);
    expect(events(/^server/).filter((e) => e === 'socket-restored')).toHaveLength(1);
    expect(events(/^holder-/).filter((e) => e === 'socket-restored')).toHaveLength(1);
  });

  it('the whole run directory removed: sockets and the client token come back, and a new a1 attaches', async () => {
    t = e2e();
    const made = await t.run('new', '--name', 'a');
    expect(made.code, made.stderr).toBe(0);
    const id = made.stdout.trim();
    const before = (await waitForListing(t, ['a'])).tabs[0];
    const server = (await listing(t)).server!;
    const paths = resolvePaths({ env: t.env });
    const token = fs.readFileSync(paths.clientTokenFile);

    fs.rmSync(runDir(t), { recursive: true });
    await waitFor(() => isSocket(paths.serverSock) && isSocket(holderSocket(t!, id)) && fs.existsSync(paths.clientTokenFile), {
      what: 'server.sock, the holder socket and the client token back',
    });
    // The same token, owner-only in an owner-only directory: clients and the server agree again.
    expect(fs.readFileSync(paths.clientTokenFile).equals(token)).toBe(true);
    expect(fs.statSync(paths.clientTokenFile).mode & 0o777).toBe(0o600);
    expect(fs.statSync(runDir(t)).mode & 0o777).toBe(0o700);
    const a1 = t.attach();
    await a1.waitForText(PROMPT_SEEN);
    await probeViewed(a1, id);
    const after = await listing(t);
    expect(after.server).toEqual(server);
    expect(after.tabs).toEqual([expect.objectContaining({ id, holderPid: before.holderPid, childPid: before.childPid })]);
  });
});
