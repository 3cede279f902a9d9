// The profile's registry (SPEC §5): one SQLite database in WAL mode, written only by the holder
// of the writer lease, every mutation one transaction fenced by the epoch that writer started.

import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { FencedError, RegistryUnreadableError, ReservedMetaKeyError, TabNotFoundError } from './errors.js';
import { crashPoint, type RegistryMutation } from '../crashPoints.js';
import { ensurePrivateFile, PRIVATE_FILE_MODE } from './files.js';
import { writeGeneration } from './generations.js';
import { removeStaleScratch } from './integrity.js';
import { backupsPath, registryPath, WAL_SUFFIXES } from './layout.js';
import type { WriterLease } from './lease.js';
import { recoverRegistry, type Recovery } from './recovery.js';
import {
  deleteResumeRecordsById,
  insertHistory,
  readHistory,
  readResumeRecords,
  upsertResumeRecord,
  type HistoryEntry,
  type HistoryReason,
  type ResumeRecord,
} from './records.js';
import { META, migrate, RESERVED_META_KEYS, schemaVersionOf, WRITER_LEASE_NAME } from './schema.js';
import { columnsToTab, FIELD_COLUMNS, patchToColumns, tabToColumns, type TabColumns, type TabPatch, type TabRow } from './tabRow.js';

export { BACKUP_GENERATIONS, BackupFailedError } from './generations.js';
export { WriterLease } from './lease.js';
export {
  FencedError,
  RegistryBlockedError,
  RegistryTooNewError,
  RegistryUnreadableError,
  ReservedMetaKeyError,
  TabNotFoundError,
} from './errors.js';
export type { Lifecycle, NameSource, TabRow } from './tabRow.js';
export type { HistoryEntry, HistoryReason, RecordOrigin, ResumeRecord } from './records.js';

/**
 * How long a statement waits for another connection's lock: a read-only `a1 tabs` may meet the
 * writer's checkpoint, and a new writer may meet a dying one's last commit. Both are over in
 * milliseconds; a few seconds absorbs a stalled disk without hanging a command for long.
 */
const REGISTRY_BUSY_TIMEOUT_MS = 5_000;

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

/**
 * Connections this module has open, per registry file, in this process. The integrity check
 * copies the file, and closing that copy's descriptor would drop the POSIX locks of a live
 * connection to it here (see files.ts), so a file already open in this process is not re-checked:
 * a live connection is using it.
 */
const openHere = new Map<string, number>();

function noteOpened(file: string): () => void {
  openHere.set(file, (openHere.get(file) ?? 0) + 1);
  let closed = false;
  return () => {
    if (closed) return;
    closed = true;
    const left = (openHere.get(file) ?? 1) - 1;
    if (left === 0) openHere.delete(file);
    else openHere.set(file, left);
  };
}

const ORDERED_TABS_SQL = 'SELECT * FROM tabs ORDER BY ord, created_at, id';

function readMeta(db: Database.Database, key: string): string | null {
  const row = db.prepare('SELECT value FROM meta WHERE key = ?').get(key) as { value: string | null } | undefined;
  return row?.value ?? null;
}

function readCounter(db: Database.Database, key: string): number {
  return Number(readMeta(db, key) ?? 0);
}

function writeMeta(db: Database.Database, key: string, value: string): void {
  db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run(key, value);
}

function readTabs(db: Database.Database): TabRow[] {
  return (db.prepare(ORDERED_TABS_SQL).all() as TabColumns[]).map(columnsToTab);
}

function readTab(db: Database.Database, id: string): TabRow | null {
  const row = db.prepare('SELECT * FROM tabs WHERE id = ?').get(id) as TabColumns | undefined;
  return row === undefined ? null : columnsToTab(row);
}

function bumpRevision(db: Database.Database): number {
  const revision = readCounter(db, META.revision) + 1;
  writeMeta(db, META.revision, String(revision));
  return revision;
}

/** SQLite creates -wal/-shm with the main file's mode; this repairs files left by an older umask. */
function chmodCompanions(file: string): void {
  for (const suffix of WAL_SUFFIXES) {
    try {
      fs.chmodSync(file + suffix, PRIVATE_FILE_MODE);
    } catch {
      // Not created yet: SQLite will create it with the main file's 0600.
    }
  }
}

export class Registry {
  readonly #db: Database.Database;
  readonly #stateDir: string;
  readonly #now: () => number;
  readonly #noteClosed: () => void;
  #lease: WriterLease | null = null;
  #epoch: number | null = null;

  private constructor(db: Database.Database, stateDir: string, now: () => number, noteClosed: () => void) {
    this.#db = db;
    this.#stateDir = stateDir;
    this.#now = now;
    this.#noteClosed = noteClosed;
  }

  /**
   * Opens the registry for writing: checks its integrity, recovers from the newest valid
   * generation if needed (one notice per recovery), and migrates the schema. Call it holding the
   * writer lease, since recovery and migration write. Throws RegistryBlockedError when the
   * registry is corrupt and no generation is valid, with every file left as it was.
   */
  static open(opts: { stateDir: string; now?: () => number }): { registry: Registry; notices: string[] } {
    const stateDir = path.resolve(opts.stateDir);
    const now = opts.now ?? Date.now;
    const file = registryPath(stateDir);
    let recovery: Recovery = { notices: [], epochFloor: null };
    if (!openHere.has(file)) {
      removeStaleScratch(stateDir);
      recovery = recoverRegistry(stateDir, now());
    }
    const { notices, epochFloor } = recovery;
    ensurePrivateFile(file);
    chmodCompanions(file);
    const db = new Database(file, { timeout: REGISTRY_BUSY_TIMEOUT_MS });
    try {
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = FULL');
      migrate(db);
      if (epochFloor !== null) {
        db.transaction(() => {
          if (readCounter(db, META.epoch) < epochFloor) writeMeta(db, META.epoch, String(epochFloor));
        }).immediate();
      }
    } catch (error) {
      db.close();
      throw error;
    }
    return { registry: new Registry(db, stateDir, now, noteOpened(file)), notices };
  }

  /**
   * Opens the registry for reading without the lease (for `a1 tabs` with no server running):
   * no writes, no recovery. Null when there is no registry yet. Works beside a live writer.
   */
  static openReadOnly(stateDir: string): ReadonlyRegistry | null {
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
    // A read-only open cannot migrate: a file no server has opened since an upgrade has no records.
    const hasRecords = () => schemaVersionOf(db) >= RECORDS_SCHEMA_VERSION;
    return {
      listTabs: () => readTabs(db),
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
  static recordedWriter(stateDir: string): WriterRecord | null {
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

  /**
   * Makes this registry the writer for a new epoch: in one committed transaction, increments the
   * epoch, records the writer lease row and the boot id. Every later mutation is fenced by it.
   */
  startServer(lease: WriterLease, id: { pid: number; startTime: string; bootId: string }): { epoch: number; previousBootId: string | null } {
    if (!lease.held) throw new FencedError('the writer lease has been released');
    if (lease.stateDir !== this.#stateDir) throw new FencedError('the writer lease is for another state directory');
    const db = this.#db;
    crashPoint('registry.startServer.before');
    const started = db
      .transaction(() => {
        const epoch = readCounter(db, META.epoch) + 1;
        const previousBootId = readMeta(db, META.bootId);
        writeMeta(db, META.epoch, String(epoch));
        writeMeta(db, META.bootId, id.bootId);
        db.prepare(
          'INSERT OR REPLACE INTO leases (name, owner_pid, owner_start, epoch, acquired_at) VALUES (?, ?, ?, ?, ?)',
        ).run(WRITER_LEASE_NAME, id.pid, id.startTime, epoch, this.#now());
        return { epoch, previousBootId };
      })
      .immediate();
    crashPoint('registry.startServer.after');
    this.#lease = lease;
    this.#epoch = started.epoch;
    return started;
  }

  /** The epoch this registry writes under once started; before that, the durable epoch. */
  get epoch(): number {
    return this.#epoch ?? readCounter(this.#db, META.epoch);
  }

  get revision(): number {
    return readCounter(this.#db, META.revision);
  }

  /** The connection's durability settings, for `a1 tabs doctor` and for tests to confirm them. */
  diagnostics(): { journalMode: string; synchronous: number; busyTimeoutMs: number } {
    return {
      journalMode: String(this.#db.pragma('journal_mode', { simple: true })),
      synchronous: Number(this.#db.pragma('synchronous', { simple: true })),
      busyTimeoutMs: Number(this.#db.pragma('busy_timeout', { simple: true })),
    };
  }

  listTabs(): TabRow[] {
    return readTabs(this.#db);
  }

  getTab(id: string): TabRow | null {
    return readTab(this.#db, id);
  }

  /** Adds a tab after the last one. A topology change: bumps the revision. */
  insertTab(tab: Omit<TabRow, 'ord'>): { revision: number; tab: TabRow } {
    return this.#mutate('insertTab', () => {
      const { ord } = this.#db.prepare('SELECT coalesce(max(ord) + 1, 0) AS ord FROM tabs').get() as { ord: number };
      const row: TabRow = { ...tab, ord };
      const columns = tabToColumns(row);
      const names = Object.keys(columns);
      this.#db
        .prepare(`INSERT INTO tabs (${names.join(', ')}) VALUES (${names.map((n) => '@' + n).join(', ')})`)
        .run(columns);
      return { revision: bumpRevision(this.#db), tab: row };
    });
  }

  /**
   * Applies `patch` to a tab. `topology` (name, order...) bumps the revision; other updates
   * (pids, lifecycle, controller revision) do not. Returns the revision after the update.
   */
  updateTab(id: string, patch: TabPatch, opts: { topology: boolean }): number {
    const columns = patchToColumns(patch);
    return this.#mutate(opts.topology ? 'updateTopology' : 'updateTab', () => {
      const names = Object.keys(columns);
      if (names.length > 0) {
        const assignments = names.map((n) => `${n} = @${n}`).join(', ');
        const result = this.#db
          .prepare(`UPDATE tabs SET ${assignments} WHERE ${FIELD_COLUMNS.id} = @__id`)
          .run({ ...columns, __id: id });
        if (result.changes === 0) throw new TabNotFoundError(id);
      } else if (readTab(this.#db, id) === null) {
        throw new TabNotFoundError(id);
      }
      return opts.topology ? bumpRevision(this.#db) : readCounter(this.#db, META.revision);
    });
  }

  /**
   * Puts the tabs in the given order (every tab id, each once) in one transaction. A topology
   * change: bumps the revision once.
   */
  reorderTabs(orderedIds: readonly string[]): number {
    return this.#mutate('reorderTabs', () => {
      const ids = readTabs(this.#db).map((t) => t.id);
      if (ids.length !== orderedIds.length || new Set(orderedIds).size !== ids.length || !ids.every((id) => orderedIds.includes(id))) {
        throw new TabNotFoundError(orderedIds.find((id) => !ids.includes(id)) ?? '(order)');
      }
      const set = this.#db.prepare(`UPDATE tabs SET ${FIELD_COLUMNS.ord} = ? WHERE ${FIELD_COLUMNS.id} = ?`);
      orderedIds.forEach((id, i) => set.run(i, id));
      return bumpRevision(this.#db);
    });
  }

  /** Removes a tab. A topology change: bumps the revision. */
  deleteTab(id: string): number {
    return this.#mutate('deleteTab', () => {
      const result = this.#db.prepare('DELETE FROM tabs WHERE id = ?').run(id);
      if (result.changes === 0) throw new TabNotFoundError(id);
      return bumpRevision(this.#db);
    });
  }

  getMeta(key: string): string | null {
    return readMeta(this.#db, key);
  }

  /** Stores a resume record, replacing the tab's record of the same origin (and keeping its id). */
  putResumeRecord(r: Omit<ResumeRecord, 'id'> & { id?: string }): ResumeRecord {
    return this.#mutate('putResumeRecord', () => upsertResumeRecord(this.#db, r));
  }

  /** Ordered by capture time, then id. */
  listResumeRecords(): ResumeRecord[] {
    return readResumeRecords(this.#db);
  }

  listResumeRecordsOf(tabId: string): ResumeRecord[] {
    return readResumeRecords(this.#db, tabId);
  }

  /** Returns how many of `ids` existed and were deleted. */
  deleteResumeRecords(ids: readonly string[]): number {
    return this.#mutate('deleteResumeRecords', () => deleteResumeRecordsById(this.#db, ids));
  }

  /**
   * Closes a tab in one transaction: deletes its row, revokes the listed records and records the
   * history entries. Only records of this tab are revoked, so a stale plan can never revoke a
   * sibling's. A topology change: bumps the revision once and returns it.
   */
  retireTab(tabId: string, opts: { revoke: readonly string[]; history: readonly Omit<HistoryEntry, 'id'>[] }): number {
    return this.#mutate('retireTab', () => {
      const result = this.#db.prepare('DELETE FROM tabs WHERE id = ?').run(tabId);
      if (result.changes === 0) throw new TabNotFoundError(tabId);
      deleteResumeRecordsById(this.#db, opts.revoke, tabId);
      for (const entry of opts.history) insertHistory(this.#db, entry);
      return bumpRevision(this.#db);
    });
  }

  /**
   * After a reboot: moves every tab to history with `reason` and deletes the tab rows, in one
   * transaction, leaving every resume record in place so each session stays resumable. Bumps the
   * revision once if any tab moved. Returns the entries, in tab order.
   */
  moveAllTabsToHistory(
    reason: HistoryReason,
    at: number,
    sessionOf: (tab: TabRow) => { agentKind: string; sessionId: string | null },
  ): HistoryEntry[] {
    return this.#mutate('moveAllTabsToHistory', () => {
      const tabs = readTabs(this.#db);
      const entries = tabs.map((tab) => {
        const { agentKind, sessionId } = sessionOf(tab);
        return insertHistory(this.#db, { tabId: tab.id, name: tab.name, agentKind, sessionId, cwd: tab.cwd, reason, at, command: tab.command });
      });
      if (tabs.length > 0) {
        this.#db.prepare('DELETE FROM tabs').run();
        bumpRevision(this.#db);
      }
      return entries;
    });
  }

  /** Records a session no live tab holds (for example one whose records expired). */
  addHistory(e: Omit<HistoryEntry, 'id'>): HistoryEntry {
    return this.#mutate('addHistory', () => insertHistory(this.#db, e));
  }

  /** Newest first; every entry when `limit` is omitted. */
  listHistory(limit?: number): HistoryEntry[] {
    return readHistory(this.#db, limit);
  }

  /** Sets a free meta key (e.g. last_viewed_tab). Not a topology change. */
  setMeta(key: string, value: string): void {
    if (RESERVED_META_KEYS.has(key)) throw new ReservedMetaKeyError(key);
    this.#mutate('setMeta', () => writeMeta(this.#db, key, value));
  }

  /** Writes a verified backup generation and returns its path; keeps the newest few. */
  backup(): string {
    this.#checkFence();
    crashPoint('backup.generation.before');
    const file = writeGeneration(this.#db, backupsPath(this.#stateDir), this.epoch, this.#now());
    crashPoint('backup.generation.after');
    return file;
  }

  /** Closes the database; safe to call more than once. The lease is released separately. */
  close(): void {
    if (this.#db.open) this.#db.close();
    this.#noteClosed();
  }

  /** False once the lease is gone or a newer epoch has been committed: a fenced writer stops. */
  get isWriter(): boolean {
    try {
      this.#checkFence();
      return true;
    } catch (error) {
      if (error instanceof FencedError) return false;
      throw error;
    }
  }

  /** Throws FencedError unless this registry still holds the lease and the durable epoch is its own. */
  #checkFence(): void {
    if (this.#lease === null || this.#epoch === null) throw new FencedError('this registry has not started a server epoch');
    if (!this.#lease.held) throw new FencedError('the writer lease has been released');
    const durable = readCounter(this.#db, META.epoch);
    if (durable !== this.#epoch) {
      throw new FencedError(`epoch ${this.#epoch} has been superseded by epoch ${durable}`);
    }
  }

  /** Runs `fn` as one immediate transaction that commits only if the fence still holds inside it. */
  #mutate<T>(step: RegistryMutation, fn: () => T): T {
    crashPoint(`registry.${step}.before`);
    const result = this.#db
      .transaction(() => {
        this.#checkFence();
        return fn();
      })
      .immediate();
    crashPoint(`registry.${step}.after`);
    return result;
  }
}
