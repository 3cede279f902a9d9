import fs from 'node:fs';
import net from 'node:net';
import { once } from 'node:events';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectUnix, Connection } from '../../src/protocol/connection.js';
import { ProtocolError } from '../../src/protocol/errors.js';
import { encodeFrame } from '../../src/protocol/frame.js';
import { defineSchema, type Message } from '../../src/protocol/schema.js';
import { waitFor } from '../helpers/wait.js';
import { duplexPair } from './duplexPair.js';
import { next, PATIENT_TIMEOUT_MS, socketLab, type SocketLab } from './sockets.js';

const schema = defineSchema({
  ping: { n: 'int' },
  blob: { y: 'bytes' },
});

let lab: SocketLab;
beforeEach(() => {
  lab = socketLab();
});
afterEach(async () => {
  await lab.cleanup();
});

/** A server whose accepted connections are collected, and a helper to wait for the n-th. */
async function server(opts?: { maxFrameBytes?: number }) {
  const accepted: Connection[] = [];
  const socketPath = await lab.listen('s.sock', (socket) => accepted.push(lab.wrap(socket, schema, opts)));
  const acceptedAt = (index: number) => waitFor(() => accepted[index], { what: `accepted connection ${index}` });
  return { socketPath, acceptedAt };
}

function collect(conn: Connection): Message[] {
  const got: Message[] = [];
  conn.onMessage((msg) => got.push(msg));
  return got;
}

function closeReason(conn: Connection): Promise<Error | undefined> {
  return new Promise((resolve) => conn.onClose(resolve));
}

describe('Connection', () => {
  it('carries messages both ways, binary included, in order', async () => {
    const { socketPath, acceptedAt } = await server();
    const client = await lab.connect(socketPath, schema);
    const srv = await acceptedAt(0);
    const atServer = collect(srv);
    const atClient = collect(client);
    for (let n = 0; n < 50; n++) client.send({ t: 'ping', n });
    srv.send({ t: 'blob', y: Buffer.from([0, 1, 255]) });
    await waitFor(() => atServer.length === 50 && atClient.length === 1, { what: 'messages' });
    expect(atServer.map((m) => m.n)).toEqual(Array.from({ length: 50 }, (_, n) => n));
    expect(Buffer.from(atClient[0].y as Uint8Array)).toEqual(Buffer.from([0, 1, 255]));
  });

  it('keeps messages nobody listened to for the next listener, in order', async () => {
    const sockets: net.Socket[] = [];
    const accepted: Connection[] = [];
    const socketPath = await lab.listen('q.sock', (socket) => {
      sockets.push(socket);
      accepted.push(lab.wrap(socket, schema));
    });
    const raw = await lab.rawConnect(socketPath);
    const srv = await waitFor(() => accepted[0], { what: 'accepted connection' });
    // One write, so all five frames are decoded together; the first listener leaves after two.
    const bytes = Buffer.concat(Array.from({ length: 5 }, (_, n) => encodeFrame({ t: 'ping', n })));
    const first: number[] = [];
    const off = srv.onMessage((msg) => {
      first.push(msg.n as number);
      if (first.length === 2) off();
    });
    raw.write(bytes);
    await waitFor(() => sockets[0].bytesRead === bytes.length, { what: 'all bytes read' });
    expect(first).toEqual([0, 1]);
    const second: number[] = [];
    srv.onMessage((msg) => second.push(msg.n as number));
    await waitFor(() => second.length === 3, { what: 'kept messages' });
    expect(second).toEqual([2, 3, 4]);
  });

  it('closes only the offending connection on an oversize frame; another keeps working', async () => {
    const { socketPath, acceptedAt } = await server({ maxFrameBytes: 1024 });
    const good = await lab.connect(socketPath, schema);
    const goodSrv = await acceptedAt(0);
    const bad = await lab.rawConnect(socketPath);
    const badSrv = await acceptedAt(1);
    const reason = closeReason(badSrv);
    const badClosed = once(bad, 'close');
    const header = Buffer.alloc(4);
    header.writeUInt32BE(1025, 0);
    bad.write(header);
    const err = await reason;
    expect(err).toBeInstanceOf(ProtocolError);
    expect((err as ProtocolError).code).toBe('oversize');
    await badClosed;
    expect(badSrv.closed).toBe(true);

    const atGood = collect(goodSrv);
    good.send({ t: 'ping', n: 42 });
    await waitFor(() => atGood.length === 1, { what: 'message on the healthy connection' });
    expect(goodSrv.closed).toBe(false);
  });

  it('delivers the messages before a malformed frame, then closes with its code', async () => {
    const { socketPath, acceptedAt } = await server();
    const raw = await lab.rawConnect(socketPath);
    const srv = await acceptedAt(0);
    const got = collect(srv);
    const reason = closeReason(srv);
    raw.write(Buffer.concat([encodeFrame({ t: 'ping', n: 1 }), encodeFrame({ t: 'ping', n: 'x' })]));
    expect(((await reason) as ProtocolError).code).toBe('bad-field');
    expect(got.map((m) => m.n)).toEqual([1]);
  });

  it('drops a message of an unknown type, tells onSkipped, and keeps the connection', async () => {
    const { socketPath, acceptedAt } = await server();
    const raw = await lab.rawConnect(socketPath);
    const srv = await acceptedAt(0);
    const got = collect(srv);
    let skipped = 0;
    srv.onSkipped(() => skipped++);
    raw.write(Buffer.concat([encodeFrame({ t: 'ping', n: 1 }), encodeFrame({ t: 'future', n: 'anything' }), encodeFrame({ t: 'ping', n: 2 })]));
    await waitFor(() => got.length === 2, { what: 'both pings' });
    expect(got.map((m) => m.n)).toEqual([1, 2]);
    expect(skipped).toBe(1);
    expect(srv.closed).toBe(false);
    srv.send({ t: 'ping', n: 3 });
    const [echo] = await once(raw, 'data');
    expect((echo as Buffer).length).toBeGreaterThan(4);
  });

  it.each([
    ['malformed', Buffer.from([0, 0, 0, 1, 0x81])],
    ['not-object', encodeFrame([1, 2])],
  ])('closes with %s on such a frame', async (code, bytes) => {
    const { socketPath, acceptedAt } = await server();
    const raw = await lab.rawConnect(socketPath);
    const srv = await acceptedAt(0);
    const reason = closeReason(srv);
    raw.write(bytes);
    expect(((await reason) as ProtocolError).code).toBe(code);
  });

  it('flushes what was sent before close, reports a clean close to the peer, and is idempotent', async () => {
    const { socketPath, acceptedAt } = await server();
    const client = await lab.connect(socketPath, schema);
    const srv = await acceptedAt(0);
    const atClient = collect(client);
    const clientReason = closeReason(client);
    let serverCloses = 0;
    srv.onClose(() => serverCloses++);
    srv.send({ t: 'ping', n: 1 });
    srv.close();
    srv.close(new Error('second close is ignored'));
    srv.send({ t: 'ping', n: 2 }); // after close: dropped, no throw
    expect(await clientReason).toBeUndefined();
    expect(atClient.map((m) => m.n)).toEqual([1]);
    await waitFor(() => serverCloses === 1, { what: 'server close reported' });
    // A listener added after the close still hears about it, with the first reason.
    expect(await next<Error | undefined>((fn) => srv.onClose(fn))).toBeUndefined();
    expect(serverCloses).toBe(1);
  });

  it('reports the reason given to close', async () => {
    const { socketPath } = await server();
    const client = await lab.connect(socketPath, schema);
    const reason = closeReason(client);
    const why = new ProtocolError('auth', 'refused');
    client.close(why);
    expect(await reason).toBe(why);
  });

  it('throws on sending an invalid or oversize message', async () => {
    const { socketPath } = await server();
    const client = await lab.connect(socketPath, schema, { maxFrameBytes: 100 });
    expect(() => client.send({ t: 'ping', n: 'x' })).toThrow(expect.objectContaining({ code: 'bad-field' }));
    expect(() => client.send({ t: 'nope' })).toThrow(expect.objectContaining({ code: 'unknown-type' }));
    expect(() => client.send({ t: 'blob', y: Buffer.alloc(200) })).toThrow(expect.objectContaining({ code: 'oversize' }));
    expect(client.closed).toBe(false);
  });

  it('accepts the handshake messages in addition to its own schema', async () => {
    const { socketPath, acceptedAt } = await server();
    const client = await lab.connect(socketPath, schema);
    const srv = await acceptedAt(0);
    const got = collect(srv);
    client.send({ t: 'reject', code: 'auth', message: 'no' });
    await waitFor(() => got.length === 1, { what: 'reject message' });
    expect(got[0]).toEqual({ t: 'reject', code: 'auth', message: 'no' });
  });

  it('exposes unsent bytes and calls onDrain once the peer reads again', async () => {
    const { socketPath, acceptedAt } = await server();
    const raw = await lab.rawConnect(socketPath);
    raw.pause();
    const srv = await acceptedAt(0);
    let drains = 0;
    srv.onDrain(() => drains++);
    const chunk = Buffer.alloc(64 * 1024);
    // Fill the kernel buffers until bytes stay queued in the process.
    for (let i = 0; i < 1000 && srv.pendingBytes === 0; i++) srv.send({ t: 'blob', y: chunk });
    expect(srv.pendingBytes).toBeGreaterThan(0);
    raw.resume();
    await waitFor(() => drains > 0, { what: 'drain' });
    expect(srv.pendingBytes).toBe(0);
  });

  it('reports a peer that vanished mid-stream without throwing', async () => {
    const { socketPath, acceptedAt } = await server();
    const raw = await lab.rawConnect(socketPath);
    const srv = await acceptedAt(0);
    const reason = closeReason(srv);
    raw.write(encodeFrame({ t: 'ping', n: 1 }).subarray(0, 6));
    raw.destroy();
    await reason;
    expect(srv.closed).toBe(true);
    expect(() => srv.send({ t: 'ping', n: 2 })).not.toThrow();
  });
});

describe('connectUnix', () => {
  it('rejects with ENOENT when no socket exists', async () => {
    await expect(connectUnix(lab.path('missing.sock'), schema, PATIENT_TIMEOUT_MS)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('rejects with ECONNREFUSED when nothing listens on the socket', async () => {
    // A hard link keeps the socket file after its server is gone, as a killed server leaves it.
    const live = lab.path('live.sock');
    const stale = lab.path('stale.sock');
    const srv = net.createServer();
    srv.listen(live);
    await once(srv, 'listening');
    fs.linkSync(live, stale);
    await new Promise((resolve) => srv.close(resolve));
    await expect(connectUnix(stale, schema, PATIENT_TIMEOUT_MS)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });
});

describe('Connection over any duplex stream', () => {
  it('carries messages both ways, and a close reaches the other end', async () => {
    const [a, b] = duplexPair();
    const left = new Connection(a, schema);
    const right = new Connection(b, schema);
    const atRight = collect(right);
    const atLeft = collect(left);
    for (let n = 0; n < 20; n++) left.send({ t: 'ping', n });
    right.send({ t: 'blob', y: Buffer.from([7]) });
    await waitFor(() => atRight.length === 20 && atLeft.length === 1, { what: 'messages' });
    expect(atRight.map((m) => m.n)).toEqual(Array.from({ length: 20 }, (_, n) => n));
    const rightClosed = closeReason(right);
    const leftClosed = closeReason(left);
    left.close();
    expect(await rightClosed).toBeUndefined();
    expect(await leftClosed).toBeUndefined();
  });

  it('a malformed frame ends that stream with a ProtocolError', async () => {
    const [a, b] = duplexPair();
    const right = new Connection(b, schema);
    const closed = closeReason(right);
    a.write(Buffer.from([0xff, 0xff, 0xff, 0xff, 1, 2, 3]));
    expect(await closed).toBeInstanceOf(ProtocolError);
    expect(a.destroyed).toBe(true);
  });
});
