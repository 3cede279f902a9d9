// A server process a test starts itself (`a1 __server`, as a client would, with the status pipe on
// fd 3), so that it can arm a test-only override for that one server and see how it ended: a
// crash point's SIGKILL, a fenced exit, a "recovery blocked" report.
import { spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import Database from 'better-sqlite3';
import path from 'node:path';
import { A1_BIN } from '../helpers/pty.js';
import { track } from '../helpers/procs.js';
import { stateDir, type E2E } from './harness.js';

/** The one status line a server writes on fd 3 (SPEC §15), or null when it wrote none. */
export interface ServerStatus {
  ready?: boolean;
  lost?: boolean;
  pid?: number;
  epoch?: number;
  error?: { code: string; message: string };
}

export interface ServerProcess {
  pid: number;
  status: Promise<ServerStatus | null>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts the profile's server with the test's environment plus `env`, detached like a client does. */
export function spawnServer(t: E2E, env: Record<string, string> = {}): ServerProcess {
  const child = spawn(process.execPath, [A1_BIN, '__server', '--profile', 'default'], {
    detached: true,
    stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
    env: { ...t.env, ...env },
  });
  if (child.pid === undefined) throw new Error('the server did not spawn');
  track(child.pid);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  const pipe = child.stdio[3] as Readable;
  const status = new Promise<ServerStatus | null>((resolve) => {
    let buf = '';
    pipe.on('data', (chunk: Buffer) => {
      buf += chunk.toString('utf8');
      const nl = buf.indexOf('\n');
      if (nl >= 0) resolve(JSON.parse(buf.slice(0, nl)) as ServerStatus);
    });
    pipe.on('error', () => resolve(null));
    pipe.once('close', () => resolve(null));
  });
  return { pid: child.pid, status, exited };
}

/** The registry as the next start would load it, read straight from disk. */
export interface DiskRegistry {
  tabs: { id: string; name: string; holderPid: number | null }[];
  epoch: number;
  writer: { pid: number; startTime: string; epoch: number } | null;
  resumeRecords: { tabId: string; origin: string }[];
  history: number;
}

export function readDiskRegistry(t: E2E): DiskRegistry {
  const db = new Database(path.join(stateDir(t), 'registry.db'), { readonly: true, fileMustExist: true, timeout: 5_000 });
  try {
    const tabs = db.prepare('SELECT id, name, holder_pid AS holderPid FROM tabs ORDER BY ord, created_at, id').all() as DiskRegistry['tabs'];
    const epoch = Number((db.prepare("SELECT value FROM meta WHERE key = 'epoch'").get() as { value: string } | undefined)?.value ?? 0);
    const lease = db.prepare("SELECT owner_pid AS pid, owner_start AS startTime, epoch FROM leases WHERE name = 'writer'").get() as DiskRegistry['writer'] | undefined;
    const resumeRecords = db.prepare('SELECT tab_id AS tabId, origin FROM resume_records').all() as DiskRegistry['resumeRecords'];
    const history = (db.prepare('SELECT count(*) AS n FROM history').get() as { n: number }).n;
    return { tabs, epoch, writer: lease ?? null, resumeRecords, history };
  } finally {
    db.close();
  }
}
