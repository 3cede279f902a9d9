// Backup generations of the registry: verified, point-in-time copies under <stateDir>/backups,
// named registry-<epoch>-<ms>.db and bounded in number.

import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { fsyncDir } from '../atomicWrite.js';
import { ensurePrivateDir, fsyncFile, PRIVATE_FILE_MODE } from './files.js';
import { checkDatabaseFile, removeStaleScratch } from './integrity.js';

/**
 * Enough to step back past a corruption that went unnoticed for a few backups; the registry is a
 * few kilobytes, so five copies cost nothing on disk.
 */
export const BACKUP_GENERATIONS = 5;

const GENERATION_PATTERN = /^registry-(\d+)-(\d+)\.db$/;
/** A generation is written under this suffix and renamed into place only once verified. */
const PENDING_SUFFIX = '.tmp';

export interface Generation {
  file: string;
  epoch: number;
  ms: number;
}

export class BackupFailedError extends Error {
  readonly code = 'backup-failed';
  constructor(readonly file: string) {
    super(`The new backup generation ${file} failed its integrity check and was discarded.`);
    this.name = 'BackupFailedError';
  }
}

export function generationName(epoch: number, ms: number): string {
  return `registry-${epoch}-${ms}.db`;
}

export function parseGenerationName(name: string): { epoch: number; ms: number } | null {
  const match = GENERATION_PATTERN.exec(name);
  return match === null ? null : { epoch: Number(match[1]), ms: Number(match[2]) };
}

/** Newest first: by write time, then by epoch for two generations written in the same millisecond. */
export function newestFirst(generations: readonly Generation[]): Generation[] {
  return [...generations].sort((a, b) => b.ms - a.ms || b.epoch - a.epoch);
}

/** The generations beyond the newest `keep`, which are to be deleted. */
export function generationsToPrune(generations: readonly Generation[], keep: number): Generation[] {
  return newestFirst(generations).slice(keep);
}

/** Every generation in `dir`, newest first; none when the directory does not exist. */
export function listGenerations(dir: string): Generation[] {
  if (!fs.existsSync(dir)) return [];
  const found: Generation[] = [];
  for (const name of fs.readdirSync(dir)) {
    const parsed = parseGenerationName(name);
    if (parsed !== null) found.push({ file: path.join(dir, name), ...parsed });
  }
  return newestFirst(found);
}

/**
 * Writes a verified generation of `db` into `dir` and prunes the oldest beyond
 * BACKUP_GENERATIONS. VACUUM INTO takes a consistent snapshot synchronously, in one statement,
 * and produces a self-contained file (rollback journal mode, no WAL beside it).
 */
export function writeGeneration(db: Database.Database, dir: string, epoch: number, now: number): string {
  ensurePrivateDir(dir);
  // Leftovers of a backup or check that crashed; only the lease holder writes generations.
  removeStaleScratch(dir);
  for (const name of fs.readdirSync(dir)) {
    if (name.endsWith(PENDING_SUFFIX)) fs.rmSync(path.join(dir, name), { force: true });
  }
  let ms = now;
  while (fs.existsSync(path.join(dir, generationName(epoch, ms)))) ms++;
  const file = path.join(dir, generationName(epoch, ms));
  const pending = file + PENDING_SUFFIX;
  // VACUUM INTO accepts an existing empty file, so the copy is born owner-only.
  fs.closeSync(fs.openSync(pending, 'wx', PRIVATE_FILE_MODE));
  fs.chmodSync(pending, PRIVATE_FILE_MODE);
  try {
    db.prepare('VACUUM INTO ?').run(pending);
    // SQLite does not sync a VACUUM INTO target; a generation must survive a power cut.
    fsyncFile(pending);
    if (checkDatabaseFile(pending, dir) !== 'ok') throw new BackupFailedError(file);
    fs.renameSync(pending, file);
  } catch (error) {
    fs.rmSync(pending, { force: true });
    throw error;
  }
  for (const old of generationsToPrune(listGenerations(dir), BACKUP_GENERATIONS)) fs.rmSync(old.file, { force: true });
  fsyncDir(dir);
  return file;
}
