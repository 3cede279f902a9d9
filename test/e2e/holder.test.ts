// A real holder process, driven through its socket by protocol test clients: the server's
// mutual authentication, ticket admission, controller fencing by epoch, and termination.
import { describe, it, expect, afterEach } from 'vitest';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { connectHolder, firstState } from '../../src/server/holderLink.js';
import net from 'node:net';
import { connectUnix, Connection } from '../../src/protocol/connection.js';
import { connectHandshake } from '../../src/protocol/handshake.js';
import { dataSchema } from '../../src/protocol/messages.js';
import { ticketProofKey, type Ticket } from '../../src/security.js';
import type { SurfacePatch } from '../../src/surface/types.js';
import { startTestHolder } from './holderHarness.js';
import { waitFor } from '../helpers/wait.js';
import { isAlive } from '../helpers/procs.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c();
});

function startHolder() {
  return startTestHolder(cleanups, { tabId: 'tabtest', epoch: 5, rows: 24, scrollback: 1000, dirPrefix: 'a1h-' });
}

async function dataConnect(socketPath: string, ticket: Ticket, key: Buffer): Promise<Connection> {
  const conn = await connectUnix(socketPath, dataSchema, 2000);
  cleanups.push(() => conn.close());
  await connectHandshake(conn, { role: 'data', key, methods: ['surface', 'input'], extra: { ticket } });
  return conn;
}

function screenOf(patches: SurfacePatch[]): string[] {
  const rows: string[] = [];
  for (const p of patches) {
    if (p.full) rows.length = 0;
    for (const line of p.lines) rows[line.y] = line.runs.map((r) => r.s).join('');
  }
  return rows.map((r) => r ?? '');
}

describe('holder', () => {
  it('authenticates the server both ways and refuses a wrong key', async () => {
    const h = await startHolder();
    const server = await connectHolder(h.socketPath, h.holderKey);
    cleanups.push(() => server.close());
    const state = await firstState(server);
    expect(state).toMatchObject({ tabId: h.tabId, holderInc: h.inc, holderPid: h.spawned.pid, lifecycle: 'running' });
    await expect(connectHolder(h.socketPath, crypto.randomBytes(32))).rejects.toMatchObject({ code: 'auth' });
  });

  it('admits a data connection by ticket once, with the proof key, not with the ticket alone', async () => {
    const h = await startHolder();
    const t1 = h.ticket('c1');
    const conn = await dataConnect(h.socketPath, t1, ticketProofKey(h.ticketKey, t1));
    const patches: SurfacePatch[] = [];
    conn.onMessage((m) => {
      if (m.t === 'surface') patches.push((m as unknown as { patch: SurfacePatch }).patch);
    });
    conn.send({ t: 'attach', cols: 80, rows: 24 });
    await waitFor(() => patches.some((p) => p.full && p.cols === 80 && p.rows === 24), { what: 'a full surface' });
    await expect(dataConnect(h.socketPath, t1, ticketProofKey(h.ticketKey, t1))).rejects.toMatchObject({ code: 'auth' });
    const t2 = h.ticket('c2');
    await expect(dataConnect(h.socketPath, t2, Buffer.from(t2.mac, 'base64'))).rejects.toMatchObject({ code: 'auth' });
    const expired = h.ticket('c3', Date.now() - 1);
    await expect(dataConnect(h.socketPath, expired, ticketProofKey(h.ticketKey, expired))).rejects.toMatchObject({ code: 'auth' });
  });

  it('takes input only from the controller, and ignores controller changes from a stale epoch', async () => {
    const h = await startHolder();
    const server = await connectHolder(h.socketPath, h.holderKey);
    cleanups.push(() => server.close());
    await firstState(server);
    const acks: number[] = [];
    server.onMessage((m) => {
      if (m.t === 'controllerSet') acks.push(m.rev as number);
    });
    const t1 = h.ticket('c1');
    const conn = await dataConnect(h.socketPath, t1, ticketProofKey(h.ticketKey, t1));
    const patches: SurfacePatch[] = [];
    const rejected: string[] = [];
    conn.onMessage((m) => {
      if (m.t === 'surface') patches.push((m as unknown as { patch: SurfacePatch }).patch);
      if (m.t === 'inputRejected') rejected.push(m.reason as string);
    });
    conn.send({ t: 'attach', cols: 80, rows: 24 });
    await waitFor(() => screenOf(patches).some((l) => l.startsWith('h$')), { what: 'the prompt' });
    conn.send({ t: 'input', rev: 0, events: [{ k: 'text', s: 'echo nope\r' }] });
    await waitFor(() => rejected.includes('read-only'), { what: 'read-only rejection' });
    server.send({ t: 'setController', epoch: 5, clientId: 'c1', rev: 1 });
    await waitFor(() => acks.includes(1), { what: 'controller ack' });
    conn.send({ t: 'input', rev: 1, events: [{ k: 'text', s: 'echo ok-$((2*21))' }, { k: 'key', key: 'enter' }] });
    await waitFor(() => screenOf(patches).some((l) => l.trim() === 'ok-42'), { what: 'the echo' });
    // A newer epoch was seen; a command from an older one is refused without effect.
    server.send({ t: 'epoch', epoch: 7 });
    server.send({ t: 'setController', epoch: 6, clientId: 'intruder', rev: 2 });
    server.send({ t: 'ping', n: 1 });
    await new Promise<void>((resolve) => {
      const off = server.onMessage((m) => {
        if (m.t === 'pong') {
          off();
          resolve();
        }
      });
    });
    expect(acks).toEqual([1]);
    conn.send({ t: 'input', rev: 1, events: [{ k: 'text', s: 'echo still-mine\r' }] });
    await waitFor(() => screenOf(patches).some((l) => l.trim() === 'still-mine'), { what: 'input still admitted' });
    expect(screenOf(patches).map((l) => l.trim())).not.toContain('nope');
  });

  it('a client that stops reading blocks neither the child nor another client', async () => {
    const h = await startHolder();
    const server = await connectHolder(h.socketPath, h.holderKey);
    cleanups.push(() => server.close());
    await firstState(server);
    const ts = h.ticket('stuck');
    const raw = net.createConnection(h.socketPath);
    await new Promise<void>((resolve, reject) => raw.once('connect', resolve).once('error', reject));
    const stuck = new Connection(raw, dataSchema);
    cleanups.push(() => raw.destroy());
    await connectHandshake(stuck, { role: 'data', key: ticketProofKey(h.ticketKey, ts), methods: ['surface'], extra: { ticket: ts } });
    stuck.send({ t: 'attach', cols: 80, rows: 24 });
    // Stop reading: the kernel buffers fill and the holder's writes to this client back up.
    raw.pause();
    const tl = h.ticket('live');
    const live = await dataConnect(h.socketPath, tl, ticketProofKey(h.ticketKey, tl));
    const patches: SurfacePatch[] = [];
    live.onMessage((m) => {
      if (m.t === 'surface') patches.push((m as unknown as { patch: SurfacePatch }).patch);
    });
    live.send({ t: 'attach', cols: 80, rows: 24 });
    server.send({ t: 'setController', epoch: 5, clientId: 'live', rev: 1 });
    await waitFor(() => screenOf(patches).some((l) => l.startsWith('h$')), { what: 'the prompt' });
    live.send({ t: 'input', rev: 1, events: [{ k: 'text', s: "seq -f 'z%.0f' 1 200000; echo fin-$((6*7))\r" }] });
    await waitFor(() => screenOf(patches).some((l) => l.trim() === 'fin-42'), { what: 'the live client sees the end', timeoutMs: 60_000 });
    expect(screenOf(patches).map((l) => l.trim())).toContain('z200000');
  });

  it('ends its child and itself on terminate', async () => {
    const h = await startHolder();
    const server = await connectHolder(h.socketPath, h.holderKey);
    cleanups.push(() => server.close());
    const state = await firstState(server);
    expect(isAlive(state.childPid!)).toBe(true);
    server.send({ t: 'terminate', epoch: 5, graceMs: 500 });
    await waitFor(() => !isAlive(state.childPid!) && !isAlive(h.spawned.pid), { what: 'child and holder gone' });
    expect(fs.existsSync(h.socketPath)).toBe(false);
  });
});
