// A registry file as a version 4 a1 left it (before issue 29 renamed a sleeping tab 'asleep'):
// its schema, two tabs after a host stop, how the file reads without migrating it, and the state
// directories and registries of a test, ended after it.
import fs from 'node:fs';
import Database from 'better-sqlite3';
import { afterEach } from 'vitest';
import { ensurePrivateFile } from '../../src/store/files.js';
import { registryPath } from '../../src/store/layout.js';
import { Registry, WriterLease, type TabRow } from '../../src/store/registry.js';
import { migrateTo } from '../../src/store/schema.js';
import { makeStateDir } from './helpers.js';

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
    // The shipped steps never change (append only), so their first four make the version 4 schema.
    migrateTo(db, 4);
    const meta = db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)');
    for (const [key, value] of [['revision', '9'], ['epoch', '3']]) meta.run(key, value);
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

const SERVER_ID = { pid: 4242, startTime: '123456', bootId: 'boot-a' };

/** A test's state directories and open registries, released after each test of the file. */
export function registryFixture(): { stateDir(): string; started(dir: string): Registry } {
  const dirs: string[] = [];
  const closers: (() => void)[] = [];
  afterEach(() => {
    for (const close of closers.splice(0).reverse()) close();
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });
  return {
    stateDir: () => {
      const dir = makeStateDir();
      dirs.push(dir);
      return dir;
    },
    /** Opens the registry as a server does (lease, migration, epoch commit). */
    started: (dir) => {
      const lease = WriterLease.tryAcquire(dir);
      if (lease === null) throw new Error('lease unexpectedly taken');
      closers.push(() => lease.release());
      const { registry } = Registry.open({ stateDir: dir });
      closers.push(() => registry.close());
      registry.startServer(lease, SERVER_ID);
      return registry;
    },
  };
}
