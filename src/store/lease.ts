// The writer lease: an exclusive lock on <stateDir>/writer.lock that the kernel drops when the
// holding process dies, however it dies. The lock is SQLite's own: in locking_mode=EXCLUSIVE a
// connection that has written keeps its exclusive lock until it closes, and SQLite also refuses a
// second connection in the same process (POSIX locks alone would not). A pid file is not a lease.

import path from 'node:path';
import Database from 'better-sqlite3';
import { crashPoint } from '../crashPoints.js';
import { ensurePrivateFile } from './files.js';
import { writerLockPath } from './layout.js';

/** A competitor must learn at once that the lease is taken, never queue behind the holder. */
const LEASE_BUSY_TIMEOUT_MS = 0;

function isLockConflict(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'));
}

export class WriterLease {
  #lock: Database.Database | null;

  private constructor(
    readonly stateDir: string,
    lock: Database.Database,
  ) {
    this.#lock = lock;
  }

  /** Takes the lease, or returns null at once when another connection or process holds it. */
  static tryAcquire(stateDir: string): WriterLease | null {
    crashPoint('lease.acquire.before');
    const dir = path.resolve(stateDir);
    const file = writerLockPath(dir);
    ensurePrivateFile(file);
    const lock = new Database(file, { timeout: LEASE_BUSY_TIMEOUT_MS });
    try {
      lock.pragma('locking_mode = EXCLUSIVE');
      // A write escalates to the exclusive lock, which locking_mode=EXCLUSIVE then keeps until close.
      // The default rollback journal stays on (it lives beside the lock while it is held): without
      // it, a crash mid-commit could corrupt the lock file and block every later acquire.
      lock.exec('BEGIN EXCLUSIVE');
      lock.exec('CREATE TABLE IF NOT EXISTS holder (id INTEGER PRIMARY KEY CHECK (id = 1), pid INTEGER NOT NULL)');
      lock.prepare('INSERT OR REPLACE INTO holder (id, pid) VALUES (1, ?)').run(process.pid);
      lock.exec('COMMIT');
      crashPoint('lease.acquire.after');
      return new WriterLease(dir, lock);
    } catch (error) {
      lock.close();
      if (isLockConflict(error)) return null;
      throw error;
    }
  }

  get held(): boolean {
    return this.#lock !== null;
  }

  /** Gives the lease up; safe to call more than once. */
  release(): void {
    this.#lock?.close();
    this.#lock = null;
  }
}
