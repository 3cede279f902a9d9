// Crash records: distinct owner-only files in an owner-only directory, allowlisted whatever the
// caller passes (an error's message never), pruned by count and age on every write, and listed
// as metadata only.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it, expect, afterEach } from 'vitest';
import { createLogger } from '../../src/log.js';
import {
  crashRecordName,
  errorDetail,
  listCrashRecords,
  MAX_CRASH_RECORDS,
  pruneCrashRecords,
  writeCrashRecord,
  type CrashRecord,
} from '../../src/diag/crashRecord.js';
import { handleCrash, recordUnrequestedExits, type DiagContext } from '../../src/diag/crashHandlers.js';

const dirs: string[] = [];
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'a1-crash-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const SECRET = 'sk-PLANTED crash secret';

function context(): DiagContext {
  const root = tempDir();
  return { role: 'holder-tab1', incarnation: 'inc1', crashDir: path.join(root, 'crash'), log: createLogger(path.join(root, 'logs'), 'holder-tab1') };
}

function read(file: string): CrashRecord {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as CrashRecord;
}

describe('crash records', () => {
  it('are distinct owner-only files in an owner-only directory', () => {
    const dir = path.join(tempDir(), 'crash');
    const input = { role: 'server', incarnation: '7', reason: 'watchdog' as const, detail: { ms: 31_000 }, events: [] };
    const now = new Date('2026-12-03T04:00:00.000Z');
    const a = writeCrashRecord(dir, input, { now })!;
    const b = writeCrashRecord(dir, input, { now })!;
    expect(a).not.toBe(b);
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    for (const f of [a, b]) expect(fs.statSync(f).mode & 0o777).toBe(0o600);
    expect(read(a)).toMatchObject({ at: now.toISOString(), role: 'server', pid: process.pid, incarnation: '7', reason: 'watchdog', detail: { ms: 31_000 }, events: [] });
    expect(path.basename(a)).toMatch(/^2026-12-03T04-00-00\.000Z-server-\d+-[0-9a-f]{6}\.json$/);
    expect(fs.readdirSync(dir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('carry an error by name and code and recent events by allowlisted fields, never a message', () => {
    const ctx = context();
    ctx.log.info('child-started', { childPid: 42 });
    ctx.log.warn('odd', { prompt: SECRET, code: SECRET } as never);
    let exitCode: number | null = null;
    const err = Object.assign(new TypeError(SECRET), { code: 'ERR_PLANTED' });
    handleCrash(ctx, 'uncaught-exception', err, (code) => (exitCode = code));
    expect(exitCode).toBe(70);
    const [file] = fs.readdirSync(ctx.crashDir);
    const text = fs.readFileSync(path.join(ctx.crashDir, file), 'utf8');
    expect(text).not.toContain('PLANTED crash');
    const record = JSON.parse(text) as CrashRecord;
    expect(record).toMatchObject({ role: 'holder-tab1', incarnation: 'inc1', reason: 'uncaught-exception', detail: { name: 'TypeError', code: 'ERR_PLANTED' } });
    expect(record.events.map((e) => e.event)).toEqual(['child-started', 'odd', 'uncaught']);
    expect(record.events[1]).toMatchObject({ code: 'redacted', dropped: 1 });
    // And the log says the same, no more.
    expect(fs.readFileSync(ctx.log.file, 'utf8')).not.toContain('PLANTED crash');
    expect(errorDetail('a string rejection')).toEqual({ name: 'string', code: undefined });
  });

  it('are pruned on write to the newest MAX_CRASH_RECORDS and to the maximum age', () => {
    const dir = path.join(tempDir(), 'crash');
    const files: string[] = [];
    for (let i = 0; i < MAX_CRASH_RECORDS + 5; i++) {
      files.push(writeCrashRecord(dir, { role: 'server', incarnation: null, reason: 'holder-exit', detail: { count: i }, events: [] }, { now: new Date(Date.UTC(2026, 0, 1, 0, 0, i)) })!);
    }
    const left = fs.readdirSync(dir).sort();
    expect(left).toHaveLength(MAX_CRASH_RECORDS);
    expect(left).toEqual(files.slice(5).map((f) => path.basename(f)).sort());
    // Age: everything older than the limit goes, whatever the count.
    const old = new Date(Date.now() - 15 * 24 * 3600 * 1000);
    for (const n of left.slice(0, 10)) fs.utimesSync(path.join(dir, n), old, old);
    expect(pruneCrashRecords(dir, Date.now())).toBe(10);
    expect(fs.readdirSync(dir)).toHaveLength(MAX_CRASH_RECORDS - 10);
  });

  it('are listed newest first as metadata, skipping files that are not records', () => {
    const dir = path.join(tempDir(), 'crash');
    const ctx: DiagContext = { ...context(), crashDir: dir };
    ctx.log.info('child-started');
    writeCrashRecord(dir, { role: 'server', incarnation: '1', reason: 'watchdog', events: ctx.log.recent() }, { now: new Date('2026-12-01T00:00:00Z') });
    writeCrashRecord(dir, { role: 'holder-t', incarnation: 'i', reason: 'child-exit', detail: { exitCode: 1 }, events: [] }, { now: new Date('2026-12-02T00:00:00Z') });
    fs.writeFileSync(path.join(dir, crashRecordName('2026-12-03T00:00:00.000Z', 'x', 1, 'aaaaaa')), JSON.stringify({ reason: SECRET }));
    fs.writeFileSync(path.join(dir, crashRecordName('2026-12-04T00:00:00.000Z', 'x', 1, 'bbbbbb')), '{torn');
    const list = listCrashRecords(dir);
    expect(list.map((r) => [r.role, r.reason, r.events])).toEqual([
      ['holder-t', 'child-exit', 0],
      ['server', 'watchdog', 1],
    ]);
    expect(JSON.stringify(list)).not.toContain('child-started');
    expect(listCrashRecords(dir, 1)).toHaveLength(1);
    expect(listCrashRecords(path.join(dir, 'missing'))).toEqual([]);
  });

  it('are written for unrequested exits the holder judged crashes, never for an exit 0 or a plain tab\'s program', () => {
    const ctx = context();
    const off = recordUnrequestedExits(ctx);
    ctx.log.info('child-started', { childPid: 1 });
    ctx.log.info('child-exited', { code: 0, signal: null, crash: false });
    ctx.log.info('child-started', { childPid: 4 });
    ctx.log.info('child-exited', { code: 1, signal: null, crash: false });
    ctx.log.info('child-started', { childPid: 3 });
    ctx.log.info('child-exited', { code: 3, signal: null, crash: true });
    ctx.log.info('child-started', { childPid: 2 });
    ctx.log.info('terminate', { graceMs: 100 });
    ctx.log.info('child-exited', { code: null, signal: 1, crash: true });
    off();
    const list = listCrashRecords(ctx.crashDir);
    expect(list.map((r) => [r.reason, r.detail])).toEqual([['child-exit', { exitCode: 3, signal: null }]]);
  });
});
