import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import {
  BACKUP_GENERATIONS,
  generationName,
  generationsToPrune,
  listGenerations,
  newestFirst,
  parseGenerationName,
  writeGeneration,
} from '../../src/store/generations.js';
import { migrate } from '../../src/store/schema.js';
import { makeStateDir, modeOf } from './helpers.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('generation names', () => {
  it('parse back what they format, and ignore other files', () => {
    expect(parseGenerationName(generationName(7, 1234))).toEqual({ epoch: 7, ms: 1234 });
    for (const other of ['registry-7-1234.db.tmp', 'registry.db', 'registry-x-1.db', '.verify-abc']) {
      expect(parseGenerationName(other)).toBeNull();
    }
  });

  it('order newest first by time, then epoch, and prune all but the newest', () => {
    const g = (epoch: number, ms: number) => ({ file: generationName(epoch, ms), epoch, ms });
    const all = [g(1, 10), g(3, 30), g(2, 30), g(9, 5)];
    expect(newestFirst(all)).toEqual([g(3, 30), g(2, 30), g(1, 10), g(9, 5)]);
    expect(generationsToPrune(all, 2)).toEqual([g(1, 10), g(9, 5)]);
    expect(generationsToPrune(all, 5)).toEqual([]);
  });
});

describe('writeGeneration', () => {
  it('keeps the newest BACKUP_GENERATIONS verified copies, owner-only', () => {
    const stateDir = makeStateDir();
    dirs.push(stateDir);
    const db = new Database(path.join(stateDir, 'registry.db'));
    migrate(db);
    const backups = path.join(stateDir, 'backups');
    const written: string[] = [];
    for (let i = 0; i < BACKUP_GENERATIONS + 2; i++) written.push(writeGeneration(db, backups, 1, 1000 + i));
    db.close();

    expect(listGenerations(backups).map((g) => g.file)).toEqual(written.slice(-BACKUP_GENERATIONS).reverse());
    expect(fs.readdirSync(backups).sort()).toEqual(written.slice(-BACKUP_GENERATIONS).map((f) => path.basename(f)).sort());
    expect(modeOf(backups)).toBe(0o700);
    for (const file of written.slice(-BACKUP_GENERATIONS)) expect(modeOf(file)).toBe(0o600);
  });

  it('clears what a crashed backup left behind', () => {
    const stateDir = makeStateDir();
    dirs.push(stateDir);
    const db = new Database(path.join(stateDir, 'registry.db'));
    migrate(db);
    const backups = path.join(stateDir, 'backups');
    fs.mkdirSync(path.join(backups, '.verify-crashed'), { recursive: true });
    fs.writeFileSync(path.join(backups, 'registry-1-5.db.tmp'), 'half written');
    const file = writeGeneration(db, backups, 1, 1000);
    db.close();
    expect(fs.readdirSync(backups)).toEqual([path.basename(file)]);
  });

  it('never overwrites a generation written in the same millisecond', () => {
    const stateDir = makeStateDir();
    dirs.push(stateDir);
    const db = new Database(path.join(stateDir, 'registry.db'));
    migrate(db);
    const backups = path.join(stateDir, 'backups');
    const first = writeGeneration(db, backups, 1, 1000);
    const second = writeGeneration(db, backups, 1, 1000);
    db.close();
    expect(second).not.toBe(first);
    expect(listGenerations(backups)).toHaveLength(2);
  });
});
