// The registry's schema as an ordered list of migration steps. A database at version v has run
// steps [0, v); opening it runs the rest in one transaction, so a later issue adds a table by
// appending a step, and a crash mid-migration leaves the previous version intact.

import type Database from 'better-sqlite3';
import { RegistryTooNewError } from './errors.js';

/** Keys of `meta` that the registry maintains itself; any other key is free for callers. */
export const META = {
  schemaVersion: 'schema_version',
  revision: 'revision',
  epoch: 'epoch',
  bootId: 'boot_id',
} as const;

export const RESERVED_META_KEYS: ReadonlySet<string> = new Set(Object.values(META));

/** The `leases` row that is the evidence of the writer lease (the OS lock is the authority). */
export const WRITER_LEASE_NAME = 'writer';

type Migration = (db: Database.Database) => void;

const createV1: Migration = (db) => {
  db.exec(`
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
  `);
  const put = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)');
  put.run(META.revision, '0');
  put.run(META.epoch, '0');
};

/**
 * Resume records (one per origin per tab, SPEC §9) and history (sessions no live tab holds, §15),
 * and the agent session a tab holds. Records have no foreign key to tabs: they outlive their tab
 * when a reboot moves it to history.
 */
const addRecordsAndHistory: Migration = (db) => {
  db.exec(`
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
  `);
};

/** The argv a session ran with (JSON), so a generic agent reopened from history runs its own
 * program again rather than the default shell. */
const addSessionCommands: Migration = (db) => {
  db.exec(`
    ALTER TABLE resume_records ADD COLUMN command TEXT;
    ALTER TABLE history ADD COLUMN command TEXT;
  `);
};

/** The child's start time beside its pid: a server that finds the child's holder gone verifies
 * the child by it before ending it (issue 15), as it does a holder. */
const addChildStart: Migration = (db) => {
  db.exec('ALTER TABLE tabs ADD COLUMN child_start TEXT;');
};

/**
 * A sleeping tab's lifecycle is 'asleep', the word people read, rather than 'suspended' (issue 29:
 * one name per concept). SQLite cannot alter a CHECK, so the table is rebuilt as SQLite's own
 * guide to schema changes does: the new table from the old one's stored definition with the new
 * list, every column copied in its place with the old word rewritten. Inside migrateTo's one
 * transaction, a crash mid-way leaves the version 4 table as it was.
 */
const renameSuspendedToAsleep: Migration = (db) => {
  const { sql } = db.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'tabs'").get() as { sql: string };
  const oldList = "'exited', 'failed', 'suspended')";
  if (!sql.startsWith('CREATE TABLE tabs (') || !sql.includes(oldList)) throw new Error('the tabs table is not version 4\'s');
  db.exec(sql.replace('CREATE TABLE tabs (', 'CREATE TABLE tabs_v5 (').replace(oldList, "'exited', 'failed', 'asleep')"));
  const columns = (db.prepare('PRAGMA table_info(tabs)').all() as { name: string }[]).map((c) => c.name);
  const values = columns.map((c) => (c === 'lifecycle' ? "CASE lifecycle WHEN 'suspended' THEN 'asleep' ELSE lifecycle END" : c));
  db.exec(`
    INSERT INTO tabs_v5 (${columns.join(', ')}) SELECT ${values.join(', ')} FROM tabs;
    DROP TABLE tabs;
    ALTER TABLE tabs_v5 RENAME TO tabs;
    CREATE INDEX tabs_by_ord ON tabs (ord);
  `);
};

/** Step i migrates version i to i + 1. Append only: a shipped step never changes. */
const MIGRATIONS: readonly Migration[] = [createV1, addRecordsAndHistory, addSessionCommands, addChildStart, renameSuspendedToAsleep];

/** The version whose tabs say 'asleep': an older file, read without migrating it, says 'suspended'. */
export const ASLEEP_SCHEMA_VERSION = MIGRATIONS.indexOf(renameSuspendedToAsleep) + 1;
/** A sleeping tab's lifecycle in a file older than ASLEEP_SCHEMA_VERSION. */
export const SUSPENDED_BEFORE_ASLEEP = 'suspended';

export const SCHEMA_VERSION = MIGRATIONS.length;

/** The schema version of `db`: 0 for a database with no meta table (a new, empty file). */
export function schemaVersionOf(db: Database.Database): number {
  const hasMeta = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'").get();
  if (hasMeta === undefined) return 0;
  const row = db.prepare('SELECT value FROM meta WHERE key = ?').get(META.schemaVersion) as
    | { value: string }
    | undefined;
  return row === undefined ? 0 : Number(row.value);
}

/** Brings `db` to SCHEMA_VERSION in one immediate transaction; a no-op when already current. */
export function migrate(db: Database.Database): void {
  migrateTo(db, SCHEMA_VERSION);
}

/**
 * Brings `db` to `target` in one immediate transaction. Anything but SCHEMA_VERSION is for tests
 * that need a database as an older a1 left it, to prove the later steps keep its data.
 */
export function migrateTo(db: Database.Database, target: number): void {
  if (!Number.isInteger(target) || target < 1 || target > SCHEMA_VERSION) {
    throw new RangeError(`schema version ${target} is not between 1 and ${SCHEMA_VERSION}`);
  }
  db.transaction(() => {
    const found = schemaVersionOf(db);
    if (found > SCHEMA_VERSION) throw new RegistryTooNewError(found, SCHEMA_VERSION);
    for (let version = found; version < target; version++) MIGRATIONS[version](db);
    if (found < target) {
      db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run(META.schemaVersion, String(target));
    }
  }).immediate();
}
