// Reading the registry without the writer lease: `a1 tabs` with no server running, and the
// writer the `leases` row records. Never writes, never recovers; works beside a live writer.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { noteOpened, REGISTRY_BUSY_TIMEOUT_MS } from './connections.js';
import { RegistryUnreadableError } from './errors.js';
import { registryPath } from './layout.js';
import { readCounter, readMeta, readTabs } from './queries.js';
import { readHistory, readResumeRecords, type HistoryEntry, type ResumeRecord } from './records.js';
import { ASLEEP_SCHEMA_VERSION, META, schemaVersionOf, SUSPENDED_BEFORE_ASLEEP, WRITER_LEASE_NAME } from './schema.js';
import type { TabRow } from './tabRow.js';

/** The process the `leases` row names as the writer, and the epoch it started. */
export interface WriterRecord {
  pid: number;
  startTime: string;
  epoch: number;
}

export interface ReadonlyRegistry {
  listTabs(): TabRow[];
  readonly revision: number;
  readonly epoch: number;
  getMeta(key: string): string | null;
  listResumeRecords(): ResumeRecord[];
  /** Newest first. */
  listHistory(limit?: number): HistoryEntry[];
  close(): void;
}

/** The schema version that added resume_records and history; an older file has neither yet. */
const RECORDS_SCHEMA_VERSION = 3;

/** A row of a file older than ASLEEP_SCHEMA_VERSION as its migration would write it. */
function asMigrated(tab: TabRow): TabRow {
  return (tab.lifecycle as string) === SUSPENDED_BEFORE_ASLEEP ? { ...tab, lifecycle: 'asleep' } : tab;
}

/**
 * Opens the registry for reading without the lease (for `a1 tabs` with no server running):
 * no writes, no recovery. Null when there is no registry yet. Works beside a live writer.
 */
export function openReadOnlyRegistry(stateDir: string): ReadonlyRegistry | null {
  const file = registryPath(path.resolve(stateDir));
  if (!fs.existsSync(file)) return null;
  let db: Database.Database;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true, timeout: REGISTRY_BUSY_TIMEOUT_MS });
  } catch (error) {
    if ((error as { code?: unknown }).code === 'SQLITE_CANTOPEN') return null;
    throw error;
  }
  try {
    if (schemaVersionOf(db) === 0) {
      db.close();
      return null;
    }
  } catch (error) {
    db.close();
    if (error instanceof Database.SqliteError) throw new RegistryUnreadableError(file);
    throw error;
  }
  const noteClosed = noteOpened(file);
  // A read-only open cannot migrate: a file no server has opened since an upgrade has no records,
  // and its sleeping tabs say the older word.
  const hasRecords = () => schemaVersionOf(db) >= RECORDS_SCHEMA_VERSION;
  return {
    listTabs: () => (schemaVersionOf(db) >= ASLEEP_SCHEMA_VERSION ? readTabs(db) : readTabs(db).map(asMigrated)),
    get revision() {
      return readCounter(db, META.revision);
    },
    get epoch() {
      return readCounter(db, META.epoch);
    },
    getMeta: (key) => readMeta(db, key),
    listResumeRecords: () => (hasRecords() ? readResumeRecords(db) : []),
    listHistory: (limit) => (hasRecords() ? readHistory(db, limit) : []),
    close: () => {
      if (db.open) db.close();
      noteClosed();
    },
  };
}

/**
 * The writer the `leases` row records (the evidence of the OS lock), read without the lease;
 * null when there is no registry or no row yet. Only for a process that does not have the
 * registry open: closing this connection would drop that one's POSIX locks (see files.ts).
 */
export function readRecordedWriter(stateDir: string): WriterRecord | null {
  const file = registryPath(path.resolve(stateDir));
  if (!fs.existsSync(file)) return null;
  const db = new Database(file, { readonly: true, fileMustExist: true, timeout: REGISTRY_BUSY_TIMEOUT_MS });
  try {
    if (schemaVersionOf(db) === 0) return null;
    const row = db.prepare('SELECT owner_pid, owner_start, epoch FROM leases WHERE name = ?').get(WRITER_LEASE_NAME) as
      | { owner_pid: number; owner_start: string; epoch: number }
      | undefined;
    return row === undefined ? null : { pid: row.owner_pid, startTime: row.owner_start, epoch: row.epoch };
  } finally {
    db.close();
  }
}
