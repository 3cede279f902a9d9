// Copy mode's history through a real holder's socket: pages of a 10,000-line scrollback, search
// over it, lines dropped by a full scrollback, and a reader that changes nothing for the child or
// the controlling client.
import { describe, it, expect, afterEach } from 'vitest';
import { connectHolder, firstState } from '../../src/server/holderLink.js';
import { connectUnix, type Connection } from '../../src/protocol/connection.js';
import { connectHandshake } from '../../src/protocol/handshake.js';
import { dataSchema, type HistoryPageMsg, type SearchResultMsg } from '../../src/protocol/messages.js';
import { HISTORY_PAGE_MAX_LINES } from '../../src/holder/history.js';
import { deriveKey, makeTicket, ticketProofKey, TICKET_TTL_MS } from '../../src/security.js';
import type { Row, SurfacePatch } from '../../src/surface/types.js';
import { startTestHolder } from './holderHarness.js';
import { waitFor } from '../helpers/wait.js';

const SCROLLBACK = 10_000;
const ROWS = 24;

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c();
});

async function startHolder() {
  const { secret, tabId, inc, socketPath, spawned } = await startTestHolder(cleanups, { tabId: 'tabhist', epoch: 1, rows: ROWS, scrollback: SCROLLBACK, dirPrefix: 'a1hist-' });
  const ticketKey = deriveKey(secret, 'ticket', tabId, inc);
  const server = await connectHolder(socketPath, deriveKey(secret, 'holder', tabId, inc));
  cleanups.push(() => server.close());
  await firstState(server);
  const connect = async (clientId: string) => {
    const ticket = makeTicket(ticketKey, { clientId, tabId, holderInc: inc, expiresAt: Date.now() + TICKET_TTL_MS });
    const conn = await connectUnix(socketPath, dataSchema, 2000);
    cleanups.push(() => conn.close());
    const hs = await connectHandshake(conn, { role: 'data', key: ticketProofKey(ticketKey, ticket), methods: ['surface', 'input'], extra: { ticket } });
    return { conn, methods: hs.peerMethods };
  };
  return { server, connect };
}

/** Sends a request and resolves with the reply carrying its reqId. */
let nextReqId = 1;
function ask<T>(conn: Connection, msg: { t: string; [field: string]: unknown }, reply: string): Promise<T> {
  const reqId = nextReqId++;
  return new Promise((resolve) => {
    const off = conn.onMessage((m) => {
      if (m.t === reply && m.reqId === reqId) {
        off();
        resolve(m as unknown as T);
      }
    });
    conn.send({ ...msg, reqId });
  });
}

const textOf = (row: Row) => row.runs.map((r) => r.s).join('');

function screenOf(patches: SurfacePatch[]): string[] {
  const rows: string[] = [];
  for (const p of patches) {
    if (p.full) rows.length = 0;
    for (const line of p.lines) rows[line.y] = textOf(line);
  }
  return rows.map((r) => r ?? '');
}

/** Every line of the history, fetched a page at a time as copy mode does. */
async function readAll(conn: Connection): Promise<{ lines: string[]; dropped: number; pages: number }> {
  const lines: string[] = [];
  let total = Infinity;
  let dropped = -1;
  let pages = 0;
  while (lines.length < total) {
    const page = await ask<HistoryPageMsg>(conn, { t: 'history', from: lines.length, count: 1000 }, 'historyPage');
    pages++;
    expect(page.from).toBe(lines.length);
    expect(page.lines.length).toBeLessThanOrEqual(HISTORY_PAGE_MAX_LINES);
    expect(page.lines.length).toBeGreaterThan(0);
    page.lines.forEach((row, i) => expect(row.y).toBe(page.from + i));
    if (dropped >= 0) expect(page.dropped).toBe(dropped);
    dropped = page.dropped;
    total = page.total;
    lines.push(...page.lines.map(textOf));
  }
  return { lines, dropped, pages };
}

const PLANTED = [1, 2500, 5000, 7500, 10_000];

describe('holder history (copy mode)', () => {
  it('serves a 10,000-line history in pages and searches it, for a client that neither controls nor views the tab', async () => {
    const { server, connect } = await startHolder();
    const live = await connect('live');
    const reader = await connect('reader');
    expect(reader.methods).toContain('history');
    const patches: SurfacePatch[] = [];
    live.conn.onMessage((m) => {
      if (m.t === 'surface') patches.push((m as unknown as { patch: SurfacePatch }).patch);
    });
    const readerSaw: string[] = [];
    reader.conn.onMessage((m) => readerSaw.push(m.t));
    live.conn.send({ t: 'attach', cols: 80, rows: ROWS });
    server.send({ t: 'setController', epoch: 1, clientId: 'live', rev: 1 });
    await waitFor(() => screenOf(patches).some((l) => l.startsWith('h$')), { what: 'the prompt' });
    // The word is split in the command, so only the output holds it.
    const awk = `awk 'BEGIN{for(i=1;i<=10000;i++) print "row " i ((i==1||i%2500==0) ? " nee" "dle" : "")}'`;
    live.conn.send({ t: 'input', rev: 1, events: [{ k: 'text', s: `${awk}; echo fin-$((6*7))\r` }] });
    await waitFor(() => screenOf(patches).some((l) => l.trim() === 'fin-42'), { what: 'the end of the output', timeoutMs: 60_000 });

    const before = await readAll(reader.conn);
    const first = before.lines.indexOf('row 1 needle');
    expect(first).toBeGreaterThanOrEqual(0);
    // Every printed line, in order, each exactly once.
    const rows = before.lines.slice(first, first + 10_000);
    expect(rows.map((l) => Number(l.split(' ')[1]))).toEqual(Array.from({ length: 10_000 }, (_, i) => i + 1));
    expect(before.lines[first + 10_000]).toBe('fin-42');
    expect(before.pages).toBeGreaterThanOrEqual(Math.ceil(before.lines.length / HISTORY_PAGE_MAX_LINES));

    const forward = await ask<SearchResultMsg>(reader.conn, { t: 'search', text: 'needle', direction: 'forward' }, 'searchResult');
    expect(forward.truncated).toBe(false);
    expect(forward.matches.map((m) => before.lines[m.line])).toEqual(PLANTED.map((i) => `row ${i} needle`));
    for (const m of forward.matches) {
      expect(m.len).toBe(6);
      expect(before.lines[m.line].slice(m.col, m.col + m.len)).toBe('needle');
    }
    const backward = await ask<SearchResultMsg>(reader.conn, { t: 'search', text: 'needle', direction: 'backward' }, 'searchResult');
    expect(backward.matches).toEqual([...forward.matches].reverse());
    const fromMiddle = await ask<SearchResultMsg>(reader.conn, { t: 'search', text: 'needle', direction: 'forward', from: forward.matches[2].line }, 'searchResult');
    expect(fromMiddle.matches).toEqual(forward.matches.slice(2));

    // The reader was sent nothing else, and the controller's tab runs on as before.
    expect(readerSaw.filter((t) => t !== 'historyPage' && t !== 'searchResult')).toEqual([]);
    live.conn.send({ t: 'input', rev: 1, events: [{ k: 'text', s: 'echo after-$((2*21))\r' }] });
    await waitFor(() => screenOf(patches).some((l) => l.trim() === 'after-42'), { what: 'the echo after reading' });
  });

  it('reports lines dropped by a full scrollback, so a reader can keep its place', async () => {
    const { server, connect } = await startHolder();
    const live = await connect('live');
    const reader = await connect('reader');
    const patches: SurfacePatch[] = [];
    live.conn.onMessage((m) => {
      if (m.t === 'surface') patches.push((m as unknown as { patch: SurfacePatch }).patch);
    });
    live.conn.send({ t: 'attach', cols: 80, rows: ROWS });
    server.send({ t: 'setController', epoch: 1, clientId: 'live', rev: 1 });
    await waitFor(() => screenOf(patches).some((l) => l.startsWith('h$')), { what: 'the prompt' });
    live.conn.send({ t: 'input', rev: 1, events: [{ k: 'text', s: `seq -f 'a%.0f' 1 ${SCROLLBACK + ROWS + 50}; echo fin-1\r` }] });
    await waitFor(() => screenOf(patches).some((l) => l.trim() === 'fin-1'), { what: 'the first output', timeoutMs: 60_000 });
    const page = await ask<HistoryPageMsg>(reader.conn, { t: 'history', from: 1000, count: 1 }, 'historyPage');
    expect(page.total).toBe(SCROLLBACK + ROWS);
    const line1000 = textOf(page.lines[0]);
    expect(line1000).toMatch(/^a\d+$/);
    live.conn.send({ t: 'input', rev: 1, events: [{ k: 'text', s: `seq -f 'b%.0f' 1 300; echo fin-2\r` }] });
    await waitFor(() => screenOf(patches).some((l) => l.trim() === 'fin-2'), { what: 'the second output', timeoutMs: 60_000 });
    const later = await ask<HistoryPageMsg>(reader.conn, { t: 'history', from: 0, count: 1 }, 'historyPage');
    // 300 lines, the echo and the next prompt scrolled a full buffer: as many left its top.
    const dropped = later.dropped - page.dropped;
    expect(dropped).toBeGreaterThanOrEqual(301);
    expect(dropped).toBeLessThanOrEqual(303);
    const moved = await ask<HistoryPageMsg>(reader.conn, { t: 'history', from: 1000 - dropped, count: 1 }, 'historyPage');
    expect(textOf(moved.lines[0])).toBe(line1000);
  });
});
