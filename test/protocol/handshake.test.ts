import crypto from 'node:crypto';
import net from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Connection } from '../../src/protocol/connection.js';
import { ProtocolError } from '../../src/protocol/errors.js';
import {
  acceptHandshake,
  connectHandshake,
  PROTOCOL_GENERATION,
  type AcceptOptions,
  type AuthMessage,
  type ConnectOptions,
} from '../../src/protocol/handshake.js';
import { encodeFrame } from '../../src/protocol/frame.js';
import { defineSchema, type Message } from '../../src/protocol/schema.js';
import { waitFor } from '../helpers/wait.js';
import { PATIENT_TIMEOUT_MS, socketLab, type SocketLab } from './sockets.js';

const schema = defineSchema({ ping: { n: 'int' } });
const KEY = crypto.randomBytes(32);
const OTHER_KEY = crypto.randomBytes(32);
/** Short, so timeout tests are quick; the successful paths finish far sooner on a local socket. */
const SHORT_TIMEOUT_MS = 150;

let lab: SocketLab;
beforeEach(() => {
  lab = socketLab();
});
afterEach(async () => {
  await lab.cleanup();
});

interface Accepted {
  conn: Connection;
  raw: net.Socket;
  received: Buffer[];
}

/** A server that wraps each socket in a Connection and records the raw bytes it receives. */
async function listen(onConn?: (accepted: Accepted) => void) {
  const accepted: Accepted[] = [];
  const socketPath = await lab.listen('h.sock', (raw) => {
    const received: Buffer[] = [];
    raw.on('data', (chunk: Buffer) => received.push(chunk));
    const entry = { conn: lab.wrap(raw, schema), raw, received };
    accepted.push(entry);
    onConn?.(entry);
  });
  return { socketPath, acceptedAt: (i: number) => waitFor(() => accepted[i], { what: `accepted ${i}` }) };
}

/** A server running acceptHandshake with `opts` on every connection. */
async function acceptor(opts: Partial<AcceptOptions> = {}) {
  const results: Promise<Awaited<ReturnType<typeof acceptHandshake>>>[] = [];
  const server = await listen(({ conn }) => {
    const result = acceptHandshake(conn, { role: 'holder', methods: ['surface', 'input'], keyFor: () => KEY, timeoutMs: PATIENT_TIMEOUT_MS, ...opts });
    result.catch(() => {}); // observed by the test through `results`
    results.push(result);
  });
  /** The i-th connection's handshake outcome (waiting first for that connection to arrive). */
  const resultAt = (i: number) => waitFor(() => i < results.length && [results[i]], { what: `connection ${i}` }).then(([r]) => r);
  return { ...server, resultAt };
}

/** connectHandshake with a deadline that only a test expecting a timeout shortens. */
function connectPatiently(conn: Connection, opts: ConnectOptions) {
  return connectHandshake(conn, { timeoutMs: PATIENT_TIMEOUT_MS, ...opts });
}

/** A client Connection whose received raw bytes are recorded. */
async function rawClient(socketPath: string) {
  const raw = await lab.rawConnect(socketPath);
  const received: Buffer[] = [];
  raw.on('data', (chunk: Buffer) => received.push(chunk));
  return { conn: lab.wrap(raw, schema), raw, received };
}

function inbox(conn: Connection): Message[] {
  const got: Message[] = [];
  conn.onMessage((msg) => got.push(msg));
  return got;
}

function codeOf(promise: Promise<unknown>): Promise<string> {
  return promise.then(
    () => 'resolved',
    (err) => (err instanceof ProtocolError ? err.code : `not a ProtocolError: ${String(err)}`),
  );
}

describe('handshake', () => {
  it('authenticates both ways and exchanges roles and methods; the key never crosses', async () => {
    const server = await acceptor();
    const client = await rawClient(server.socketPath);
    const connected = await connectPatiently(client.conn, {
      role: 'server',
      key: KEY,
      methods: ['state'],
      extra: { ticket: { clientId: 'c1' } },
    });
    const accepted = await server.resultAt(0);
    expect(connected).toEqual({ peerRole: 'holder', peerMethods: ['surface', 'input'] });
    expect(accepted.peerRole).toBe('server');
    expect(accepted.peerMethods).toEqual(['state']);
    expect(accepted.auth.ticket).toEqual({ clientId: 'c1' });

    const serverSide = await server.acceptedAt(0);
    for (const bytes of [Buffer.concat(serverSide.received), Buffer.concat(client.received)]) {
      expect(bytes.length).toBeGreaterThan(0);
      expect(bytes.includes(KEY)).toBe(false);
    }
  });

  it('hands over to the application with nothing lost, even a message sent at once', async () => {
    const server = await acceptor();
    const client = await rawClient(server.socketPath);
    const serverSide = await server.acceptedAt(0);
    // The acceptor speaks the moment the handshake succeeds, in the same tick as its welcome.
    void server.resultAt(0).then(() => serverSide.conn.send({ t: 'ping', n: 1 }));
    await connectPatiently(client.conn, { role: 'server', key: KEY, methods: [] });
    client.conn.send({ t: 'ping', n: 2 });
    await server.resultAt(0);
    const atClient = inbox(client.conn);
    const atServer = inbox(serverSide.conn);
    await waitFor(() => atClient.length === 1 && atServer.length === 1, { what: 'application messages' });
    expect(atClient).toEqual([{ t: 'ping', n: 1 }]);
    expect(atServer).toEqual([{ t: 'ping', n: 2 }]);
  });

  it('rejects a connector with the wrong key, on both sides', async () => {
    const server = await acceptor();
    const client = await rawClient(server.socketPath);
    const clientCode = codeOf(connectPatiently(client.conn, { role: 'server', key: OTHER_KEY, methods: [] }));
    expect(await codeOf(server.resultAt(0))).toBe('auth');
    expect(await clientCode).toBe('auth');
    await waitFor(() => client.conn.closed && client.raw.destroyed, { what: 'connection closed' });
  });

  it('lets the connector refuse an acceptor that cannot prove the key', async () => {
    const server = await listen(({ conn }) => {
      conn.send({ t: 'hello', gen: PROTOCOL_GENERATION, role: 'holder', nonce: crypto.randomBytes(32), methods: [] });
      conn.onMessage((msg) => {
        if (msg.t === 'auth') conn.send({ t: 'welcome', proof: crypto.randomBytes(32), methods: [] });
      });
    });
    const client = await rawClient(server.socketPath);
    const serverSide = await server.acceptedAt(0);
    const atServer = inbox(serverSide.conn);
    expect(await codeOf(connectPatiently(client.conn, { role: 'server', key: KEY, methods: [] }))).toBe('auth');
    await waitFor(() => atServer.some((m) => m.t === 'reject'), { what: 'reject sent to the impostor' });
    expect(atServer.find((m) => m.t === 'reject')?.code).toBe('auth');
  });

  it('refuses a replayed auth message: every proof is bound to fresh nonces', async () => {
    let recorded: AuthMessage | null = null;
    const server = await acceptor({
      keyFor: (auth) => {
        recorded ??= auth;
        return KEY;
      },
    });
    const first = await rawClient(server.socketPath);
    await connectPatiently(first.conn, { role: 'server', key: KEY, methods: [] });
    await server.resultAt(0);

    const replay = await rawClient(server.socketPath);
    const atReplay = inbox(replay.conn);
    await waitFor(() => atReplay.some((m) => m.t === 'hello'), { what: 'hello' });
    replay.conn.send({ ...recorded! });
    expect(await codeOf(server.resultAt(1))).toBe('auth');
  });

  it('passes on the refusal keyFor returns, and turns a throwing keyFor into auth', async () => {
    let calls = 0;
    const server = await acceptor({
      keyFor: () => {
        calls++;
        if (calls === 1) return new ProtocolError('auth', 'Ticket refused (expired).');
        throw new TypeError('ticket.mac is not a string');
      },
    });
    const first = await rawClient(server.socketPath);
    const err = await connectPatiently(first.conn, { role: 'data', key: KEY, methods: [] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProtocolError);
    expect(err).toMatchObject({ code: 'auth', message: 'Ticket refused (expired).' });
    expect(await codeOf(server.resultAt(0))).toBe('auth');

    const second = await rawClient(server.socketPath);
    expect(await codeOf(connectPatiently(second.conn, { role: 'data', key: KEY, methods: [] }))).toBe('auth');
    expect(await codeOf(server.resultAt(1))).toBe('auth');
  });

  it('refuses a connector of another protocol generation and tells it why', async () => {
    const server = await acceptor();
    const client = await rawClient(server.socketPath);
    const atClient = inbox(client.conn);
    await waitFor(() => atClient.some((m) => m.t === 'hello'), { what: 'hello' });
    client.conn.send({
      t: 'auth',
      gen: PROTOCOL_GENERATION + 1,
      role: 'server',
      proof: crypto.randomBytes(32),
      nonce: crypto.randomBytes(32),
      methods: [],
    });
    expect(await codeOf(server.resultAt(0))).toBe('generation');
    await waitFor(() => atClient.some((m) => m.t === 'reject'), { what: 'reject' });
    const reject = atClient.find((m) => m.t === 'reject')!;
    expect(reject.code).toBe('generation');
    expect(reject.message).toMatch(/stop the host/);
  });

  it('refuses an acceptor of another protocol generation and tells it why', async () => {
    const server = await listen(({ conn }) => {
      conn.send({ t: 'hello', gen: PROTOCOL_GENERATION + 1, role: 'holder', nonce: crypto.randomBytes(32), methods: [] });
    });
    const client = await rawClient(server.socketPath);
    const serverSide = await server.acceptedAt(0);
    const atServer = inbox(serverSide.conn);
    expect(await codeOf(connectPatiently(client.conn, { role: 'server', key: KEY, methods: [] }))).toBe('generation');
    await waitFor(() => atServer.some((m) => m.t === 'reject'), { what: 'reject' });
    expect(atServer.find((m) => m.t === 'reject')?.code).toBe('generation');
  });

  it('times out an acceptor whose peer says nothing, and closes the connection', async () => {
    const server = await acceptor({ timeoutMs: SHORT_TIMEOUT_MS });
    const client = await lab.rawConnect(server.socketPath);
    client.resume();
    expect(await codeOf(server.resultAt(0))).toBe('timeout');
    await waitFor(() => client.destroyed || client.readableEnded, { what: 'peer sees the close' });
  });

  it('times out a connector whose acceptor never says hello', async () => {
    const server = await listen();
    const client = await rawClient(server.socketPath);
    expect(await codeOf(connectPatiently(client.conn, { role: 'server', key: KEY, methods: [], timeoutMs: SHORT_TIMEOUT_MS }))).toBe('timeout');
    expect(client.conn.closed).toBe(true);
  });

  it('refuses an application message before the handshake completes', async () => {
    const server = await acceptor();
    const client = await rawClient(server.socketPath);
    client.conn.send({ t: 'ping', n: 1 });
    expect(await codeOf(server.resultAt(0))).toBe('handshake');
  });

  it('refuses a message of an unknown type before the handshake completes, though one after it is only skipped', async () => {
    const server = await acceptor();
    const client = await lab.rawConnect(server.socketPath);
    client.write(encodeFrame({ t: 'future', n: 1 }));
    expect(await codeOf(server.resultAt(0))).toBe('handshake');
  });

  it('fails with the decode error when the peer breaks framing mid-handshake', async () => {
    const server = await acceptor();
    const client = await lab.rawConnect(server.socketPath);
    client.write(Buffer.from([0, 0, 0, 1, 0x81]));
    expect(await codeOf(server.resultAt(0))).toBe('malformed');
  });

  it('fails as handshake when the peer hangs up', async () => {
    const server = await acceptor();
    const client = await lab.rawConnect(server.socketPath);
    client.destroy();
    expect(await codeOf(server.resultAt(0))).toBe('handshake');
  });

  it("carries a peer's reject, mapping an unknown code to handshake and clipping its text", async () => {
    const server = await listen(({ conn }) => conn.send({ t: 'reject', code: 'busy', message: 'x'.repeat(1000) }));
    const client = await rawClient(server.socketPath);
    const err = await connectPatiently(client.conn, { role: 'server', key: KEY, methods: [] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProtocolError);
    expect((err as ProtocolError).code).toBe('handshake');
    expect((err as ProtocolError).message.length).toBeLessThanOrEqual(200);
  });
});
