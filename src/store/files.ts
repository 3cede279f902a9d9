// Owner-only files for the registry's state directory. SQLite creates a database's -wal, -shm
// and -journal files with the mode of the database file itself, so creating each database file
// 0600 before SQLite opens it keeps every companion file private too, whatever the umask.
//
// Caution: closing any descriptor of a file drops every POSIX lock this process holds on it, and
// SQLite's locks (the writer lease among them) are POSIX locks. So nothing here opens a database
// file that may already be open through SQLite in this process.

import fs from 'node:fs';

export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_DIR_MODE = 0o700;

/**
 * Creates `file` empty if missing (an empty file is a valid empty SQLite database), then makes it
 * 0600. An existing file is only chmodded, never opened: see the caution above.
 */
export function ensurePrivateFile(file: string): void {
  try {
    fs.closeSync(fs.openSync(file, 'wx', PRIVATE_FILE_MODE));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  fs.chmodSync(file, PRIVATE_FILE_MODE);
}

/** Creates `dir` if missing, then 0700. */
export function ensurePrivateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  fs.chmodSync(dir, PRIVATE_DIR_MODE);
}

export function fsyncFile(file: string): void {
  const fd = fs.openSync(file, 'r+');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Copies `from` to a new 0600 file `to` and flushes it to disk. */
export function copyPrivateFile(from: string, to: string): void {
  fs.copyFileSync(from, to, fs.constants.COPYFILE_EXCL);
  fs.chmodSync(to, PRIVATE_FILE_MODE);
  fsyncFile(to);
}
