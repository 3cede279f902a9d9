// The reads and writes every registry connection shares: meta keys, the revision counter and the
// tab rows in the user's order.
import type Database from 'better-sqlite3';
import { META } from './schema.js';
import { columnsToTab, type TabColumns, type TabRow } from './tabRow.js';

const ORDERED_TABS_SQL = 'SELECT * FROM tabs ORDER BY ord, created_at, id';

/** Statements prepared once per connection: the server reads the epoch and the tabs every tick
 * (the fence and the invariant check), and preparing costs more than running them. */
const statements = new WeakMap<Database.Database, Map<string, Database.Statement>>();

function prepared(db: Database.Database, sql: string): Database.Statement {
  let byText = statements.get(db);
  if (!byText) statements.set(db, (byText = new Map()));
  let statement = byText.get(sql);
  if (!statement) byText.set(sql, (statement = db.prepare(sql)));
  return statement;
}

export function readMeta(db: Database.Database, key: string): string | null {
  const row = prepared(db, 'SELECT value FROM meta WHERE key = ?').get(key) as { value: string | null } | undefined;
  return row?.value ?? null;
}

export function readCounter(db: Database.Database, key: string): number {
  return Number(readMeta(db, key) ?? 0);
}

export function writeMeta(db: Database.Database, key: string, value: string): void {
  prepared(db, 'INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run(key, value);
}

export function readTabs(db: Database.Database): TabRow[] {
  return (prepared(db, ORDERED_TABS_SQL).all() as TabColumns[]).map(columnsToTab);
}

export function readTab(db: Database.Database, id: string): TabRow | null {
  const row = prepared(db, 'SELECT * FROM tabs WHERE id = ?').get(id) as TabColumns | undefined;
  return row === undefined ? null : columnsToTab(row);
}

export function bumpRevision(db: Database.Database): number {
  const revision = readCounter(db, META.revision) + 1;
  writeMeta(db, META.revision, String(revision));
  return revision;
}
