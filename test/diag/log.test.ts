// The logger: the allowlist holds whatever a call site passes, files are appended to and never
// truncated at start, rotation keeps a bounded number of generations, and the in-memory ring
// and counts that crash records and counters read stay bounded.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it, expect, afterEach } from 'vitest';
import fc from 'fast-check';
import { allowedValue, allowlistFields, createLogger, makeEntry, pruneLogs, REDACTED, RECENT_ENTRIES, MAX_VALUE_CHARS, LOG_FIELDS } from '../../src/log.js';

const dirs: string[] = [];
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'a1-log-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function lines(file: string): Record<string, unknown>[] {
  return fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe('allowlist', () => {
  it('keeps declared fields with code-like values and drops or redacts the rest', () => {
    expect(allowlistFields({ code: 'ENOENT', tab: 'tab_1', attempt: 2, resumed: true, signal: null, prompt: 'hello', message: 'x' })).toEqual({
      code: 'ENOENT',
      tab: 'tab_1',
      attempt: 2,
      resumed: true,
      signal: null,
      dropped: 2,
    });
    expect(allowlistFields({ reason: 'has spaces', code: 'x'.repeat(MAX_VALUE_CHARS + 1), ms: Infinity })).toEqual({ reason: REDACTED, code: REDACTED, ms: REDACTED });
    expect(allowlistFields({ code: 'x'.repeat(MAX_VALUE_CHARS) }).code).toHaveLength(MAX_VALUE_CHARS);
    // A caller cannot forge the envelope.
    const entry = makeEntry(new Date(0), 'server', 'info', 'start', { event: 'forged', pid: 1, at: 'then', level: 'error' } as never);
    expect(entry).toMatchObject({ event: 'start', pid: process.pid, level: 'info', at: new Date(0).toISOString(), dropped: 4 });
  });

  it('never lets text with a space, quote or newline through, whatever the field', () => {
    fc.assert(
      fc.property(fc.constantFrom(...LOG_FIELDS), fc.string(), fc.constantFrom(' ', '"', '\n', '\\', '/'), fc.string(), (field, a, sep, b) => {
        const text = `${a}${sep}${b}`;
        const entry = makeEntry(new Date(), 'server', 'warn', 'x', { [field]: text });
        return !JSON.stringify(entry).includes(JSON.stringify(text).slice(1, -1)) || text.length <= 2;
      }),
    );
    fc.assert(fc.property(fc.anything(), (v) => {
      const out = allowedValue(v);
      return out === null || typeof out === 'number' || typeof out === 'boolean' || (typeof out === 'string' && /^[A-Za-z0-9_.:+-]{0,64}$/.test(out));
    }));
  });

  it('replaces an event name that is not a lower-case dashed word', () => {
    expect(makeEntry(new Date(), 'server', 'info', 'holder-died').event).toBe('holder-died');
    expect(makeEntry(new Date(), 'server', 'info', 'secret text here').event).toBe('invalid-event');
  });
});

describe('files', () => {
  it('appends to an existing log instead of truncating it at start', () => {
    const dir = tempDir();
    createLogger(dir, 'server').info('first');
    createLogger(dir, 'server').info('second');
    expect(lines(path.join(dir, 'server.log')).map((l) => l.event)).toEqual(['first', 'second']);
    expect(fs.statSync(path.join(dir, 'server.log')).mode & 0o777).toBe(0o600);
  });

  it('rotates by size into a bounded number of generations, newest lines kept', () => {
    const dir = tempDir();
    const log = createLogger(dir, 'holder-t1', { rotateBytes: 2_000, generations: 2 });
    for (let i = 0; i < 500; i++) log.info('tick', { count: i });
    const names = fs.readdirSync(dir).sort();
    expect(names).toEqual(['holder-t1.log', 'holder-t1.log.1', 'holder-t1.log.2']);
    for (const n of names) expect(fs.statSync(path.join(dir, n)).size).toBeLessThanOrEqual(2_000);
    const all = [...lines(path.join(dir, 'holder-t1.log.2')), ...lines(path.join(dir, 'holder-t1.log.1')), ...lines(path.join(dir, 'holder-t1.log'))];
    const counts = all.map((l) => l.count as number);
    expect(counts.at(-1)).toBe(499);
    // Consecutive across generations: rotation loses nothing it keeps.
    expect(counts).toEqual(counts.map((_, i) => counts[0] + i));
    // A second logger on the same file (the next run) continues the same rotation.
    const next = createLogger(dir, 'holder-t1', { rotateBytes: 2_000, generations: 2 });
    for (let i = 0; i < 100; i++) next.info('tick', { count: 500 + i });
    expect(fs.readdirSync(dir)).toHaveLength(3);
  });

  it('keeps the last entries in a bounded ring and counts events', () => {
    const dir = tempDir();
    const log = createLogger(dir, 'server');
    const seen: string[] = [];
    const off = log.onEntry((e) => seen.push(e.event));
    for (let i = 0; i < RECENT_ENTRIES + 10; i++) log.warn(i % 2 ? 'loop-stall' : 'holder-died', { count: i });
    off();
    log.info('after');
    const recent = log.recent();
    expect(recent).toHaveLength(RECENT_ENTRIES);
    expect(recent.at(-1)).toMatchObject({ event: 'after' });
    expect(recent[0]).toMatchObject({ count: 11 });
    expect(log.counts()).toEqual({ 'loop-stall': 30, 'holder-died': 30, after: 1 });
    expect(seen).toHaveLength(RECENT_ENTRIES + 10);
  });

  it('still counts and remembers when the directory cannot be written', () => {
    const file = path.join(tempDir(), 'a-file');
    fs.writeFileSync(file, '');
    const log = createLogger(path.join(file, 'logs'), 'server');
    log.error('uncaught', { name: 'Error' });
    expect(log.counts()).toEqual({ uncaught: 1 });
  });

  it('prunes log files not written for the maximum age', () => {
    const dir = tempDir();
    for (const n of ['holder-old.log', 'holder-old.log.1', 'server.log', 'notes.txt']) fs.writeFileSync(path.join(dir, n), 'x');
    const old = new Date(Date.now() - 20 * 24 * 3600 * 1000);
    for (const n of ['holder-old.log', 'holder-old.log.1', 'notes.txt']) fs.utimesSync(path.join(dir, n), old, old);
    expect(pruneLogs(dir, Date.now())).toBe(2);
    expect(fs.readdirSync(dir).sort()).toEqual(['notes.txt', 'server.log']);
  });
});
