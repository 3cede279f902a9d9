// Structured, allowlisted logs (SPEC §13): event names and metadata only, never terminal content,
// prompts, credentials or raw exception messages. The allowlist is enforced here, at the one
// place every entry passes: a field outside LOG_FIELDS is dropped and a value that is not a
// number, boolean or short code-like string is replaced, so a careless call site cannot leak.
// Files are appended to (never truncated at start) and rotated by size into bounded generations.
import fs from 'node:fs';
import path from 'node:path';
import { pruneOlderThan } from './pruneFiles.js';

/** Rotate at 1 MiB, keep 3 old generations: enough for a diagnosis, bounded on disk. */
const LOG_ROTATE_BYTES = 1024 * 1024;
const LOG_GENERATIONS = 3;
/** Entries kept in memory for crash records: the last moments before a crash, not a history. */
export const RECENT_ENTRIES = 50;
/** A string value longer than this is not an id or a code. */
export const MAX_VALUE_CHARS = 64;
/** What a code-like value may contain: no spaces, quotes or newlines, so no sentence or content. */
const VALUE_CHARS = /^[A-Za-z0-9_.:+-]*$/;
const EVENT_NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;
/** Stands in for a value the allowlist refused, so the entry still says a field was there. */
export const REDACTED = 'redacted';
/** Stands in for an event name that is not a lower-case dashed word. */
const INVALID_EVENT = 'invalid-event';
/** Log files (and rotated generations) untouched this long belong to tabs long gone. */
export const LOG_MAX_AGE_MS = 14 * 24 * 60 * 60 * 1000;

/** Every field name an entry may carry besides the envelope (at, pid, level, role, event). Each
 * holds an id, a count, a duration or a code; adding one here is a review of what it may hold. */
export const LOG_FIELDS = [
  'code', 'name', 'reason', 'op', 'tab', 'holderPid', 'childPid', 'epoch', 'maxEpoch', 'attempt', 'graceMs',
  'silentMs', 'signal', 'tabs', 'resumed', 'count', 'ms', 'limitMs', 'exitCode', 'incarnation', 'kind',
  'state', 'lifecycle', 'bytes', 'dropped', 'childInc', 'crash',
] as const;
export type LogField = (typeof LOG_FIELDS)[number];
/** The fields every entry has; a caller's fields never override them. */
export const ENVELOPE_FIELDS = ['at', 'pid', 'level', 'role', 'event'] as const;

const ALLOWED = new Set<string>(LOG_FIELDS);
const ENVELOPE = new Set<string>(ENVELOPE_FIELDS);

export type LogValue = string | number | boolean | null;
export type LogFields = Record<string, LogValue | undefined>;
export type LogLevel = 'info' | 'warn' | 'error';

export interface LogEntry {
  at: string;
  pid: number;
  level: LogLevel;
  role: string;
  event: string;
  [field: string]: LogValue;
}

export interface Logger {
  info(event: string, fields?: LogFields): void;
  warn(event: string, fields?: LogFields): void;
  error(event: string, fields?: LogFields): void;
}

/** A process's own logger: also remembers its last entries (for crash records) and how often
 * each event happened since the process started (for counters). */
export interface ProcessLogger extends Logger {
  readonly role: string;
  /** The current generation's file. */
  readonly file: string;
  /** The newest RECENT_ENTRIES entries, oldest first. */
  recent(): LogEntry[];
  /** Entries per event name since this logger was created. */
  counts(): Record<string, number>;
  /** Calls `listener` with every entry after it is written; returns the unsubscribe. */
  onEntry(listener: (entry: LogEntry) => void): () => void;
}

export interface LoggerOptions {
  rotateBytes?: number;
  generations?: number;
  /** The clock, for tests. */
  now?: () => Date;
}

/** A value as the allowlist lets it through: numbers, booleans and null as they are, short
 * code-like strings as they are, anything else REDACTED. */
export function allowedValue(value: unknown): LogValue {
  if (value === null || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : REDACTED;
  if (typeof value === 'string' && value.length <= MAX_VALUE_CHARS && VALUE_CHARS.test(value)) return value;
  return REDACTED;
}

/** A caller's fields reduced to the allowlist; `dropped` counts fields whose name was refused
 * (their names are not logged either: a computed key could carry content). */
export function allowlistFields(fields: LogFields | undefined): Record<string, LogValue> {
  const out: Record<string, LogValue> = {};
  if (!fields) return out;
  let dropped = 0;
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    if (!ALLOWED.has(key) || ENVELOPE.has(key)) {
      dropped++;
      continue;
    }
    out[key] = allowedValue(value);
  }
  if (dropped > 0) out.dropped = dropped;
  return out;
}

/** The entry a call makes, allowlisted. */
export function makeEntry(at: Date, role: string, level: LogLevel, event: string, fields?: LogFields): LogEntry {
  return {
    ...allowlistFields(fields),
    at: at.toISOString(),
    pid: process.pid,
    level,
    role,
    event: EVENT_NAME.test(event) ? event : INVALID_EVENT,
  };
}

export function createLogger(dir: string, role: string, opts: LoggerOptions = {}): ProcessLogger {
  const rotateBytes = opts.rotateBytes ?? LOG_ROTATE_BYTES;
  const generations = opts.generations ?? LOG_GENERATIONS;
  const now = opts.now ?? (() => new Date());
  const file = path.join(dir, `${role}.log`);
  const ring: LogEntry[] = [];
  const counts = new Map<string, number>();
  const listeners = new Set<(entry: LogEntry) => void>();
  let size = -1;
  const write = (level: LogLevel, event: string, fields?: LogFields): void => {
    const entry = makeEntry(now(), role, level, event, fields);
    ring.push(entry);
    if (ring.length > RECENT_ENTRIES) ring.shift();
    counts.set(entry.event, (counts.get(entry.event) ?? 0) + 1);
    try {
      if (size < 0) {
        fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
        // Appended to, never truncated: the previous run's last lines are the ones a diagnosis needs.
        size = fs.existsSync(file) ? fs.statSync(file).size : 0;
      }
      const line = JSON.stringify(entry) + '\n';
      const bytes = Buffer.byteLength(line);
      if (size > 0 && size + bytes > rotateBytes) {
        rotateLog(file, generations);
        size = 0;
      }
      fs.appendFileSync(file, line, { mode: 0o600 });
      size += bytes;
    } catch {
      // Logging must never take a resident process down.
    }
    for (const listener of listeners) {
      try {
        listener(entry);
      } catch {
        // An observer's failure is not the logger's caller's.
      }
    }
  };
  return {
    role,
    file,
    info: (e, f) => write('info', e, f),
    warn: (e, f) => write('warn', e, f),
    error: (e, f) => write('error', e, f),
    recent: () => ring.map((e) => ({ ...e })),
    counts: () => Object.fromEntries(counts),
    onEntry: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** `x.log` becomes `x.log.1`, `x.log.1` becomes `x.log.2` and so on; `x.log.<generations>` is
 * overwritten, so at most `generations` old files remain. */
export function rotateLog(file: string, generations: number): void {
  for (let i = generations - 1; i >= 1; i--) {
    if (fs.existsSync(`${file}.${i}`)) fs.renameSync(`${file}.${i}`, `${file}.${i + 1}`);
  }
  if (generations >= 1 && fs.existsSync(file)) fs.renameSync(file, `${file}.1`);
  else fs.rmSync(file, { force: true });
}

/** Removes log files (every generation) not written for `maxAgeMs`: a holder's log outlives its
 * tab, and tabs come and go, so the directory is bounded by age as each file is by size. */
export function pruneLogs(dir: string, nowMs: number, maxAgeMs: number = LOG_MAX_AGE_MS): number {
  return pruneOlderThan(dir, nowMs, maxAgeMs, (name) => /\.log(?:\.\d+)?$/.test(name));
}

/** An error's code only (never its message, which may carry paths or content). */
export function errorCode(err: unknown): string {
  if (err && typeof err === 'object' && 'code' in err && typeof (err as { code: unknown }).code === 'string') {
    return (err as { code: string }).code;
  }
  return err instanceof Error ? err.name : 'unknown';
}
