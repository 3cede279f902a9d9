// The holder in this process, over real Unix sockets, with a /bin/sh child on a real PTY: its
// failure paths. A peer (server or viewer) that vanishes mid-frame, a shutdown during a pending
// await, a child's exit that arrives late (after a restart, after shutdown), and a shutdown that
// must leave no timer, socket or PTY of the holder behind.
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { HolderShutDownError } from '../../src/holder/holder.js';
import type { Connection } from '../../src/protocol/connection.js';
import type { ServerProbe } from '../../src/holder/serverWatch.js';
import { isAlive } from '../helpers/procs.js';
import { holdsFor, waitFor } from '../helpers/wait.js';
import { halfFrame, makeHub, screenText, type Cleanups } from './holderHub.js';
import { handleCounts, probeTimers } from './timerProbe.js';

const cleanups: Cleanups = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** How long a test watches for something that must not happen once its cause has happened. */
const QUIET_WINDOW_MS = 500;

type Patch = Parameters<typeof screenText>[0][number];

/** Every surface a viewer is sent, from now on. */
function surfaces(conn: Connection): Patch[] {
  const seen: Patch[] = [];
  conn.onMessage((m) => {
    if (m.t === 'surface') seen.push((m as unknown as { patch: Patch }).patch);
  });
  return seen;
}

function messages(conn: Connection): Array<{ t: string; [k: string]: unknown }> {
  const seen: Array<{ t: string }> = [];
  conn.onMessage((m) => void seen.push(m));
  return seen as Array<{ t: string; [k: string]: unknown }>;
}

describe('a peer that vanishes mid-message', () => {
  it('a viewer that sends half a frame and closes is dropped; the next viewer gets the whole screen', async () => {
    const hub = makeHub(cleanups);
    await hub.start();
    const first = await hub.rawPeer();
    const conn = await hub.viewer('c1', first);
    const seen = surfaces(conn);
    conn.send({ t: 'attach', cols: 80, rows: 24 });
    await waitFor(() => screenText(seen).includes('hub-ready'), { what: 'the first viewer sees the child' });
    first.write(halfFrame());
    first.destroy();
    const next = await hub.viewer('c2');
    const nextSeen = surfaces(next);
    next.send({ t: 'attach', cols: 80, rows: 24 });
    await waitFor(() => screenText(nextSeen).includes('hub-ready'), { what: 'the next viewer sees the child' });
    expect(hub.holder.state().lifecycle).toBe('running');
  });

  it('a server that sends half a frame and closes loses its link; the next server is linked and obeyed', async () => {
    const hub = makeHub(cleanups);
    await hub.start();
    const first = await hub.rawPeer();
    const conn = await hub.server(first);
    const firstSeen = messages(conn);
    await waitFor(() => firstSeen.some((m) => m.t === 'state'), { what: 'the first server gets the state' });
    first.write(halfFrame());
    first.destroy();
    const next = await hub.server();
    const seen = messages(next);
    next.send({ t: 'setController', epoch: 2, clientId: 'c9', rev: 3 });
    await waitFor(() => seen.some((m) => m.t === 'controllerSet' && m.rev === 3), { what: 'the next server is obeyed' });
    expect(hub.holder.state().controller).toEqual({ clientId: 'c9', rev: 3 });
  });

  it('a peer that sends half a frame during the handshake is refused, and the holder serves on', async () => {
    const hub = makeHub(cleanups);
    await hub.start();
    const raw = await hub.rawPeer();
    await new Promise((resolve) => raw.once('data', resolve)); // the holder's hello
    raw.write(halfFrame());
    raw.destroy();
    await waitFor(() => hub.logged('handshake-refused') === 1, { what: 'the handshake refused' });
    const viewer = await hub.viewer('c1');
    const seen = surfaces(viewer);
    viewer.send({ t: 'attach', cols: 80, rows: 24 });
    await waitFor(() => screenText(seen).includes('hub-ready'), { what: 'a viewer after it sees the child' });
  });
});

describe('a shutdown during a pending await', () => {
  it('while the start waits before binding, or before the child: nothing more is started or left bound', async () => {
    for (const wait of ['listen', 'pty'] as const) {
      const hub = makeHub(cleanups, { env: wait === 'listen' ? { A1_TEST_HOLDER_LISTEN_DELAY_MS: '60000' } : {} });
      const hang = `${hub.dir}/hang`;
      if (wait === 'pty') {
        // Read by start(), so it may be set after the holder was built.
        fs.writeFileSync(hang, '');
        hub.init.env.A1_TEST_PTY_HANG_WHILE = hang;
      }
      const started = hub.holder.start();
      if (wait === 'pty') await waitFor(() => fs.existsSync(hub.init.bridgeSocketPath), { what: 'both sockets bound' });
      hub.holder.shutdown(0);
      await expect(started).rejects.toBeInstanceOf(HolderShutDownError);
      expect(hub.holder.state().childPid).toBeNull();
      expect(fs.existsSync(hub.init.socketPath)).toBe(false);
      expect(fs.existsSync(hub.init.bridgeSocketPath)).toBe(false);
      expect(hub.done).toEqual([0]);
    }
  }, 120_000);

  it('a terminate waiting out its grace window ends the holder once, whatever else asks meanwhile', async () => {
    // The child ignores SIGHUP: only the SIGKILL after the grace window ends it.
    const hub = makeHub(cleanups, { command: ['/bin/sh', '-c', 'trap "" HUP; echo hub-ready; while :; do sleep 1; done'] });
    const { childPid } = await hub.start();
    await hub.stateWhen((s) => s.lifecycle === 'running', 'the child runs');
    const terminated = hub.holder.terminate(1_000);
    await waitFor(() => hub.logged('terminate') === 1, { what: 'the terminate under way' });
    await hub.holder.terminate(1_000);
    hub.holder.shutdown(7);
    await terminated;
    expect(hub.done).toEqual([7]);
    await waitFor(() => !isAlive(childPid!), { what: 'the child ended by the terminate' });
    // Its end, after the shutdown, is no crash to restart or to keep a last screen of.
    expect(hub.logged('child-respawn')).toBe(0);
    expect(fs.readdirSync(hub.init.recoveryDir)).toEqual([]);
  }, 60_000);

  it('a shutdown while the server link looks for a server stops the looking: no probe, no server started', async () => {
    const probes: string[] = [];
    const starts: string[] = [];
    const probe = async (): Promise<ServerProbe> => (probes.push('probe'), 'dead');
    const hub = makeHub(cleanups, {
      init: { serverSocketPath: '/nonexistent/server.sock', profile: 'hubtest' },
      serverWatch: { probe, startServer: (profile) => void starts.push(profile) },
    });
    const timers = probeTimers();
    cleanups.push(() => timers.restore());
    await hub.start();
    const server = await hub.server();
    // A server is the holder's link from its first epoch on.
    const seen = messages(server);
    server.send({ t: 'epoch', epoch: 1 });
    server.send({ t: 'ping', n: 1 });
    await waitFor(() => seen.some((m) => m.t === 'pong'), { what: 'the server linked' });
    server.close();
    await waitFor(() => timers.live().some((where) => where.includes('disposable.ts')), { what: 'a look for a server armed' });
    hub.holder.shutdown(0);
    await noTimersLeft(timers);
    expect(probes).toEqual([]);
    expect(starts).toEqual([]);
  });
});

describe('a late exit event', () => {
  it('the exit of a child already restarted is discarded: one crash, the new child runs on', async () => {
    // Crashes once (an agent tab's non-zero exit), then runs; the test fault delivers the first
    // child's exit again once the second child runs.
    const script = 'if [ -e crashed ]; then echo hub-ready; exec sleep 600; fi; touch crashed; exit 3';
    const hub = makeHub(cleanups, { agentKind: 'hub-agent', command: ['/bin/sh', '-c', script], env: { A1_TEST_LATE_EXIT_MS: '300' } });
    const { childPid: first } = await hub.start();
    const restarted = await hub.stateWhen((s) => s.lifecycle === 'running' && s.childPid !== first && s.childPid !== null, 'the restarted child');
    await waitFor(() => hub.logged('child-exit-superseded') === 1, { what: 'the late exit discarded' });
    const now = hub.holder.state();
    expect(now).toMatchObject({ lifecycle: 'running', childPid: restarted.childPid, crashes: 1 });
    expect(hub.logged('child-exited')).toBe(1);
    expect(hub.logged('child-started')).toBe(2);
  }, 60_000);

  it('an exit after shutdown restarts nothing, writes no last screen and tells no one', async () => {
    const hub = makeHub(cleanups, { agentKind: 'hub-agent' });
    const { childPid } = await hub.start();
    await hub.stateWhen((s) => s.lifecycle === 'running', 'the child runs');
    hub.holder.shutdown(0);
    // A crash by any measure (a signal), arriving after shutdown. Shutdown lets the PTY go, so
    // the kernel's hangup may have ended the child first: either way its exit comes late.
    try {
      process.kill(childPid!, 'SIGKILL');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
    }
    await waitFor(() => !isAlive(childPid!), { what: 'the child gone' });
    await holdsFor(QUIET_WINDOW_MS, 'after shutdown', () => {
      const acted = ['child-exited', 'child-respawn', 'child-started'].filter((e) => hub.logged(e) !== (e === 'child-started' ? 1 : 0));
      if (acted.length > 0) return `logged ${acted.join(', ')}`;
      const files = fs.readdirSync(hub.init.recoveryDir);
      return files.length > 0 ? `wrote ${files.join(', ')}` : null;
    });
    expect(hub.holder.state().lifecycle).toBe('running');
  });
});

describe('shutdown releases what the holder holds', () => {
  it('no timer, socket, listener or PTY of the holder outlives it, however busy it was', async () => {
    const before = handleCounts();
    const timers = probeTimers();
    cleanups.push(() => timers.restore());
    // A title to report (its timer), a viewer attached late (its timer), a server linked, and a
    // peer stuck in its handshake when the shutdown comes.
    const title = 'printf "\\033]0;hub-title\\007"; echo hub-ready; exec sleep 600';
    const hub = makeHub(cleanups, { command: ['/bin/sh', '-c', title], env: { A1_TEST_ATTACH_DELAY_MS: '60000' } });
    const { childPid } = await hub.start();
    await hub.stateWhen((s) => s.title === 'hub-title', 'the title parsed');
    await hub.server();
    const viewer = await hub.viewer('c1');
    viewer.send({ t: 'attach', cols: 80, rows: 24 });
    const stuck = await hub.rawPeer();
    await new Promise((resolve) => stuck.once('data', resolve));
    await waitFor(() => timers.live().some((where) => where.includes('dataClients.ts')), { what: 'the late attach armed' });
    expect(timers.live().some((where) => where.includes('holder.ts'))).toBe(true); // the status tick
    hub.holder.shutdown(0);
    expect(hub.done).toEqual([0]);
    await noTimersLeft(timers);
    // The PTY is let go: the kernel hangs the child up, as at the holder's own exit.
    await waitFor(() => !isAlive(childPid!), { what: 'the child hung up' });
    await handlesBackTo(before);
    expect(fs.existsSync(hub.init.socketPath)).toBe(false);
    expect(fs.existsSync(hub.init.bridgeSocketPath)).toBe(false);
  });
});

/** Resolves once no timer armed under src/ is live; a timeout names where the rest were armed. */
function noTimersLeft(timers: ReturnType<typeof probeTimers>) {
  return waitFor(
    () => {
      const live = timers.live();
      if (live.length > 0) throw new Error(`armed at ${live.join(' | ')}`);
      return true;
    },
    { what: 'no timer of the holder left' },
  );
}

/** Resolves once the event loop holds no more sockets, servers or PTYs of any kind than `before`
 * (fewer is fine: what an earlier test left may have been released meanwhile). */
function handlesBackTo(before: Record<string, number>) {
  return waitFor(
    () => {
      const now = handleCounts();
      if (Object.entries(now).some(([type, n]) => n > (before[type] ?? 0))) {
        const h = (process as unknown as { _getActiveHandles(): Array<{ constructor: { name: string }; _peername?: unknown; _handle?: { fd?: number }; remoteAddress?: string; localAddress?: string; _pendingData?: unknown; destroyed?: boolean; readable?: boolean; writable?: boolean }> })._getActiveHandles();
        throw new Error(`before ${JSON.stringify(before)}, now ${JSON.stringify(now)} ${h.map((x) => `${x.constructor.name}:${x._handle?.fd}:${x.destroyed}:${x.readable}:${x.writable}:${x.remoteAddress}`).join(',')}`);
      }
      return true;
    },
    { what: 'the handles of before' },
  );
}
