// An in-process holder for tests: real Unix sockets and a real PTY child (/bin/sh), its log kept
// in memory, its peers connected as the server and viewing clients connect. Every holder is shut
// down and every child it started is ended by pid in `cleanups`.
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Holder, type HolderDeps } from '../../src/holder/holder.js';
import type { HolderInit } from '../../src/protocol/holderInit.js';
import type { Logger, LogFields } from '../../src/log.js';
import { Connection, connectUnix } from '../../src/protocol/connection.js';
import { connectHandshake } from '../../src/protocol/handshake.js';
import { dataSchema, holderSchema, type HolderState } from '../../src/protocol/messages.js';
import { deriveKey, makeTicket, ticketProofKey, TICKET_TTL_MS } from '../../src/security.js';
import { killTracked, track } from '../helpers/procs.js';
import { waitFor } from '../helpers/wait.js';

export interface LogEntry {
  event: string;
  fields?: LogFields;
}

export interface HubOptions {
  command?: string[];
  env?: Record<string, string>;
  agentKind?: string | null;
  init?: Partial<HolderInit>;
  serverWatch?: HolderDeps['serverWatch'];
}

export type Cleanups = Array<() => void | Promise<void>>;

export function makeHub(cleanups: Cleanups, opts: HubOptions = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'a1hub-'));
  const secret = crypto.randomBytes(32);
  const tabId = 'tabhub';
  const inc = 'inc1';
  const key = (role: 'holder' | 'ticket' | 'bridge') => deriveKey(secret, role, tabId, inc);
  const init: HolderInit = {
    tabId,
    holderInc: inc,
    epoch: 1,
    command: opts.command ?? ['/bin/sh', '-c', 'echo hub-ready; exec sleep 600'],
    cwd: dir,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, ...opts.env },
    cols: 80,
    rows: 24,
    scrollback: 1000,
    umask: 0o022,
    socketPath: path.join(dir, 'h.sock'),
    holderKey: key('holder').toString('base64'),
    ticketKey: key('ticket').toString('base64'),
    inputQueueBytes: 1024 * 1024,
    resume: null,
    recoveryDir: path.join(dir, 'recovery'),
    logDir: path.join(dir, 'logs'),
    bridgeKey: key('bridge').toString('base64'),
    bridgeSocketPath: path.join(dir, 'b.sock'),
    agentKind: opts.agentKind ?? null,
    stallNoticeMs: 300_000,
    unresponsiveRestartMs: 120_000,
    ...opts.init,
  };
  fs.mkdirSync(init.recoveryDir, { mode: 0o700 });
  const logs: LogEntry[] = [];
  const record = (event: string, fields?: LogFields) => void logs.push({ event, fields });
  const log: Logger = { info: record, warn: record, error: record };
  const done: number[] = [];
  const holder = new Holder({ init, log, onDone: (code) => done.push(code), serverWatch: opts.serverWatch });
  const childPids = new Set<number>();
  cleanups.push(() => {
    holder.shutdown(0);
    killTracked();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  /** Remembers a child of this holder, to be ended by pid and start time (its whole process group:
   * it leads it). */
  const own = (pid: number | null) => {
    if (pid === null || childPids.has(pid)) return;
    childPids.add(pid);
    track(pid, { group: true });
  };
  const ticketFor = (clientId: string) => makeTicket(key('ticket'), { clientId, tabId, holderInc: inc, expiresAt: Date.now() + TICKET_TTL_MS });

  return {
    dir,
    init,
    holder,
    logs,
    done,
    own,
    logged: (event: string) => logs.filter((e) => e.event === event).length,
    async start() {
      const ready = await holder.start();
      own(ready.childPid);
      return ready;
    },
    /** The state once `pred` holds, its child remembered for cleanup. */
    async stateWhen(pred: (s: HolderState) => boolean, what: string): Promise<HolderState> {
      return waitFor(
        () => {
          const s = holder.state();
          own(s.childPid);
          return pred(s) && s;
        },
        { what },
      );
    },
    /** A raw socket to the holder, to speak through a connection and then cut mid-frame. */
    async rawPeer(): Promise<net.Socket> {
      const socket = net.createConnection(init.socketPath);
      await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
      cleanups.push(() => void socket.destroy());
      return socket;
    },
    async server(socket?: net.Socket) {
      const conn = socket ? new Connection(socket, holderSchema) : await connectUnix(init.socketPath, holderSchema);
      cleanups.push(() => conn.close());
      await connectHandshake(conn, { role: 'server', key: key('holder'), methods: ['state', 'terminate', 'controller'] });
      return conn;
    },
    async viewer(clientId: string, socket?: net.Socket) {
      const conn = socket ? new Connection(socket, dataSchema) : await connectUnix(init.socketPath, dataSchema);
      cleanups.push(() => conn.close());
      const ticket = ticketFor(clientId);
      await connectHandshake(conn, { role: 'data', key: ticketProofKey(key('ticket'), ticket), methods: ['surface', 'input'], extra: { ticket } });
      return conn;
    },
  };
}

/** The first half of a frame that announces `bodyBytes`: its length and part of its body. */
export function halfFrame(bodyBytes = 64): Buffer {
  const frame = Buffer.alloc(4 + bodyBytes / 2, 0x81);
  frame.writeUInt32BE(bodyBytes, 0);
  return frame;
}

/** The text of every row a viewer was sent, newest surface applied over the older ones. */
export function screenText(patches: Array<{ full: boolean; lines: Array<{ y: number; runs: Array<{ s: string }> }> }>): string {
  const rows: string[] = [];
  for (const p of patches) {
    if (p.full) rows.length = 0;
    for (const line of p.lines) rows[line.y] = line.runs.map((r) => r.s).join('');
  }
  return rows.join('\n');
}
