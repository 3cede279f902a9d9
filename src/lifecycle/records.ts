// Resume records and the one validator that decides, before every automatic resume, which record
// (if any) a tab may resume from (SPEC §9). Pure: the caller supplies the clock and who holds what.

import type { RecordOrigin, ResumeAuthority, ResumeRecord } from '../protocol/resume.js';

export type { RecordOrigin, ResumeAuthority, ResumeRecord };

/** Documented maximum age of `live` and `quit` records, checked when a resume is decided. A day
 * covers an overnight host stop; an older defensive capture is more likely stale than wanted. */
export const RESUME_RECORD_MAX_AGE_MS = 24 * 60 * 60 * 1000;

/** Sleep records never expire by age; others expire once strictly older than maxAgeMs. */
export function isExpired(record: ResumeRecord, now: number, maxAgeMs: number): boolean {
  if (record.origin === 'sleep') return false;
  return now - record.capturedAt > maxAgeMs;
}

export type ResumeVerdict =
  | { ok: true; record: ResumeRecord }
  | { ok: false; reason: 'none' | 'expired' | 'held-elsewhere' };

export interface ResumeContext {
  tabId: string;
  now: number;
  maxAgeMs: number;
  /** True when another live tab holds this agent session (one session, one tab). */
  heldElsewhere: (sessionId: string) => boolean;
}

/**
 * The one validator that runs before every automatic resume: from the tab's records, the one to
 * resume (newest valid capturedAt; a sleep record wins a tie), or why none. When no record is
 * valid, 'held-elsewhere' is reported if an unexpired one exists, else 'expired' if any exists.
 */
export function validateResume(records: readonly ResumeRecord[], ctx: ResumeContext): ResumeVerdict {
  const own = records.filter((r) => r.tabId === ctx.tabId);
  if (own.length === 0) return { ok: false, reason: 'none' };
  const fresh = own.filter((r) => !isExpired(r, ctx.now, ctx.maxAgeMs));
  if (fresh.length === 0) return { ok: false, reason: 'expired' };
  const free = fresh.filter((r) => !ctx.heldElsewhere(r.sessionId));
  if (free.length === 0) return { ok: false, reason: 'held-elsewhere' };
  let best = free[0];
  for (const r of free.slice(1)) if (isPreferred(r, best)) best = r;
  return { ok: true, record: best };
}

function isPreferred(a: ResumeRecord, b: ResumeRecord): boolean {
  if (a.capturedAt !== b.capturedAt) return a.capturedAt > b.capturedAt;
  return a.origin === 'sleep' && b.origin !== 'sleep';
}

/**
 * The argv a holder's own restart resumes with: only while its record still passes the one
 * validator at `now` (SPEC §9: the same validator before every automatic resume), else null and
 * the restart starts the agent fresh. A holder knows no other tab's claims; the server replaces
 * or revokes its authority when the record changes.
 */
export function resumeArgvAt(authority: ResumeAuthority | null, tabId: string, now: number): { argv: string[] } | { argv: null; reason: 'none' | 'expired' | 'held-elsewhere' } {
  if (authority === null) return { argv: null, reason: 'none' };
  const verdict = validateResume([authority.record], { tabId, now, maxAgeMs: RESUME_RECORD_MAX_AGE_MS, heldElsewhere: () => false });
  return verdict.ok ? { argv: authority.argv } : { argv: null, reason: verdict.reason };
}

const ORIGINS: readonly string[] = ['live', 'quit', 'sleep'];

/** A ResumeAuthority from the wire (setResume, a holder's init), or null for anything else. */
export function parseResumeAuthority(v: unknown): ResumeAuthority | null {
  if (typeof v !== 'object' || v === null) return null;
  const { record, argv } = v as { record?: Partial<ResumeRecord>; argv?: unknown };
  if (!Array.isArray(argv) || argv.length === 0 || !argv.every((a) => typeof a === 'string')) return null;
  if (typeof record !== 'object' || record === null) return null;
  const strings = [record.id, record.tabId, record.agentKind, record.sessionId, record.cwd, record.name];
  if (!strings.every((f) => typeof f === 'string') || !ORIGINS.includes(record.origin as string) || !Number.isFinite(record.capturedAt)) return null;
  return { record: record as ResumeRecord, argv: argv as string[] };
}
