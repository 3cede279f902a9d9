// The server's side of one holder: spawning it detached, and the authenticated control
// connection to it (both for a fresh spawn and for adoption after a server restart).
import { spawnReady } from '../spawnReady.js';
import { connectUnix, type Connection } from '../protocol/connection.js';
import { connectHandshake } from '../protocol/handshake.js';
import { holderSchema, type FromHolder, type HolderState, type ToHolder } from '../protocol/messages.js';
import type { HolderInit } from '../protocol/holderInit.js';
import { ProtocolError } from '../protocol/errors.js';
import { parseHolderStatus } from '../protocol/statusLine.js';

/** A holder has this long to create its PTY and report ready (SPEC §10: creation has a deadline). */
export const HOLDER_START_DEADLINE_MS = 10_000;
/** How far apart a holder that does not answer (yet) is tried again. */
export const HOLDER_RECONNECT_DELAY_MS = 300;
/** Connect plus handshake to a holder's socket. */
const HOLDER_CONNECT_TIMEOUT_MS = 2_000;

export interface SpawnedHolder {
  pid: number;
  childPid: number | null;
}

export interface HolderSpawnSpec {
  entry: string;
  init: HolderInit;
  env: NodeJS.ProcessEnv;
}

/**
 * A holder is resident, one per tab, so its memory counts once per tab. V8 lets the young
 * generation grow to 16 MiB semi-spaces under a flood and keeps them, and starts 4 platform
 * worker threads. With a 1 MiB semi-space and one worker, a tab with 2,000 lines of history
 * measured 23.2 MiB PSS instead of 25.6 MiB, and 32 MiB of output took the same time
 * (`node bench/run.mjs --only throughput,memory`, 3 rounds each).
 */
const HOLDER_NODE_FLAGS = ['--max-semi-space-size=1', '--v8-pool-size=1'];

/** Starts a holder process detached (own session, no terminal) and waits for its ready line. */
export async function spawnHolder(spec: HolderSpawnSpec): Promise<SpawnedHolder> {
  const ready = await spawnReady([...HOLDER_NODE_FLAGS, spec.entry, '__holder'], {
    env: spec.env,
    timeoutMs: HOLDER_START_DEADLINE_MS,
    input: JSON.stringify(spec.init) + '\n',
    killOnTimeout: true,
  });
  if (ready.t === 'error') throw ready.err;
  if (ready.t === 'timeout') throw Object.assign(new Error('The holder did not start in time.'), { code: 'holder-timeout' });
  if (ready.t === 'end') throw Object.assign(new Error('The holder exited before it was ready.'), { code: 'holder-died' });
  const reply = parseHolderStatus(ready.line);
  if (reply instanceof ProtocolError) throw Object.assign(new Error('The holder sent an unreadable ready line.'), { code: 'holder-unreadable' });
  if ('failed' in reply) throw Object.assign(new Error('The holder failed to start.'), { code: reply.failed });
  return reply;
}

/** A holder's connection, as the server sees it. */
export type HolderConnection = Connection<FromHolder, ToHolder>;

/** Connects to a holder's socket and authenticates both ways with its derived key. An abort
 * closes the connection, so the handshake fails at once instead of running out its time. */
export async function connectHolder(socketPath: string, key: Buffer, signal?: AbortSignal): Promise<HolderConnection> {
  signal?.throwIfAborted();
  const conn = await connectUnix<FromHolder, ToHolder>(socketPath, holderSchema, HOLDER_CONNECT_TIMEOUT_MS);
  const abort = (): void => conn.close();
  if (signal?.aborted) abort();
  else signal?.addEventListener('abort', abort, { once: true });
  try {
    await connectHandshake(conn, { role: 'server', key, methods: ['state', 'terminate', 'controller'], timeoutMs: HOLDER_CONNECT_TIMEOUT_MS });
  } catch (err) {
    conn.close();
    throw err;
  } finally {
    signal?.removeEventListener('abort', abort);
  }
  return conn;
}

/** Waits for the first `state` message a holder sends after the handshake; the connection closing
 * first (a holder that vanished mid-message, or a stop) rejects it. */
export function firstState(conn: HolderConnection, timeoutMs = HOLDER_CONNECT_TIMEOUT_MS): Promise<HolderState> {
  return new Promise((resolve, reject) => {
    const settle = (): void => {
      clearTimeout(timer);
      offMessage();
      offClose();
    };
    const timer = setTimeout(() => {
      settle();
      reject(Object.assign(new Error('The holder sent no state.'), { code: 'timeout' }));
    }, timeoutMs);
    const offMessage = conn.onMessage((m) => {
      if (m.t !== 'state') return;
      settle();
      resolve(m.state);
    });
    const offClose = conn.onClose(() => {
      settle();
      reject(Object.assign(new Error('The holder closed the connection.'), { code: 'closed' }));
    });
  });
}
