// A registry file as a version 4 a1 left it (before issue 29 renamed a sleeping tab 'asleep'):
// its schema verbatim, two tabs after a host stop, and how the file reads without migrating it.
import Database from 'better-sqlite3';
import { ensurePrivateFile } from '../../src/store/files.js';
import { registryPath } from '../../src/store/layout.js';
import type { TabRow } from '../../src/store/registry.js';

/** The schema of version 4 exactly as the a1 that wrote it created it (its four steps, verbatim). */
export const V4_DDL = `
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT) STRICT;
    CREATE TABLE tabs (
      id TEXT PRIMARY KEY,
      kind TEXT NOT NULL,
      name TEXT NOT NULL,
      name_source TEXT NOT NULL CHECK (name_source IN ('default', 'user', 'auto')),
      ord INTEGER NOT NULL,
      cwd TEXT NOT NULL,
      command TEXT,
      desired TEXT NOT NULL CHECK (desired IN ('running', 'stopped')),
      lifecycle TEXT NOT NULL CHECK (lifecycle IN ('starting', 'running', 'exited', 'failed', 'suspended')),
      holder_pid INTEGER,
      holder_start TEXT,
      holder_inc TEXT,
      child_pid INTEGER,
      child_inc TEXT,
      controller_rev INTEGER NOT NULL,
      last_exit TEXT,
      created_at INTEGER NOT NULL,
      viewed_at INTEGER
    ) STRICT;
    CREATE INDEX tabs_by_ord ON tabs (ord);
    CREATE TABLE leases (
      name TEXT PRIMARY KEY,
      owner_pid INTEGER NOT NULL,
      owner_start TEXT NOT NULL,
      epoch INTEGER NOT NULL,
      acquired_at INTEGER NOT NULL
    ) STRICT;

    CREATE TABLE resume_records (
      id TEXT PRIMARY KEY,
      tab_id TEXT NOT NULL,
      agent_kind TEXT NOT NULL,
      session_id TEXT NOT NULL,
      cwd TEXT NOT NULL,
      name TEXT NOT NULL,
      origin TEXT NOT NULL CHECK (origin IN ('live', 'quit', 'sleep')),
      captured_at INTEGER NOT NULL
    ) STRICT;
    CREATE INDEX resume_records_by_tab ON resume_records (tab_id);
    CREATE UNIQUE INDEX resume_records_one_per_origin ON resume_records (tab_id, origin);
    CREATE TABLE history (
      id TEXT PRIMARY KEY,
      tab_id TEXT NOT NULL,
      name TEXT NOT NULL,
      agent_kind TEXT NOT NULL,
      session_id TEXT,
      cwd TEXT NOT NULL,
      reason TEXT NOT NULL CHECK (reason IN ('closed', 'reboot', 'expired')),
      at INTEGER NOT NULL
    ) STRICT;
    CREATE INDEX history_by_at ON history (at);
    ALTER TABLE tabs ADD COLUMN session_id TEXT;

    ALTER TABLE resume_records ADD COLUMN command TEXT;
    ALTER TABLE history ADD COLUMN command TEXT;

    ALTER TABLE tabs ADD COLUMN child_start TEXT;
`;

/** The two tabs of the version 4 file: one put to sleep by a host stop, one that ran. */
export const SLEPT: TabRow = {
  id: 'slept', kind: 'claude', sessionId: 'session-1', name: 'napping', nameSource: 'user', ord: 0, cwd: '/srv', command: ['claude'],
  desired: 'running', lifecycle: 'asleep', holderPid: null, holderStart: null, holderInc: null, childPid: null, childStart: null,
  childInc: null, controllerRev: 7, lastExit: null, createdAt: 1700, viewedAt: 1800,
};
export const RAN: TabRow = {
  ...SLEPT, id: 'ran', kind: 'shell', sessionId: null, name: 'build', nameSource: 'default', ord: 1, command: null, desired: 'stopped',
  lifecycle: 'exited', lastExit: { code: 0, signal: null }, controllerRev: 2, createdAt: 1701, viewedAt: null,
};

/** Writes the registry as a version 4 a1 left it after a host stop: WAL, revision 9, two tabs. */
export function writeV4Registry(dir: string): void {
  const file = registryPath(dir);
  ensurePrivateFile(file);
  const db = new Database(file);
  try {
    db.pragma('journal_mode = WAL');
    db.exec(V4_DDL);
    const meta = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)');
    for (const [key, value] of [['revision', '9'], ['epoch', '3'], ['schema_version', '4']]) meta.run(key, value);
    const tab = db.prepare(
      `INSERT INTO tabs (id, kind, session_id, name, name_source, ord, cwd, command, desired, lifecycle, controller_rev, last_exit, created_at, viewed_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    tab.run('slept', 'claude', 'session-1', 'napping', 'user', 0, '/srv', '["claude"]', 'running', 'suspended', 7, null, 1700, 1800);
    tab.run('ran', 'shell', null, 'build', 'default', 1, '/srv', null, 'stopped', 'exited', 2, '{"code":0,"signal":null}', 1701, null);
  } finally {
    db.close();
  }
}

/** What the file says, read by a connection of its own, without migrating it. */
export function rawState(dir: string): { version: string; lifecycles: unknown[]; check: string } {
  const db = new Database(registryPath(dir), { readonly: true });
  try {
    return {
      version: (db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get() as { value: string }).value,
      lifecycles: db.prepare('SELECT id, lifecycle FROM tabs ORDER BY ord').all(),
      check: /lifecycle IN \(([^)]*)\)/.exec((db.prepare("SELECT sql FROM sqlite_master WHERE name = 'tabs'").get() as { sql: string }).sql)?.[1] ?? '',
    };
  } finally {
    db.close();
  }
}
