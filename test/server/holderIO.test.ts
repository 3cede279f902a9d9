// The server's holder IO against a fake holder in this process (issue 29): a Unix socket server
// speaking the real protocol (handshake, framing, holder messages) and a real core behind the IO,
// so what the IO feeds is decided as the server decides it. The failure paths: a holder that
// vanishes mid-message, a dispose while a connect or the first state is awaited or a retry
// pauses, and events that arrive late (after the tab closed, or after dispose).
import fs from 'node:fs';
import net from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HolderIO } from '../../src/server/holderIO.js';
import { boot, DEFAULT_TAB_SPEC, step, type CoreEvent, type CoreState, type DurableTab, type Effect } from '../../src/server/core/index.js';
import { Connection } from '../../src/protocol/connection.js';
import { acceptHandshake } from '../../src/protocol/handshake.js';
import { encodeFrame } from '../../src/protocol/frame.js';
import { holderSchema, type FromHolder, type HolderState, type ToHolder } from '../../src/protocol/messages.js';
import { resolvePaths, type Paths } from '../../src/paths.js';
import { defaultConfig } from '../../src/config.js';
import { deriveKey } from '../../src/security.js';
import { procStartTime } from '../../src/proc.js';
import type { Registry } from '../../src/store/registry.js';
import type { TerminateIO } from '../../src/lifecycle/terminate.js';
import type { Logger } from '../../src/log.js';
import { makeHome, type TestHome } from '../helpers/home.js';
import { waitFor } from '../helpers/wait.js';
import { holderStateOf } from '../helpers/holderState.js';

const TAB = 't1';
const INC = 'h1';
const SECRET = Buffer.alloc(32, 7);
/** Below the 2 s a connect or first state may take (holderLink.ts), with room for a slow machine. */
const HOLDER_CONNECT_WAIT_MS = 1_500;
/** The fake holder claims this process's pid, so the IO finds its process alive and its own. */
const HOLDER = { inc: INC, pid: process.pid, startTime: procStartTime(process.pid)! };

const holderState = (over: Partial<HolderState> = {}): HolderState => holderStateOf({ tabId: TAB, holderInc: INC, holderPid: process.pid, ...over });

/** The real core behind the IO: commits are answered at once, as better-sqlite3 answers them. */
class CoreDriver {
  state: CoreState;
  readonly events: CoreEvent[] = [];
  readonly effects: Effect[] = [];

  constructor(tab: DurableTab) {
    const b = boot('srv', Date.now(), { epoch: 0, rev: 0, tabs: { [tab.id]: tab } });
    this.state = b.state;
    this.run(b.effects);
  }

  feed(e: CoreEvent): void {
    this.events.push(e);
    const r = step(this.state, e);
    this.state = r.state;
    this.run(r.effects);
  }

  private run(effects: Effect[]): void {
    for (const fx of effects) {
      if (fx.t === 'commit') {
        const r = step(this.state, { t: 'committed', id: fx.id, result: 'ok' });
        this.state = r.state;
        this.run(r.effects);
      } else this.effects.push(fx);
    }
  }
}

type Behaviour = (conn: Connection<ToHolder, FromHolder>, socket: net.Socket) => void;

/** A holder's socket: each connection is given to the next behaviour (the last one repeats),
 * after the handshake unless the behaviour is `silent`. */
class FakeHolder {
  readonly sockets: net.Socket[] = [];
  /** Bytes each connection sent this side, in order of the sockets. */
  readonly bytesIn: number[] = [];
  readonly handshakes: Connection<ToHolder, FromHolder>[] = [];
  readonly received: ToHolder[] = [];
  private readonly server: net.Server;

  constructor(socketPath: string, behaviours: (Behaviour | 'silent')[]) {
    const key = deriveKey(SECRET, 'holder', TAB, INC);
    this.server = net.createServer((socket) => {
      this.sockets.push(socket);
      const n = this.bytesIn.push(0) - 1;
      socket.on('data', (chunk) => (this.bytesIn[n] += chunk.length));
      const behaviour = behaviours[Math.min(this.sockets.length, behaviours.length) - 1];
      if (behaviour === 'silent') return;
      const conn = new Connection<ToHolder, FromHolder>(socket, holderSchema);
      void acceptHandshake(conn, { role: 'holder', methods: [], keyFor: () => key }).then(
        () => {
          this.handshakes.push(conn);
          conn.onMessage((m) => this.received.push(m));
          behaviour(conn, socket);
        },
        () => undefined,
      );
    });
  }

  listen(socketPath: string): Promise<void> {
    return new Promise((resolve) => this.server.listen(socketPath, resolve));
  }

  closed(socket: net.Socket): boolean {
    return socket.destroyed || socket.readableEnded;
  }

  close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

const answers: Behaviour = (conn) => conn.send({ t: 'state', state: holderState() });
/** Half of a state frame, then the holder is gone. */
const vanishesMidMessage: Behaviour = (_conn, socket) => {
  const frame = encodeFrame({ t: 'state', state: holderState() });
  socket.end(frame.subarray(0, Math.floor(frame.length / 2)));
};
const sendsNoState: Behaviour = () => undefined;

interface Rig {
  io: HolderIO;
  core: CoreDriver;
  logged: string[];
}

let home: TestHome;
let paths: Paths;
let holders: FakeHolder[];
let rigs: Rig[];

beforeEach(() => {
  home = makeHome();
  paths = resolvePaths({ env: home.env });
  fs.mkdirSync(paths.socketDir, { recursive: true, mode: 0o700 });
  holders = [];
  rigs = [];
});

afterEach(async () => {
  for (const r of rigs) r.io.dispose();
  await Promise.all(holders.map((h) => h.close()));
  home.cleanup();
});

function rig(): Rig {
  const tab: DurableTab = { id: TAB, name: 'a', ord: 0, sessionId: null, desired: 'running', lifecycle: 'running', holder: HOLDER, child: null, lastExit: null, controllerRev: 0, spec: DEFAULT_TAB_SPEC };
  const core = new CoreDriver(tab);
  const logged: string[] = [];
  const log: Logger = { info: (e) => logged.push(e), warn: (e) => logged.push(e), error: (e) => logged.push(e) };
  const io = new HolderIO({
    paths,
    config: defaultConfig(home.env),
    registry: {} as Registry,
    secret: SECRET,
    epoch: core.state.epoch,
    entry: '/nonexistent/a1.js',
    log,
    holderEnv: {},
    terminateIO: {} as TerminateIO,
    core: { state: () => core.state, feed: (e) => core.feed(e), stillWriter: () => true },
  });
  const r = { io, core, logged };
  rigs.push(r);
  return r;
}

async function fakeHolder(behaviours: (Behaviour | 'silent')[]): Promise<FakeHolder> {
  const h = new FakeHolder(paths.holderSock(TAB, INC), behaviours);
  holders.push(h);
  await h.listen(paths.holderSock(TAB, INC));
  return h;
}

const fed = (r: Rig, t: CoreEvent['t']) => r.core.events.filter((e) => e.t === t);

/** The core asked for this verification when it booted (a recorded holder is adopted). */
function verifyAsked(r: Rig) {
  const fx = r.core.effects.find((f): f is Extract<Effect, { t: 'verifyHolder' }> => f.t === 'verifyHolder');
  expect(fx).toBeDefined();
  return r.io.verify(fx!.tabId, fx!.ref);
}

/** A rig whose holder is verified and linked. */
async function bound(behaviour: Behaviour = answers): Promise<{ r: Rig; h: FakeHolder }> {
  const h = await fakeHolder([behaviour]);
  const r = rig();
  await verifyAsked(r);
  expect(r.core.state.tabs[TAB].bound).toBe(true);
  return { r, h };
}

describe('holder IO: a holder that vanishes mid-message', () => {
  it('tries a holder that closed halfway through its first state again, and binds it once it answers', async () => {
    const h = await fakeHolder([vanishesMidMessage, answers]);
    const r = rig();
    await verifyAsked(r);
    expect(h.sockets.length).toBe(2);
    expect(r.logged).toContain('holder-reconnect-failed');
    expect(fed(r, 'holderVerified')).toHaveLength(1);
    expect(r.core.state.tabs[TAB]).toMatchObject({ bound: true, verifying: false });
  });

  it('reports a bound link that breaks mid-message closed once, and nothing of the half message', async () => {
    let socket: net.Socket | null = null;
    const { r } = await bound((conn, s) => {
      socket = s;
      answers(conn, s);
    });
    const frame = encodeFrame({ t: 'state', state: holderState({ title: 'half' }) });
    socket!.end(frame.subarray(0, frame.length - 3));
    await waitFor(() => fed(r, 'linkClosed').length > 0, { what: 'the link reported closed' });
    expect(fed(r, 'linkClosed')).toEqual([{ t: 'linkClosed', tabId: TAB, inc: INC }]);
    expect(fed(r, 'holderState')).toEqual([]);
    // The core verifies it again: the link broke, not (yet known) the holder.
    expect(r.core.state.tabs[TAB]).toMatchObject({ bound: false, verifying: true });
  });
});

describe('holder IO: a dispose during a pending await', () => {
  it('ends a connect whose handshake is in flight: the socket closes and nothing is fed', async () => {
    const h = await fakeHolder(['silent']);
    const r = rig();
    const verifying = verifyAsked(r);
    await waitFor(() => h.sockets.length === 1, { what: 'the IO connected' });
    r.io.dispose();
    await verifying;
    await waitFor(() => h.closed(h.sockets[0]), { what: 'the connection closed' });
    expect(r.core.events).toEqual([]);
    expect(h.sockets).toHaveLength(1);
    // Closed by the dispose, not by the handshake's deadline (which would have sent a reject).
    expect(h.bytesIn[0]).toBe(0);
  });

  it('ends a verification waiting for the first state: the socket closes and nothing is fed', async () => {
    const h = await fakeHolder([sendsNoState]);
    const r = rig();
    const verifying = verifyAsked(r);
    await waitFor(() => h.handshakes.length === 1, { what: 'the handshake done' });
    const disposedAt = Date.now();
    r.io.dispose();
    await verifying;
    // Not the first state's deadline running out: the dispose closed the connection.
    expect(Date.now() - disposedAt).toBeLessThan(HOLDER_CONNECT_WAIT_MS);
    await waitFor(() => h.closed(h.sockets[0]), { what: 'the connection closed' });
    expect(r.core.events).toEqual([]);
  });

  it('ends a retry pause: no further attempt is made and nothing is fed', async () => {
    // No socket at all: the holder lives (this process) but does not answer, so it is retried.
    const r = rig();
    const verifying = verifyAsked(r);
    await waitFor(() => r.logged.includes('holder-reconnect-failed'), { what: 'the first attempt failed' });
    r.io.dispose();
    await verifying;
    expect(r.logged.filter((e) => e === 'holder-reconnect-failed')).toHaveLength(1);
    expect(r.core.events).toEqual([]);
  });
});

describe('holder IO: late events', () => {
  it("hands a closed tab's late holder state to the core, which changes nothing", async () => {
    const { r, h } = await bound();
    r.core.feed({ t: 'clientAttached', clientId: 'c1' });
    r.core.feed({ t: 'request', clientId: 'c1', reqId: 1, req: { op: 'close', tabId: TAB } });
    expect(r.core.state.tabs[TAB]).toBeUndefined();
    const before = { state: r.core.state, effects: r.core.effects.length };
    h.handshakes[0].send({ t: 'state', state: holderState({ lifecycle: 'exited', exit: { code: 0, signal: null }, agent: { kind: 'claude', sessionId: 'late', state: null, name: null, seq: 1 } }) });
    await waitFor(() => fed(r, 'holderState').length === 1, { what: 'the late state fed' });
    expect(r.core.state).toBe(before.state);
    expect(r.core.effects.length).toBe(before.effects);
  });

  it('drops a state on its way when disposed, and does not report the links it closes', async () => {
    const { r, h } = await bound();
    h.handshakes[0].send({ t: 'state', state: holderState({ title: 'late' }) });
    r.io.dispose();
    await waitFor(() => h.closed(h.sockets[0]), { what: 'the link closed' });
    expect(fed(r, 'holderState')).toEqual([]);
    expect(fed(r, 'linkClosed')).toEqual([]);
  });

  it('drops a cleared start its tab no longer makes: nothing is launched', async () => {
    const r = rig();
    r.core.feed({ t: 'clientAttached', clientId: 'c1' });
    r.core.feed({ t: 'request', clientId: 'c1', reqId: 1, req: { op: 'create', name: 'b', sessionId: null } });
    const spawn = r.core.effects.find((f): f is Extract<Effect, { t: 'spawnHolder' }> => f.t === 'spawnHolder');
    expect(spawn).toBeDefined();
    r.core.feed({ t: 'request', clientId: 'c1', reqId: 2, req: { op: 'close', tabId: spawn!.tabId } });
    const plan = { command: ['/bin/true'], resume: null, agentKind: null, cwd: '/', env: {}, umask: 0o22, cols: 80, rows: 24 };
    await r.io.clear(spawn!, plan);
    expect(fed(r, 'startCleared')).toEqual([{ t: 'startCleared', tabId: spawn!.tabId, inc: spawn!.inc }]);
    expect(r.core.effects.filter((f) => f.t === 'launchHolder')).toEqual([]);
    expect(r.core.state.spawns).toEqual({});
  });
});
