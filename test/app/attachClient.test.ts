// The attach client against a server and a holder in this process (issue 29): Unix sockets
// speaking the real protocol (handshake, framing, control and data messages), fake terminal
// streams, and the process hooks on an emitter of the test's. No a1 binary, no child process. The
// failure paths: a server that closes its socket halfway through a message, a holder that does
// the same halfway through a frame, leaving while a request is unanswered, and events that come
// after the client left.
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { attach, type ClientOptions } from '../../src/app/client.js';
import { ENTER_SEQUENCE } from '../../src/app/outerTerminal.js';
import { ServerClient } from '../../src/client/serverClient.js';
import { Connection } from '../../src/protocol/connection.js';
import { acceptHandshake } from '../../src/protocol/handshake.js';
import { ProtocolError } from '../../src/protocol/errors.js';
import { encodeFrame } from '../../src/protocol/frame.js';
import { controlMethods } from '../../src/protocol/methods.js';
import { controlSchema, dataSchema, type ControlToClient, type ControlToServer, type DataToClient, type DataToHolder, type TabInfo } from '../../src/protocol/messages.js';
import { DEFAULT_COLOR, DEFAULT_MODES, type SurfacePatch } from '../../src/surface/types.js';
import { resolvePaths, type Paths } from '../../src/paths.js';
import { defaultConfig } from '../../src/config.js';
import { loadOrCreateClientToken } from '../../src/security.js';
import { makeHome, type TestHome } from '../helpers/home.js';
import { waitFor } from '../helpers/wait.js';
import { holderStateOf } from '../helpers/holderState.js';

const TAB = 't1';
const PROOF_KEY = Buffer.alloc(32, 9);
const OPS = ['ensureTab', 'view', 'claim', 'list'];
const COLS = 80;
const ROWS = 24;

const tab: TabInfo = { id: TAB, name: 'shell', nameSource: 'auto', ord: 0, cwd: '/', lifecycle: 'running', holderPid: process.pid, childPid: null, exit: null, title: '' };
const surface = (rows: number): SurfacePatch => ({
  full: true,
  cols: COLS,
  rows,
  lines: [{ y: 0, runs: [{ s: 'hello from the holder', fg: DEFAULT_COLOR, bg: DEFAULT_COLOR, fl: 0 }] }],
  cursor: { x: 0, y: 0, visible: true, shape: 'block', blink: false },
  modes: DEFAULT_MODES,
  title: '',
});

type ControlConn = Connection<ControlToServer, ControlToClient>;
type DataConn = Connection<DataToHolder, DataToClient>;
/** The server's answer to a request: a result, or none ever. */
type Answer = { result: unknown } | 'never';

/** Closed from this side or the other. */
const isClosed = (socket: net.Socket) => socket.destroyed || socket.readableEnded;

/** A server socket that authenticates clients with the profile's token and answers requests. */
class FakeServer {
  readonly sockets: net.Socket[] = [];
  readonly conns: ControlConn[] = [];
  /** Every message a client sent after its handshake, with the connection's index. */
  readonly received: { conn: number; msg: ControlToServer }[] = [];
  private readonly server: net.Server;

  constructor(
    token: Buffer,
    private readonly answer: (op: string, args: Record<string, unknown>) => Answer,
  ) {
    this.server = net.createServer((socket) => {
      this.sockets.push(socket);
      const conn: ControlConn = new Connection(socket, controlSchema);
      acceptHandshake(conn, {
        role: 'server',
        methods: controlMethods(['topology', 'tickets'], OPS),
        keyFor: (auth) => (auth.role === 'client' ? token : new ProtocolError('auth', 'Unknown role.')),
      }).then(
        () => this.serve(conn),
        () => undefined,
      );
    });
  }

  private serve(conn: ControlConn): void {
    const n = this.conns.push(conn) - 1;
    conn.onMessage((msg) => {
      this.received.push({ conn: n, msg });
      if (msg.t === 'subscribe') conn.send({ t: 'snapshot', rev: 1, epoch: 1, serverPid: process.pid, tabs: [tab], notices: [] });
      if (msg.t !== 'request') return;
      const answer = this.answer(msg.op, msg.args as Record<string, unknown>);
      if (answer !== 'never') conn.send({ t: 'reply', id: msg.id, ok: true, result: answer.result, error: null });
    });
  }

  requests(op: string): { conn: number; args: Record<string, unknown> }[] {
    return this.received.flatMap(({ conn, msg }) => (msg.t === 'request' && msg.op === op ? [{ conn, args: msg.args as Record<string, unknown> }] : []));
  }

  listen(socketPath: string): Promise<void> {
    return new Promise((resolve) => this.server.listen(socketPath, resolve));
  }

  close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

type HolderBehaviour = (conn: DataConn, socket: net.Socket) => void;

/** Answers attach as a holder does: its state, who controls the tab, and the screen. */
const answersAttach: HolderBehaviour = (conn) => {
  conn.onMessage((m) => {
    if (m.t !== 'attach') return;
    conn.send({ t: 'state', state: holderStateOf({ tabId: TAB, cols: m.cols, rows: m.rows }) });
    conn.send({ t: 'controller', clientId: null, rev: 0 });
    conn.send({ t: 'surface', patch: surface(m.rows) });
  });
};

/** Half of a surface frame after attach, then the holder is gone. */
const vanishesMidFrame: HolderBehaviour = (conn, socket) => {
  conn.onMessage((m) => {
    if (m.t !== 'attach') return;
    const frame = encodeFrame({ t: 'surface', patch: surface(m.rows) });
    socket.end(frame.subarray(0, Math.floor(frame.length / 2)));
  });
};

/** A holder's data socket: each connection gets the next behaviour (the last repeats); a held
 * connection starts its handshake only once `release()` is called. */
class FakeHolder {
  readonly sockets: net.Socket[] = [];
  readonly attaches: number[] = [];
  private readonly server: net.Server;
  private held: (() => void)[] = [];

  constructor(
    private readonly behaviours: HolderBehaviour[],
    private holding = false,
  ) {
    this.server = net.createServer((socket) => {
      this.sockets.push(socket);
      const n = this.sockets.length - 1;
      const behaviour = behaviours[Math.min(n, behaviours.length - 1)];
      const start = () => {
        const conn: DataConn = new Connection(socket, dataSchema);
        conn.onMessage((m) => {
          if (m.t === 'attach') this.attaches.push(n);
        });
        acceptHandshake(conn, {
          role: 'holder',
          methods: ['surface', 'input', 'resize', 'history', 'promptOffer'],
          keyFor: (auth) => (auth.role === 'data' ? PROOF_KEY : new ProtocolError('auth', 'Unknown role.')),
        }).then(
          () => behaviour(conn, socket),
          () => undefined,
        );
      };
      if (this.holding) this.held.push(start);
      else start();
    });
  }

  /** Held connections start their handshakes now, and later ones at once. */
  release(): void {
    this.holding = false;
    for (const start of this.held.splice(0)) start();
  }

  listen(socketPath: string): Promise<void> {
    return new Promise((resolve) => this.server.listen(socketPath, resolve));
  }

  close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** The outer terminal: what the client writes, in order, as it writes it. */
function fakeTerminal(): { stdin: NodeJS.ReadStream; stdout: NodeJS.WriteStream; written: string[] } {
  const written: string[] = [];
  const stdin = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => stdin });
  const stdout = Object.assign(new EventEmitter(), {
    isTTY: true,
    columns: COLS,
    rows: ROWS,
    write: (chunk: string | Uint8Array) => written.push(String(chunk)) > 0,
  });
  return { stdin: stdin as unknown as NodeJS.ReadStream, stdout: stdout as unknown as NodeJS.WriteStream, written };
}

interface Client {
  exited: Promise<number>;
  /** The exit code once run() resolved; null while it runs. */
  code(): number | null;
  hooks: EventEmitter;
  written: string[];
}

let home: TestHome;
let paths: Paths;
let token: Buffer;
let holderSock: string;
let closers: (() => Promise<void>)[];
let clients: Client[];

beforeEach(() => {
  home = makeHome();
  paths = resolvePaths({ env: home.env });
  fs.mkdirSync(paths.socketDir, { recursive: true, mode: 0o700 });
  fs.mkdirSync(path.dirname(paths.clientTokenFile), { recursive: true, mode: 0o700 });
  token = loadOrCreateClientToken(paths.clientTokenFile);
  holderSock = path.join(paths.socketDir, 'holder-t1.sock');
  closers = [];
  clients = [];
});

afterEach(async () => {
  // A client still running leaves first, so it starts no server when its peers go.
  for (const c of clients) if (c.code() === null) c.hooks.emit('SIGTERM');
  await Promise.all(clients.map((c) => c.exited));
  await Promise.all(closers.map((close) => close()));
  home.cleanup();
});

/** Grants a view of the tab on the fake holder's socket. */
const grant = () => ({ result: { socketPath: holderSock, ticket: { clientId: 'c', tabId: TAB }, proofKey: PROOF_KEY.toString('base64') } });
const answers =
  (over: Record<string, () => Answer> = {}) =>
  (op: string): Answer =>
    over[op]?.() ?? (op === 'ensureTab' ? { result: { tabId: TAB } } : op === 'view' ? grant() : { result: {} });

async function fakeServer(answer: (op: string, args: Record<string, unknown>) => Answer): Promise<FakeServer> {
  const s = new FakeServer(token, answer);
  await s.listen(paths.serverSock);
  closers.push(() => s.close());
  return s;
}

async function fakeHolder(behaviours: HolderBehaviour[], opts: { holding?: boolean } = {}): Promise<FakeHolder> {
  const h = new FakeHolder(behaviours, opts.holding);
  await h.listen(holderSock);
  closers.push(() => h.close());
  return h;
}

async function startClient(): Promise<Client> {
  const opts: ClientOptions = { paths, profile: paths.profile, config: defaultConfig(home.env), env: home.env, umask: 0o022 };
  const server = await ServerClient.connect(paths, { start: false, profile: paths.profile, env: home.env });
  const { stdin, stdout, written } = fakeTerminal();
  const hooks = new EventEmitter();
  let code: number | null = null;
  const exited = attach(opts, server, { stdin, stdout, hooks }).then((c) => (code = c));
  const client = { exited, code: () => code, hooks, written };
  clients.push(client);
  return client;
}

/** The client is attached: its view of the tab painted the holder's screen. */
async function attached(c: Client): Promise<void> {
  await waitFor(() => c.written.join('').includes('hello from the holder'), { what: 'the holder screen painted' });
}

describe('attach client: a server that closes its socket halfway through a message', () => {
  it('loses the link without an error, subscribes to the server again and views the tab again', async () => {
    const server = await fakeServer(answers());
    await fakeHolder([answersAttach]);
    const c = await startClient();
    await attached(c);
    const half = encodeFrame({ t: 'tab', rev: 2, tab: { ...tab, name: 'renamed' } });
    server.sockets[0].end(half.subarray(0, Math.floor(half.length / 2)));
    const resubscribed = await waitFor(() => server.received.find((r) => r.conn === 1 && r.msg.t === 'subscribe'), { what: 'a second subscribe' });
    const first = server.received.find((r) => r.conn === 0 && r.msg.t === 'subscribe');
    expect(resubscribed.msg).toMatchObject({ clientId: (first?.msg as { clientId: string }).clientId });
    // The replacement is told which tab this client views.
    await waitFor(() => server.requests('view').some((r) => r.conn === 1 && r.args.tabId === TAB), { what: 'the tab viewed again' });
    expect(c.code()).toBeNull();
    c.hooks.emit('SIGTERM');
    expect(await c.exited).toBe(0);
  });
});

describe('attach client: a holder that vanishes halfway through a frame', () => {
  it('views the tab again and paints the next holder connection', async () => {
    const server = await fakeServer(answers());
    const holder = await fakeHolder([vanishesMidFrame, answersAttach]);
    const c = await startClient();
    await attached(c);
    expect(holder.attaches).toEqual([0, 1]);
    expect(server.requests('view').length).toBe(2);
    expect(c.code()).toBeNull();
    c.hooks.emit('SIGTERM');
    expect(await c.exited).toBe(0);
    await waitFor(() => isClosed(holder.sockets[1]), { what: 'the view closed' });
  });
});

describe('attach client: leaving while a request is unanswered', () => {
  it('resolves run() with the code, never enters the outer terminal, and leaves no socket or timer', async () => {
    const before = process.getActiveResourcesInfo().length;
    const server = await fakeServer(answers({ ensureTab: () => 'never' }));
    const c = await startClient();
    await waitFor(() => server.requests('ensureTab').length === 1, { what: 'ensureTab asked' });
    c.hooks.emit('SIGTERM');
    expect(await c.exited).toBe(0);
    await waitFor(() => isClosed(server.sockets[0]), { what: 'the control socket closed' });
    expect(c.written.join('')).not.toContain(ENTER_SEQUENCE);
    await server.close();
    await waitFor(() => process.getActiveResourcesInfo().length <= before, { what: `no more resources than the ${before} before` });
  });

  it('leaves while the first view connects; the holder answering afterwards is closed, and nothing is written', async () => {
    const server = await fakeServer(answers());
    const holder = await fakeHolder([answersAttach], { holding: true });
    const c = await startClient();
    await waitFor(() => holder.sockets.length === 1, { what: 'the holder dialled' });
    server.conns[0].send({ t: 'hostStopping' });
    // run() waits for the view it began: it resolves once the holder answers.
    await waitFor(() => c.written.join('').includes('a1 was stopped'), { what: 'the parting message' });
    expect(c.code()).toBeNull();
    const parting = c.written.length;
    holder.release();
    expect(await c.exited).toBe(0);
    await waitFor(() => isClosed(holder.sockets[0]), { what: 'the late view closed' });
    expect(c.written.length).toBe(parting);
  });
});

describe('attach client: events after leaving', () => {
  it('writes nothing after the parting message, whatever the server and the holder send', async () => {
    const server = await fakeServer(answers());
    const holder = await fakeHolder([answersAttach]);
    const c = await startClient();
    await attached(c);
    server.conns[0].send({ t: 'hostStopping' });
    server.conns[0].send({ t: 'tab', rev: 2, tab: { ...tab, name: 'late' } });
    expect(await c.exited).toBe(0);
    const text = c.written.join('');
    expect(text.endsWith('\x1b[2ma1 was stopped (a1 tabs host stop) · run a1 to start it again\x1b[0m\n')).toBe(true);
    const parting = c.written.length;
    // The holder's frame and the server's update come after the client closed both sockets.
    holder.sockets[0].write(encodeFrame({ t: 'surface', patch: surface(ROWS - 1) }));
    server.sockets[0].write(encodeFrame({ t: 'tabRemoved', rev: 3, id: TAB }));
    await waitFor(() => isClosed(holder.sockets[0]) && isClosed(server.sockets[0]), { what: 'both sockets closed by the client' });
    expect(c.written.length).toBe(parting);
  });
});
