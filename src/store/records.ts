// Resume records and history as the registry stores them (SPEC §9, §15 "History"), and the thin
// statements that read and write their tables. The shapes match src/lifecycle/records.ts; each
// COLUMNS map is the one list of which field lives in which column.

import crypto from 'node:crypto';
import type Database from 'better-sqlite3';
// The record's shape is the pure lifecycle core's; the store only maps it to columns.
import type { ResumeRecord } from '../lifecycle/records.js';

export type { RecordOrigin, ResumeRecord } from '../lifecycle/records.js';

export type HistoryReason = 'closed' | 'reboot' | 'expired';

export interface HistoryEntry {
  id: string;
  tabId: string;
  name: string;
  agentKind: string;
  sessionId: string | null;
  cwd: string;
  reason: HistoryReason;
  at: number;
  /** The tab's own argv when it had one; null (or absent) for the default. Stored as JSON. */
  command?: string[] | null;
}

const RECORD_COLUMNS: { readonly [K in keyof ResumeRecord]-?: string } = {
  id: 'id',
  tabId: 'tab_id',
  agentKind: 'agent_kind',
  sessionId: 'session_id',
  cwd: 'cwd',
  name: 'name',
  origin: 'origin',
  capturedAt: 'captured_at',
  command: 'command',
};

const HISTORY_COLUMNS: { readonly [K in keyof HistoryEntry]-?: string } = {
  id: 'id',
  tabId: 'tab_id',
  name: 'name',
  agentKind: 'agent_kind',
  sessionId: 'session_id',
  cwd: 'cwd',
  reason: 'reason',
  at: 'at',
  command: 'command',
};

/** Every field is a plain SQLite value, so a row maps to its object by renaming columns in SQL. */
function selectList(columns: Readonly<Record<string, string>>): string {
  return Object.entries(columns)
    .map(([field, column]) => `${column} AS ${field}`)
    .join(', ');
}

/** `INSERT INTO table (cols) VALUES (@field, ...)`, bound with the object itself. */
function insertSql(table: string, columns: Readonly<Record<string, string>>): string {
  const fields = Object.keys(columns);
  return `INSERT INTO ${table} (${fields.map((f) => columns[f]).join(', ')}) VALUES (${fields.map((f) => '@' + f).join(', ')})`;
}

/** `UPDATE table SET col = @field, ... WHERE id = @id`, bound with the object itself. */
function updateSql(table: string, columns: Readonly<Record<string, string>> & { id: string }): string {
  const fields = Object.keys(columns).filter((f) => f !== 'id');
  return `UPDATE ${table} SET ${fields.map((f) => `${columns[f]} = @${f}`).join(', ')} WHERE ${columns.id} = @id`;
}

const RECORDS_SQL = `SELECT ${selectList(RECORD_COLUMNS)} FROM resume_records`;
const RECORDS_ORDER = `ORDER BY ${RECORD_COLUMNS.capturedAt}, ${RECORD_COLUMNS.id}`;
// rowid breaks ties between entries written at the same time (a reboot moves a whole set at once).
const HISTORY_SQL = `SELECT ${selectList(HISTORY_COLUMNS)} FROM history ORDER BY ${HISTORY_COLUMNS.at} DESC, rowid DESC LIMIT ?`;

/** SQLite reads a negative LIMIT as no limit. */
const NO_LIMIT = -1;

/** `command` is the one structured field: JSON text in its column, argv in the object. */
function decodeCommand<T extends { command?: unknown }>(row: T): T {
  return { ...row, command: typeof row.command === 'string' ? (JSON.parse(row.command) as string[]) : null };
}

function encodeCommand(command: string[] | null | undefined): string | null {
  return command && command.length > 0 ? JSON.stringify(command) : null;
}

export function newRecordId(): string {
  return crypto.randomUUID();
}

export function readResumeRecords(db: Database.Database, tabId?: string): ResumeRecord[] {
  const rows =
    tabId === undefined
      ? (db.prepare(`${RECORDS_SQL} ${RECORDS_ORDER}`).all() as ResumeRecord[])
      : (db.prepare(`${RECORDS_SQL} WHERE ${RECORD_COLUMNS.tabId} = ? ${RECORDS_ORDER}`).all(tabId) as ResumeRecord[]);
  return rows.map(decodeCommand);
}

/** Inserts `record`, or replaces the tab's record of the same origin, keeping that record's id. */
export function upsertResumeRecord(db: Database.Database, record: Omit<ResumeRecord, 'id'> & { id?: string }): ResumeRecord {
  const existing = db
    .prepare(`SELECT ${RECORD_COLUMNS.id} AS id FROM resume_records WHERE ${RECORD_COLUMNS.tabId} = ? AND ${RECORD_COLUMNS.origin} = ?`)
    .get(record.tabId, record.origin) as { id: string } | undefined;
  const stored: ResumeRecord = {
    id: existing?.id ?? record.id ?? newRecordId(),
    tabId: record.tabId,
    agentKind: record.agentKind,
    sessionId: record.sessionId,
    cwd: record.cwd,
    name: record.name,
    origin: record.origin,
    capturedAt: record.capturedAt,
    command: record.command && record.command.length > 0 ? [...record.command] : null,
  };
  db.prepare(existing === undefined ? insertSql('resume_records', RECORD_COLUMNS) : updateSql('resume_records', RECORD_COLUMNS)).run({
    ...stored,
    command: encodeCommand(stored.command),
  });
  return stored;
}

/** Deletes the records with these ids, limited to one tab's records when `tabId` is given. */
export function deleteResumeRecordsById(db: Database.Database, ids: readonly string[], tabId?: string): number {
  const remove =
    tabId === undefined
      ? db.prepare(`DELETE FROM resume_records WHERE ${RECORD_COLUMNS.id} = ?`)
      : db.prepare(`DELETE FROM resume_records WHERE ${RECORD_COLUMNS.id} = ? AND ${RECORD_COLUMNS.tabId} = ?`);
  let deleted = 0;
  for (const id of new Set(ids)) deleted += (tabId === undefined ? remove.run(id) : remove.run(id, tabId)).changes;
  return deleted;
}

export function insertHistory(db: Database.Database, entry: Omit<HistoryEntry, 'id'>): HistoryEntry {
  const stored: HistoryEntry = {
    id: newRecordId(),
    tabId: entry.tabId,
    name: entry.name,
    agentKind: entry.agentKind,
    sessionId: entry.sessionId,
    cwd: entry.cwd,
    reason: entry.reason,
    at: entry.at,
    command: entry.command && entry.command.length > 0 ? [...entry.command] : null,
  };
  db.prepare(insertSql('history', HISTORY_COLUMNS)).run({ ...stored, command: encodeCommand(stored.command) });
  return stored;
}

/** Newest first; every entry when `limit` is omitted. */
export function readHistory(db: Database.Database, limit?: number): HistoryEntry[] {
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 0)) throw new RangeError(`history limit ${limit} is not a whole number ≥ 0`);
  return (db.prepare(HISTORY_SQL).all(limit ?? NO_LIMIT) as HistoryEntry[]).map(decodeCommand);
}
