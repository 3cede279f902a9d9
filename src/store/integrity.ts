// Deciding whether a database file is a sound registry without touching it. The check runs on a
// scratch copy (with its WAL, so committed-but-uncheckpointed transactions count): opening the
// real file could replay or checkpoint a WAL into it, or leave -shm/-wal files beside it, and a
// corrupt registry is evidence that must stay exactly as it was found. Copying opens the file, so
// it must not be open through SQLite in this process (files.ts explains why).

import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { PRIVATE_FILE_MODE } from './files.js';
import { VERIFY_SCRATCH_PREFIX } from './layout.js';
import { schemaVersionOf } from './schema.js';

/** `empty`: a sound SQLite file with no tables yet, as a fresh registry is before its first migration. */
export type DatabaseHealth = 'ok' | 'empty' | 'corrupt';

const WAL_SUFFIX = '-wal';

function isSqliteError(error: unknown): boolean {
  return error instanceof Database.SqliteError;
}

function healthOfOpenDatabase(db: Database.Database): DatabaseHealth {
  const rows = db.pragma('integrity_check') as { integrity_check: string }[];
  if (rows.length !== 1 || rows[0].integrity_check !== 'ok') return 'corrupt';
  const tables = db.prepare('SELECT count(*) AS n FROM sqlite_master').get() as { n: number };
  if (tables.n === 0) return 'empty';
  // Tables but no schema version: a database, but not one a1 wrote.
  return schemaVersionOf(db) > 0 ? 'ok' : 'corrupt';
}

/**
 * The health of the database at `file`, checked on a copy made in a scratch directory under
 * `scratchParent`. I/O errors reading the original are thrown, never mistaken for corruption.
 */
export function checkDatabaseFile(file: string, scratchParent: string): DatabaseHealth {
  const scratch = fs.mkdtempSync(path.join(scratchParent, VERIFY_SCRATCH_PREFIX));
  try {
    const copy = path.join(scratch, 'check.db');
    fs.copyFileSync(file, copy);
    fs.chmodSync(copy, PRIVATE_FILE_MODE);
    if (fs.existsSync(file + WAL_SUFFIX)) fs.copyFileSync(file + WAL_SUFFIX, copy + WAL_SUFFIX);
    let db: Database.Database | null = null;
    try {
      db = new Database(copy, { fileMustExist: true });
      return healthOfOpenDatabase(db);
    } catch (error) {
      if (isSqliteError(error)) return 'corrupt';
      throw error;
    } finally {
      db?.close();
    }
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

/** Removes scratch directories a crashed check left behind. */
export function removeStaleScratch(scratchParent: string): void {
  for (const entry of fs.readdirSync(scratchParent)) {
    if (entry.startsWith(VERIFY_SCRATCH_PREFIX)) {
      fs.rmSync(path.join(scratchParent, entry), { recursive: true, force: true });
    }
  }
}
