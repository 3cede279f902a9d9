// Crash records (SPEC §13): one timestamped JSON file per crash, watchdog termination or
// unrequested exit, in the profile's crash directory (Paths.crashDir). A record holds the role,
// pid, incarnation, an allowlisted reason, allowlisted detail (an error's name and code, never
// its message) and the writer's last structured log entries, which passed the log allowlist.
// Files are 0600 in a 0700 directory, written atomically, and pruned on every write by count
// and by age, so a crash loop cannot fill the disk.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { allowlistFields, allowedValue, ENVELOPE_FIELDS, type LogEntry, type LogFields, type LogValue } from '../log.js';
import { writeFileAtomic } from '../atomicWrite.js';
import { PRIVATE_FILE_MODE } from '../paths.js';

/** Enough to see a pattern in a crash loop; the oldest go first. */
export const MAX_CRASH_RECORDS = 50;
/** Two weeks: older crashes say little about the build running now. */
export const CRASH_RECORD_MAX_AGE_MS = 14 * 24 * 60 * 60 * 1000;
/** Process exit status for a crash (sysexits EX_SOFTWARE), distinct from a requested exit. */
export const CRASH_EXIT_CODE = 70;

/** Why a record was written; the only reasons a record may give. */
export const CRASH_REASONS = [
  /** An exception nothing caught. */
  'uncaught-exception',
  /** A promise rejected with no handler. */
  'unhandled-rejection',
  /** The watchdog found the event loop blocked past its hard limit and ended the process. */
  'watchdog',
  /** A holder's child ended without a1 asking it to (by itself, or killed from outside). */
  'child-exit',
  /** The server found a holder gone that nobody retired. */
  'holder-exit',
  /** The server ended a holder that missed its heartbeats (the holder's watchdog, SPEC §10). */
  'holder-timeout',
  /** The process found its own state contradicting itself (the server: memory against registry). */
  'invariant-violation',
] as const;
export type CrashReason = (typeof CRASH_REASONS)[number];

/** A record of a tab's program ending by itself (`child-exit`): the program's doing, which host
 * status lists apart from the crashes of a1's own processes. */
export function isProgramExit(record: { reason: string }): boolean {
  return record.reason === 'child-exit';
}

export interface CrashRecord {
  at: string;
  role: string;
  pid: number;
  incarnation: string | null;
  reason: CrashReason;
  /** Allowlisted metadata: error name and code, exit code and signal, a stall's length, a tab id. */
  detail: Record<string, LogValue>;
  /** The writer's last log entries, oldest first. */
  events: LogEntry[];
}

/** A record as `a1 tabs host status` and `a1 tabs doctor` list it: metadata, no events. */
export type CrashSummary = Omit<CrashRecord, 'events'> & { file: string; events: number };

export interface CrashRecordInput {
  role: string;
  pid?: number;
  incarnation: string | null;
  reason: CrashReason;
  detail?: LogFields;
  events: readonly LogEntry[];
}

export interface PruneLimits {
  maxCount?: number;
  maxAgeMs?: number;
}

/**
 * The record's file name: its time first, so names sort oldest first, then who wrote it and a
 * nonce, so two crashes in one millisecond stay distinct. Self-contained (the watchdog's worker
 * thread runs a copy of it).
 */
export function crashRecordName(iso: string, role: string, pid: number, nonce: string): string {
  return iso.replace(/:/g, '-') + '-' + role.replace(/[^A-Za-z0-9_-]/g, '_') + '-' + pid + '-' + nonce + '.json';
}

const RECORD_NAME = /^\d{4}-\d\d-\d\dT[\d.-]+Z-.+\.json$/;

/** A log entry as a record may carry it: the envelope and the allowlisted fields only. */
export function recordEvent(entry: LogEntry): LogEntry {
  const fields: Record<string, LogValue> = { ...entry };
  for (const key of ENVELOPE_FIELDS) delete fields[key];
  const out = allowlistFields(fields) as LogEntry;
  for (const key of ENVELOPE_FIELDS) out[key] = allowedValue(entry[key]) as never;
  return out;
}

/** The record as written, allowlisted whatever the caller passed. */
export function makeCrashRecord(input: CrashRecordInput, at: Date): CrashRecord {
  return {
    at: at.toISOString(),
    role: String(allowedValue(input.role)),
    pid: input.pid ?? process.pid,
    incarnation: input.incarnation === null ? null : String(allowedValue(input.incarnation)),
    reason: input.reason,
    detail: allowlistFields(input.detail),
    events: input.events.map(recordEvent),
  };
}

/**
 * Writes a record into `dir` (created 0700 if missing), after pruning what is too old and as
 * many of the oldest as it takes to stay within the count. Returns the file, or null when it
 * could not be written: a crash path must not throw.
 */
export function writeCrashRecord(dir: string, input: CrashRecordInput, opts: PruneLimits & { now?: Date } = {}): string | null {
  const at = opts.now ?? new Date();
  const record = makeCrashRecord(input, at);
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    pruneCrashRecords(dir, at.getTime(), { ...opts, maxCount: (opts.maxCount ?? MAX_CRASH_RECORDS) - 1 });
    const file = path.join(dir, crashRecordName(record.at, record.role, record.pid, crypto.randomBytes(3).toString('hex')));
    writeFileAtomic(file, JSON.stringify(record, null, 1) + '\n', { mode: PRIVATE_FILE_MODE });
    return file;
  } catch {
    return null;
  }
}

/** Removes records older than maxAgeMs, then the oldest beyond maxCount. Returns how many went. */
export function pruneCrashRecords(dir: string, nowMs: number, limits: PruneLimits = {}): number {
  const maxCount = Math.max(0, limits.maxCount ?? MAX_CRASH_RECORDS);
  const maxAgeMs = limits.maxAgeMs ?? CRASH_RECORD_MAX_AGE_MS;
  let removed = 0;
  const kept: string[] = [];
  for (const name of recordNames(dir)) {
    const full = path.join(dir, name);
    try {
      if (nowMs - fs.statSync(full).mtimeMs > maxAgeMs) {
        fs.unlinkSync(full);
        removed++;
      } else {
        kept.push(name);
      }
    } catch {
      // Pruned meanwhile by another process.
    }
  }
  for (const name of kept.slice(0, Math.max(0, kept.length - maxCount))) {
    try {
      fs.unlinkSync(path.join(dir, name));
      removed++;
    } catch {
      // Pruned meanwhile by another process.
    }
  }
  return removed;
}

/** The newest `limit` records, newest first, as metadata: reading them never shows events. */
export function listCrashRecords(dir: string, limit = MAX_CRASH_RECORDS): CrashSummary[] {
  const out: CrashSummary[] = [];
  for (const name of recordNames(dir).reverse()) {
    if (out.length >= limit) break;
    try {
      const parsed = JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')) as Partial<CrashRecord>;
      if (!(CRASH_REASONS as readonly unknown[]).includes(parsed.reason)) continue;
      const events = Array.isArray(parsed.events) ? parsed.events.length : 0;
      // Rebuilt through the allowlist: a file in this directory is not trusted to be ours.
      const r = makeCrashRecord(
        {
          role: String(parsed.role),
          pid: typeof parsed.pid === 'number' ? parsed.pid : 0,
          incarnation: typeof parsed.incarnation === 'string' ? parsed.incarnation : null,
          reason: parsed.reason as CrashReason,
          detail: typeof parsed.detail === 'object' && parsed.detail !== null ? parsed.detail : {},
          events: [],
        },
        new Date(typeof parsed.at === 'string' && !Number.isNaN(Date.parse(parsed.at)) ? parsed.at : 0),
      );
      out.push({ file: name, at: r.at, role: r.role, pid: r.pid, incarnation: r.incarnation, reason: r.reason, detail: r.detail, events });
    } catch {
      // Torn or foreign: not a record.
    }
  }
  return out;
}

function recordNames(dir: string): string[] {
  try {
    return fs.readdirSync(dir).filter((n) => RECORD_NAME.test(n)).sort();
  } catch {
    return [];
  }
}

/** An error as a record may describe it: its class name and code, never its message. */
export function errorDetail(err: unknown): LogFields {
  const name = err instanceof Error ? err.name : typeof err;
  const code = err && typeof err === 'object' && 'code' in err ? (err as { code: unknown }).code : undefined;
  return { name, code: typeof code === 'string' || typeof code === 'number' ? code : undefined };
}
