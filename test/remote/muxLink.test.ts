// A link's channels carry a1 connections as Unix sockets do: messages both ways, a close that
// reaches the other end, writes larger than a frame, a reader that falls behind holding the
// link's input back instead of buffering without bound; a broken link ends every channel.
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { Connection } from '../../src/protocol/connection.js';
import { ProtocolError } from '../../src/protocol/errors.js';
import { defineSchema, type Message } from '../../src/protocol/schema.js';
import { MAX_MUX_PAYLOAD_BYTES } from '../../src/remote/mux.js';
import { MuxLink } from '../../src/remote/muxLink.js';
import { waitFor } from '../helpers/wait.js';

const schema = defineSchema({ ping: { n: 'int' }, blob: { y: 'bytes' } });

/** Two ends of a link, each writing into the other's input, as ssh's stdio joins them. */
function linkedPair(): { local: MuxLink; remote: MuxLink; toRemote: PassThrough; toLocal: PassThrough } {
  const toRemote = new PassThrough();
  const toLocal = new PassThrough();
  return { local: new MuxLink(toLocal, toRemote), remote: new MuxLink(toRemote, toLocal), toRemote, toLocal };
}

const links: MuxLink[] = [];
afterEach(() => {
  for (const link of links.splice(0)) link.close();
});

function pair(): ReturnType<typeof linkedPair> {
  const p = linkedPair();
  links.push(p.local, p.remote);
  return p;
}

function collect(conn: Connection): Message[] {
  const got: Message[] = [];
  conn.onMessage((msg) => got.push(msg));
  return got;
}

const closeReason = (conn: Connection): Promise<Error | undefined> => new Promise((resolve) => conn.onClose(resolve));

describe('MuxLink', () => {
  it('carries connections on separate channels both ways, a message larger than a frame included', async () => {
    const { local, remote } = pair();
    const a = [new Connection(local.channel(1), schema), new Connection(local.channel(2), schema)];
    const b = [new Connection(remote.channel(1), schema), new Connection(remote.channel(2), schema)];
    const atB = b.map(collect);
    const atA = collect(a[0]!);
    for (let n = 0; n < 10; n++) for (const [i, conn] of a.entries()) conn.send({ t: 'ping', n: n * 10 + i });
    const big = Buffer.alloc(3 * MAX_MUX_PAYLOAD_BYTES + 5, 7);
    b[0]!.send({ t: 'blob', y: big });
    await waitFor(() => atB[0]!.length === 10 && atB[1]!.length === 10 && atA.length === 1, { what: 'every message' });
    expect(atB[0]!.map((m) => m.n)).toEqual(Array.from({ length: 10 }, (_, n) => n * 10));
    expect(atB[1]!.map((m) => m.n)).toEqual(Array.from({ length: 10 }, (_, n) => n * 10 + 1));
    expect(Buffer.from(atA[0]!.y as Uint8Array).equals(big)).toBe(true);
  });

  it('a closed channel ends at the other side after what was sent before it; the link and other channels go on', async () => {
    const { local, remote } = pair();
    const a1 = new Connection(local.channel(1), schema);
    const a2 = new Connection(local.channel(2), schema);
    const b1 = new Connection(remote.channel(1), schema);
    const b2 = new Connection(remote.channel(2), schema);
    const atB1 = collect(b1);
    const atB2 = collect(b2);
    const closed = closeReason(b1);
    a1.send({ t: 'ping', n: 1 });
    a1.close();
    expect(await closed).toBeUndefined();
    expect(atB1.map((m) => m.n)).toEqual([1]);
    a2.send({ t: 'ping', n: 2 });
    await waitFor(() => atB2.length === 1, { what: 'the other channel still carrying' });
    expect(local.closed || remote.closed).toBe(false);
  });

  it('bytes for a channel nobody has open are dropped, not an error', async () => {
    const { local, remote } = pair();
    const lateWriter = local.channel(9);
    const b1 = new Connection(remote.channel(1), schema);
    const atB1 = collect(b1);
    lateWriter.write(Buffer.from('stray'));
    new Connection(local.channel(1), schema).send({ t: 'ping', n: 3 });
    await waitFor(() => atB1.length === 1, { what: 'the open channel served after the stray bytes' });
    expect(remote.closed).toBe(false);
  });

  it('a reader that falls behind pauses the link input until it reads again', async () => {
    const { local, remote, toRemote } = pair();
    const sender = local.channel(1);
    const unread = remote.channel(1);
    const chunk = Buffer.alloc(MAX_MUX_PAYLOAD_BYTES, 1);
    for (let i = 0; i < 8; i++) sender.write(chunk);
    await waitFor(() => toRemote.isPaused(), { what: 'the link input paused' });
    let read = 0;
    unread.on('data', (c: Buffer) => (read += c.length));
    await waitFor(() => read === 8 * chunk.length, { what: 'every byte read once the reader reads' });
    expect(toRemote.isPaused()).toBe(false);
  });

  it('a malformed stream ends the link with a ProtocolError and every channel with it', async () => {
    const { remote, toRemote } = pair();
    const b1 = new Connection(remote.channel(1), schema);
    const closed = closeReason(b1);
    const linkClosed = new Promise<Error | undefined>((resolve) => remote.onClose(resolve));
    toRemote.write(Buffer.from([0, 0, 0, 0, 0, 0, 0, 1]));
    expect(await linkClosed).toBeInstanceOf(ProtocolError);
    await closed;
    expect(remote.closed).toBe(true);
  });

  it('the end of the input ends the link and its channels; a write after it fails', async () => {
    const { local, remote, toRemote } = pair();
    const b1 = remote.channel(1);
    const ended = new Promise<Error | undefined>((resolve) => remote.onClose(resolve));
    local.close();
    expect(await ended).toBeUndefined();
    expect(toRemote.writableEnded).toBe(true);
    await waitFor(() => b1.destroyed, { what: 'the channel destroyed' });
  });

  it('link messages reach the other end in order', async () => {
    const { local, remote } = pair();
    const got: Message[] = [];
    remote.onMessage((m) => got.push(m));
    for (let n = 0; n < 5; n++) local.send({ t: 'ping', n });
    await waitFor(() => got.length === 5, { what: 'five pings' });
    expect(got.map((m) => m.n)).toEqual([0, 1, 2, 3, 4]);
  });
});
