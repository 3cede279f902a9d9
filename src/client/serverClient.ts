// Finding, starting and talking to the profile's server (SPEC §15): used by the attach
// client and by every maintenance command.
import fs from 'node:fs';
import { spawnReady } from '../spawnReady.js';
import { lockHolder } from '../lockHolder.js';
import { processState } from '../proc.js';
import { writerLockPath } from '../store/layout.js';
import { connectUnix, type Connection } from '../protocol/connection.js';
import { connectHandshake } from '../protocol/handshake.js';
import { controlSchema, type ControlToClient, type ControlToServer } from '../protocol/messages.js';
import { ProtocolError } from '../protocol/errors.js';
import { currentResult } from '../protocol/olderNames.js';
import { parseStartStatus } from '../protocol/statusLine.js';
import { PeerMethods } from '../protocol/methods.js';
import type { RequestArgs, RequestOp, RequestResult } from '../protocol/requests.js';
import { readClientToken } from '../security.js';
import type { Paths } from '../paths.js';

/** How long a launching client waits for a server it started to report ready. */
export const SERVER_START_TIMEOUT_MS = 5_000;
/** A connect with no completed handshake within this is an unresponsive server... */
const HANDSHAKE_TIMEOUT_MS = 2_000;
/** ...unless the lock's holder is running (not stopped): a server starting tens of holders on a
 * loaded 2-core machine can take longer to answer, and killing it would only start that work
 * again. It gets one more handshake of this length before it is replaced. */
const BUSY_HANDSHAKE_TIMEOUT_MS = 8_000;

/** An op's arguments, which may be left out when it takes none. */
export type ArgsOf<K extends RequestOp> = Record<string, never> extends RequestArgs<K> ? [args?: RequestArgs<K>] : [args: RequestArgs<K>];

export class ServerError extends Error {
  constructor(readonly code: string, message: string) {
    super(message);
  }
}

export interface StartResult {
  started: boolean;
}

/** The control connection, as a client sees it. */
export type ServerConnection = Connection<ControlToClient, ControlToServer>;

export class ServerClient {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: ServerError) => void }>();

  private constructor(
    readonly conn: ServerConnection,
    /** True when this call started the server (not when another process won the start race). */
    readonly started: boolean,
    /** What the server said it offers in its handshake. */
    private readonly methods: PeerMethods,
  ) {
    // Topology messages are for the attach client's own listener (src/client/controlLink.ts).
    conn.onMessage((m) => {
      if (m.t !== 'reply') return;
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (m.ok) p.resolve(m.result);
      else p.reject(new ServerError(m.error?.code ?? 'error', m.error?.message ?? 'The server refused the request.'));
    });
    conn.onClose(() => {
      for (const p of this.pending.values()) p.reject(new ServerError('disconnected', 'The connection to the a1 server was lost.'));
      this.pending.clear();
    });
  }

  /** Connects to the running server; with `start`, starts one when none answers, and replaces
   * one that does not answer once its recorded owner is verified and killed (`onReplaced` is
   * told its pid; by default one sentence goes to stderr). */
  static async connect(
    paths: Paths,
    opts: { start: boolean; profile: string; env?: NodeJS.ProcessEnv; onReplaced?: (pid: number) => void },
  ): Promise<ServerClient> {
    let deadline = Date.now() + SERVER_START_TIMEOUT_MS;
    let tried = false;
    let started = false;
    let replaced = false;
    let patient = false;
    let blocked: ServerError | null = null;
    for (;;) {
      try {
        const { conn, methods } = await tryConnect(paths, patient ? BUSY_HANDSHAKE_TIMEOUT_MS : HANDSHAKE_TIMEOUT_MS);
        return new ServerClient(conn, started, methods);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'unresponsive' && !patient && !replaced && isRunning(lockHolder(writerLockPath(paths.stateDir)))) {
          patient = true;
          continue;
        }
        if (code === 'unresponsive' && opts.start && !replaced) {
          replaced = true;
          const pid = await endUnresponsiveServer(paths);
          (opts.onReplaced ?? reportReplaced)(pid);
          deadline = Date.now() + SERVER_START_TIMEOUT_MS;
          continue;
        }
        // A server this client just started (or just replaced) is alive: on a loaded machine its
        // first handshake may take longer than the connect budget, which is no reason to give up.
        if (code === 'unresponsive' && (replaced || tried) && Date.now() < deadline) {
          await new Promise((r) => setTimeout(r, 30));
          continue;
        }
        const absent = code === 'ENOENT' || code === 'ECONNREFUSED' || code === 'no-token';
        if (!absent) throw err instanceof ServerError ? err : new ServerError('unresponsive', 'The a1 server is not responding.');
        if (!opts.start) throw new ServerError('no-server', `No a1 server is running for profile "${paths.profile}".`);
        if (!tried) {
          tried = true;
          try {
            const result = await startServer(paths, opts.profile, opts.env ?? process.env);
            started = result.started;
          } catch (startErr) {
            // Another start may still win within the deadline; only then is the block reported.
            if (!(startErr instanceof ServerError) || startErr.code !== 'recovery-blocked') throw startErr;
            blocked = startErr;
          }
        } else if (Date.now() > deadline) {
          throw blocked ?? new ServerError('start-timeout', 'The a1 server did not start in time.');
        } else {
          await new Promise((r) => setTimeout(r, 30));
        }
      }
    }
  }

  /** Whether the server has a plane-wide method (e.g. `watch`): an older one may lack it. */
  has(method: string): boolean {
    return this.methods.has(method);
  }

  /** Whether the server serves `op`: an older server may lack an op this client knows. */
  serves(op: string): boolean {
    return this.methods.serves(op);
  }

  /** Sends `op`; one the server lacks is refused here, in one sentence, and nothing is sent. */
  request<K extends RequestOp>(op: K, ...rest: ArgsOf<K>): Promise<RequestResult<K>> {
    if (!this.serves(op)) return Promise.reject(unsupported(op));
    const args = rest[0] ?? {};
    const id = this.nextId++;
    return new Promise<RequestResult<K>>((resolve, reject) => {
      this.pending.set(id, { resolve: (result) => resolve(currentResult(op, result) as RequestResult<K>), reject });
      this.conn.send({ t: 'request', id, op, args });
    });
  }

  close(): void {
    this.conn.close();
  }
}

/** SPEC §15: a server that accepts but never completes the handshake is stopped only when the
 * registry's lease row identifies it (pid and start time); anything else is recovery blocked. */
async function endUnresponsiveServer(paths: Paths): Promise<number> {
  // Loaded only here: bare `a1` attaches without the registry's native addon.
  const { endUnresponsiveOwner } = await import('../server/ownerCheck.js');
  try {
    return await endUnresponsiveOwner(paths.stateDir);
  } catch (err) {
    const e = err as { code?: string; message: string };
    throw new ServerError(e.code ?? 'recovery-blocked', e.message);
  }
}

function reportReplaced(pid: number): void {
  process.stderr.write(`a1: the a1 server (pid ${pid}) was not responding; it was stopped and is being replaced.\n`);
}

/** SPEC §6: a method the server lacks disables only that operation, and the user is told why. */
export function unsupported(op: string): ServerError {
  return new ServerError(
    'unsupported',
    `This a1 server is an older version without "${op}"; all else works, and "a1 tabs host stop" upgrades it.`,
  );
}

/** Whether `pid` is a process that runs: not stopped (SIGSTOP, a debugger), not a zombie. */
function isRunning(pid: number | null | undefined): boolean {
  if (!pid) return false;
  const state = processState(pid);
  return state !== null && !'TtZX'.includes(state);
}

async function tryConnect(paths: Paths, handshakeMs: number): Promise<{ conn: ServerConnection; methods: PeerMethods }> {
  const token = readClientToken(paths.clientTokenFile);
  const conn = await connectUnix<ControlToClient, ControlToServer>(paths.serverSock, controlSchema, handshakeMs);
  if (!token) {
    conn.close();
    throw Object.assign(new Error('no client token'), { code: 'no-token' });
  }
  let methods: PeerMethods;
  try {
    const peer = await connectHandshake(conn, { role: 'client', key: token, methods: ['topology', 'tickets'], timeoutMs: handshakeMs });
    methods = new PeerMethods(peer.peerMethods);
  } catch (err) {
    conn.close();
    const code = (err as { code?: string }).code;
    if (code === 'generation') {
      throw new ServerError('generation', 'A different a1 version runs this profile; stop it with "a1 tabs host stop" first.');
    }
    throw new ServerError('unresponsive', 'The a1 server did not complete the handshake.');
  }
  return { conn, methods };
}

/** A server started from inside a tab (`a1 new` there) must not carry that tab's marker: closing
 * the tab would otherwise find the server and its holders by it. */
export function withoutTabMarkers(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { A1_TAB_ID: _tab, A1_BRIDGE: _bridge, A1_BRIDGE_TOKEN: _token, ...rest } = env;
  return rest;
}

/** Spawns the server detached and reads its one status line from fd 3. */
export async function startServer(paths: Paths, profile: string, env: NodeJS.ProcessEnv): Promise<StartResult> {
  const entry = fs.realpathSync(process.argv[1]);
  const ready = await spawnReady([entry, '__server', '--profile', profile], { env: withoutTabMarkers(env), timeoutMs: SERVER_START_TIMEOUT_MS });
  if (ready.t === 'timeout') throw new ServerError('start-timeout', 'The a1 server did not start in time.');
  if (ready.t === 'error') throw new ServerError('start-failed', 'The a1 server could not be started.');
  if (ready.t === 'end') return { started: false };
  const status = parseStartStatus(ready.line, 'serverReady');
  if (status instanceof ProtocolError) throw new ServerError('start-failed', 'The a1 server sent an unreadable status.');
  if (status.kind === 'failed') throw new ServerError(status.error.code, status.error.message);
  return { started: status.kind === 'ready' };
}
