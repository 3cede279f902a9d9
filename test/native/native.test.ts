// The native addons must be built on install (package.json allowScripts): load both for real.
import { describe, it, expect } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import * as pty from 'node-pty';

describe('native modules', () => {
  it('better-sqlite3 opens a WAL database', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'a1-native-'));
    try {
      const db = new Database(path.join(dir, 'x.db'));
      expect(db.pragma('journal_mode = WAL', { simple: true })).toBe('wal');
      db.exec('CREATE TABLE t (v INTEGER); INSERT INTO t VALUES (42)');
      expect(db.prepare('SELECT v FROM t').get()).toEqual({ v: 42 });
      db.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('node-pty runs a child in a PTY', async () => {
    const child = pty.spawn('/bin/sh', ['-c', 'echo native-$((40+2))'], { cols: 80, rows: 24 });
    let out = '';
    child.onData((d) => (out += d));
    const exit = await new Promise<number>((resolve) => child.onExit(({ exitCode }) => resolve(exitCode)));
    expect(exit).toBe(0);
    expect(out).toContain('native-42');
  });
});
