// Where the registry's files live inside a profile's state directory (SPEC §4).

import path from 'node:path';

export const REGISTRY_FILE = 'registry.db';
export const WRITER_LOCK_FILE = 'writer.lock';
export const BACKUPS_DIR = 'backups';
/** Scratch copies for integrity checks; removed after each check, and at the next open after a crash. */
export const VERIFY_SCRATCH_PREFIX = '.verify-';
/** SQLite's companion files of a WAL database; they belong to the main file and move with it. */
export const WAL_SUFFIXES = ['-wal', '-shm'] as const;

export const registryPath = (stateDir: string): string => path.join(stateDir, REGISTRY_FILE);
export const backupsPath = (stateDir: string): string => path.join(stateDir, BACKUPS_DIR);
export const writerLockPath = (stateDir: string): string => path.join(stateDir, WRITER_LOCK_FILE);
