// Registry connections: how long one waits for a lock, which files this process has open, and
// opening the writer's connection (integrity check, recovery, migration).
import fs from 'node:fs';
import Database from 'better-sqlite3';
import { ensurePrivateFile, PRIVATE_FILE_MODE } from './files.js';
import { removeStaleScratch } from './integrity.js';
import { registryPath, WAL_SUFFIXES } from './layout.js';
import { readCounter, writeMeta } from './queries.js';
import { recoverRegistry, type Recovery } from './recovery.js';
import { META, migrate } from './schema.js';

/**
 * How long a statement waits for another connection's lock: a read-only `a1 tabs` may meet the
 * writer's checkpoint, and a new writer may meet a dying one's last commit. Both are over in
 * milliseconds; a few seconds absorbs a stalled disk without hanging a command for long.
 */
export const REGISTRY_BUSY_TIMEOUT_MS = 5_000;

/**
 * Connections this module has open, per registry file, in this process. The integrity check
 * copies the file, and closing that copy's descriptor would drop the POSIX locks of a live
 * connection to it here (see files.ts), so a file already open in this process is not re-checked:
 * a live connection is using it.
 */
const openHere = new Map<string, number>();

export function noteOpened(file: string): () => void {
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

/**
 * The writer's connection: checks the file's integrity, recovers from the newest valid
 * generation if needed (one notice per recovery), and migrates the schema. `stateDir` is
 * resolved. A file this process already has open is not re-checked (see openHere).
 */
export function openWriterConnection(
  stateDir: string,
  now: () => number,
): { db: Database.Database; notices: string[]; noteClosed: () => void } {
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
  return { db, notices, noteClosed: noteOpened(file) };
}
