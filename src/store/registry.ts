// The profile's registry (SPEC §5): one SQLite database in WAL mode, written only by the holder
// of the writer lease, every mutation one transaction fenced by the epoch that writer started.
// Beside it: connections.ts opens the writer's connection, readOnly.ts reads without the lease,
// queries.ts holds the meta and tab reads both use.

import path from 'node:path';
import type Database from 'better-sqlite3';
import { FencedError, ReservedMetaKeyError, TabNotFoundError } from './errors.js';
import { crashPoint, type RegistryMutation } from '../crashPoints.js';
import { openWriterConnection } from './connections.js';
import { writeGeneration } from './generations.js';
import { backupsPath } from './layout.js';
import type { WriterLease } from './lease.js';
import { bumpRevision, readCounter, readMeta, readTab, readTabs, writeMeta } from './queries.js';
import { openReadOnlyRegistry, readRecordedWriter, type ReadonlyRegistry, type WriterRecord } from './readOnly.js';
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
import { META, RESERVED_META_KEYS, WRITER_LEASE_NAME } from './schema.js';
import { FIELD_COLUMNS, patchToColumns, tabToColumns, type TabPatch, type TabRow } from './tabRow.js';

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
export type { NameSource, TabRow } from './tabRow.js';
export type { HistoryEntry, HistoryReason, RecordOrigin, ResumeRecord } from './records.js';
export type { ReadonlyRegistry, WriterRecord } from './readOnly.js';

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
    const { db, notices, noteClosed } = openWriterConnection(stateDir, now);
    return { registry: new Registry(db, stateDir, now, noteClosed), notices };
  }

  /**
   * Opens the registry for reading without the lease (for `a1 tabs` with no server running):
   * no writes, no recovery. Null when there is no registry yet. Works beside a live writer.
   */
  static openReadOnly(stateDir: string): ReadonlyRegistry | null {
    return openReadOnlyRegistry(stateDir);
  }

  /**
   * The writer the `leases` row records (the evidence of the OS lock), read without the lease;
   * null when there is no registry or no row yet. Only for a process that does not have the
   * registry open: closing this connection would drop that one's POSIX locks (see files.ts).
   */
  static recordedWriter(stateDir: string): WriterRecord | null {
    return readRecordedWriter(stateDir);
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
