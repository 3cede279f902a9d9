// Start-time recovery of registry.db (SPEC §5 "Generations"). A corrupt registry is renamed aside
// with its WAL files, never deleted, and the newest generation that passes the integrity check
// takes its place; with no such generation, start is blocked and every file is left as found.
// A missing or empty registry next to a valid generation is restored the same way: that is what a
// crash between moving the corrupt file aside and moving the good copy in leaves behind.

import fs from 'node:fs';
import path from 'node:path';
import { RegistryBlockedError } from './errors.js';
import { fsyncDir } from '../atomicWrite.js';
import { copyPrivateFile } from './files.js';
import { listGenerations, type Generation } from './generations.js';
import { checkDatabaseFile, type DatabaseHealth } from './integrity.js';
import { backupsPath, registryPath, WAL_SUFFIXES } from './layout.js';

export interface Recovery {
  /** One sentence per action taken, naming the files involved. */
  notices: string[];
  /**
   * The lowest epoch the restored registry may carry: the highest epoch any generation was
   * written under, so that restoring an older copy never moves the epoch backwards.
   */
  epochFloor: number | null;
}

const CORRUPT_INFIX = '.corrupt-';
/** The restored copy is written here and renamed over registry.db in one step. */
const RESTORE_SUFFIX = '.restore';

function healthOf(db: string, stateDir: string): DatabaseHealth | 'missing' {
  return fs.existsSync(db) ? checkDatabaseFile(db, stateDir) : 'missing';
}

function newestValid(generations: readonly Generation[], stateDir: string): Generation | null {
  return generations.find((g) => checkDatabaseFile(g.file, stateDir) === 'ok') ?? null;
}

/**
 * Renames `db` and its -wal/-shm aside to `<db>.corrupt-<ms>` (keeping SQLite's suffixes, so the
 * quarantined copy still opens with its WAL). The WAL files move first: a WAL left beside a
 * restored registry would be replayed into it. Returns the quarantined path of `db`, or null when
 * only stray WAL files were moved.
 */
function quarantine(db: string, now: number): string | null {
  let ms = now;
  const aside = (ts: number): string => `${db}${CORRUPT_INFIX}${ts}`;
  while ([aside(ms), ...WAL_SUFFIXES.map((s) => aside(ms) + s)].some((f) => fs.existsSync(f))) ms++;
  const target = aside(ms);
  for (const suffix of WAL_SUFFIXES) {
    if (fs.existsSync(db + suffix)) fs.renameSync(db + suffix, target + suffix);
  }
  if (!fs.existsSync(db)) return null;
  fs.renameSync(db, target);
  return target;
}

function install(generation: Generation, db: string): void {
  const pending = db + RESTORE_SUFFIX;
  fs.rmSync(pending, { force: true });
  copyPrivateFile(generation.file, pending);
  fs.renameSync(pending, db);
  fsyncDir(path.dirname(db));
}

export function recoverRegistry(stateDir: string, now: number): Recovery {
  const db = registryPath(stateDir);
  const health = healthOf(db, stateDir);
  if (health === 'ok') return { notices: [], epochFloor: null };
  const generations = listGenerations(backupsPath(stateDir));
  const good = newestValid(generations, stateDir);
  if (good === null) {
    if (health === 'corrupt') throw new RegistryBlockedError(db);
    // A WAL whose database is gone would be replayed into the new registry and corrupt it.
    if (health === 'missing') quarantine(db, now);
    return { notices: [], epochFloor: null };
  }
  const aside = quarantine(db, now);
  install(good, db);
  const found =
    health === 'corrupt' ? `${db} was corrupt` : health === 'empty' ? `${db} was empty` : `${db} was missing`;
  const moved = aside === null ? '' : ` and was moved aside to ${aside}`;
  return {
    notices: [`Registry recovered: ${found}${moved}; restored backup generation ${good.file}.`],
    epochFloor: Math.max(...generations.map((g) => g.epoch)),
  };
}
