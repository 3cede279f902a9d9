// The client's data-plane view answers copy mode's history and search requests by reqId, in
// whatever order the holder replies, and rejects what is outstanding when the connection closes.
import crypto from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HolderView, ViewClosedError } from '../../src/client/holderView.js';
import type { Connection } from '../../src/protocol/connection.js';
import { acceptHandshake } from '../../src/protocol/handshake.js';
import { dataSchema } from '../../src/protocol/messages.js';
import type { Ticket } from '../../src/security.js';
import { waitFor } from '../helpers/wait.js';
import { PATIENT_TIMEOUT_MS, socketLab, type SocketLab } from '../protocol/sockets.js';

const KEY = crypto.randomBytes(32);

let lab: SocketLab;
beforeEach(() => {
  lab = socketLab();
});
afterEach(async () => {
  await lab.cleanup();
});

/** A holder stand-in that completes the handshake and records what the view sends. */
async function fakeHolder() {
  const received: Record<string, unknown>[] = [];
  let holderSide: Connection | null = null;
  const socketPath = await lab.listen('holder.sock', (raw) => {
    const conn = lab.wrap(raw, dataSchema);
    conn.onMessage((m) => received.push(m as Record<string, unknown>));
    void acceptHandshake(conn, { role: 'holder', methods: ['surface', 'input', 'resize', 'history'], keyFor: () => KEY, timeoutMs: PATIENT_TIMEOUT_MS }).then(() => (holderSide = conn));
  });
  const view = await HolderView.open(
    { socketPath, ticket: { mac: 'x' } as unknown as Ticket, proofKey: KEY.toString('base64'), tabId: 't1', clientId: 'c1', cols: 80, rows: 24 },
    { patch() {}, state() {}, controller() {}, rejected() {}, closed() {} },
  );
  const conn = await waitFor(() => holderSide, { what: 'the handshake done' });
  const request = (t: string) => waitFor(() => received.find((m) => m.t === t), { what: `a ${t} request` });
  return { view, conn, received, request };
}

describe('HolderView copy-mode requests', () => {
  it('matches replies to requests by reqId, whatever their order, and sends nothing else', async () => {
    const { view, conn, received, request } = await fakeHolder();
    const page = view.history(10, 5);
    const found = view.search('word', 'backward', 7);
    const h = await request('history');
    const s = await request('search');
    expect(h).toMatchObject({ from: 10, count: 5 });
    expect(s).toMatchObject({ text: 'word', direction: 'backward', from: 7 });
    expect(h.reqId).not.toBe(s.reqId);
    conn.send({ t: 'searchResult', reqId: s.reqId, total: 40, matches: [{ line: 3, col: 1, len: 4 }], truncated: false, dropped: 0 });
    conn.send({ t: 'historyPage', reqId: h.reqId, total: 40, from: 10, lines: [], wrapped: [], alt: false, dropped: 2 });
    expect(await found).toEqual({ total: 40, matches: [{ line: 3, col: 1, len: 4 }], truncated: false, dropped: 0 });
    expect(await page).toEqual({ total: 40, from: 10, lines: [], wrapped: [], alt: false, dropped: 2 });
    // Copy mode is read-only: no input, resize or claim went out.
    expect(received.map((m) => m.t).filter((t) => t !== 'auth' && t !== 'attach')).toEqual(['history', 'search']);
  });

  it('rejects outstanding and later requests once the connection closes', async () => {
    const { view, conn, request } = await fakeHolder();
    const page = view.history(0, 200);
    await request('history');
    conn.close();
    await expect(page).rejects.toBeInstanceOf(ViewClosedError);
    await expect(view.search('x', 'forward')).rejects.toBeInstanceOf(ViewClosedError);
  });
});

describe('HolderView controller', () => {
  it('knows who controls the tab only once the holder has said so', async () => {
    const { view, conn } = await fakeHolder();
    // Before the holder's answer to attach, "nobody controls it" is only the initial value.
    expect(view.controllerKnown).toBe(false);
    conn.send({ t: 'controller', clientId: 'c1', rev: 3 });
    await waitFor(() => view.controllerKnown, { what: 'the controller message read' });
    expect(view.isController).toBe(true);
    expect(view.controllerFree).toBe(false);
  });
});
