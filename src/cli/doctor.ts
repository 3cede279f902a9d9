// `a1 tabs doctor [--out FILE]` (SPEC §13): a bounded diagnostic bundle — host status, recent
// structured log records, counters and crash-record metadata — built from allowlisted fields
// only. Terminal content, prompts, recovery files and credentials never enter it: log records are
// rebuilt field by field through the log allowlist (src/log.ts), so anything else a record might
// carry is dropped, not filtered, and crash records contribute their metadata, not their events.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { allowedValue, ENVELOPE_FIELDS, LOG_FIELDS, REDACTED } from '../log.js';
import { countersOf, type Counters } from '../diag/counters.js';
import type { CrashSummary } from '../diag/crashRecord.js';

/** Every field a bundle's log record may carry: the log's own allowlist, one source of truth. */
const RECORD_FIELDS = [...ENVELOPE_FIELDS, ...LOG_FIELDS] as const;
/** The newest records kept per role. */
const RECORDS_PER_ROLE = 200;
/** The newest crash records listed. */
export const CRASH_RECORDS_LISTED = 20;
/** The whole bundle stays under this size. */
export const MAX_BUNDLE_BYTES = 512 * 1024;

export type DoctorRecord = Partial<Record<(typeof RECORD_FIELDS)[number], string | number | boolean | null>>;

/** One log line as the bundle may show it, or null when it is not one of a1's records. Values
 * the allowlist refuses are dropped (a bundle has no use for a placeholder). */
export function allowlistedRecord(line: string): DoctorRecord | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null || typeof (parsed as { event?: unknown }).event !== 'string') return null;
  const out: DoctorRecord = {};
  for (const key of RECORD_FIELDS) {
    const raw = (parsed as Record<string, unknown>)[key];
    if (raw === undefined) continue;
    const v = allowedValue(raw);
    if (v !== REDACTED || raw === REDACTED) out[key] = v;
  }
  return out;
}

/** Counts by event name: restarts, stalls, timeouts and refusals at a glance. */
export function countEvents(records: readonly DoctorRecord[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const r of records) if (typeof r.event === 'string') counts[r.event] = (counts[r.event] ?? 0) + 1;
  return counts;
}

/** The newest records of every `<role>.log` (and its rotated generations) in `logsDir`. */
export function readRecords(logsDir: string): DoctorRecord[] {
  let names: string[];
  try {
    names = fs.readdirSync(logsDir);
  } catch {
    return [];
  }
  const byRole = new Map<string, string[]>();
  for (const name of names) {
    const m = /^(.+)\.log(?:\.(\d+))?$/.exec(name);
    if (!m) continue;
    const files = byRole.get(m[1]) ?? [];
    files.push(name);
    byRole.set(m[1], files);
  }
  const out: DoctorRecord[] = [];
  for (const files of byRole.values()) {
    // Oldest generation first, so the newest lines end up last.
    files.sort((a, b) => generation(b) - generation(a));
    const lines: string[] = [];
    for (const f of files) {
      try {
        lines.push(...fs.readFileSync(path.join(logsDir, f), 'utf8').split('\n').filter(Boolean));
      } catch {
        // Rotated away meanwhile.
      }
    }
    for (const line of lines.slice(-RECORDS_PER_ROLE)) {
      const r = allowlistedRecord(line);
      if (r) out.push(r);
    }
  }
  return out.sort((a, b) => String(a.at ?? '').localeCompare(String(b.at ?? '')));
}

function generation(name: string): number {
  const m = /\.log\.(\d+)$/.exec(name);
  return m ? Number(m[1]) : 0;
}

export interface DoctorBundle {
  createdAt: string;
  version: string;
  platform: { os: string; release: string; arch: string; node: string; cpus: number };
  profile: string;
  host: unknown;
  registry: { tabs: number; byStatus: Record<string, number>; resumeRecords: number; history: number } | null;
  /** Counters over the records below (every role); the host's own since its start are in `host`. */
  counters: Counters;
  /** Records per event name. */
  events: Record<string, number>;
  /** The newest crash records' metadata, newest first. */
  crashes: CrashSummary[];
  records: DoctorRecord[];
}

/** Assembles the bundle, dropping the oldest records until it fits MAX_BUNDLE_BYTES. */
export function buildBundle(parts: Omit<DoctorBundle, 'createdAt' | 'platform' | 'counters' | 'events' | 'crashes'> & { crashes?: CrashSummary[] }): DoctorBundle {
  const events = countEvents(parts.records);
  const bundle: DoctorBundle = {
    createdAt: new Date().toISOString(),
    version: parts.version,
    platform: { os: process.platform, release: os.release(), arch: process.arch, node: process.version, cpus: os.cpus().length },
    profile: parts.profile,
    host: parts.host,
    registry: parts.registry,
    counters: countersOf(events),
    events,
    crashes: (parts.crashes ?? []).slice(0, CRASH_RECORDS_LISTED),
    records: [...parts.records],
  };
  while (bundle.records.length > 0 && Buffer.byteLength(JSON.stringify(bundle)) > MAX_BUNDLE_BYTES) {
    bundle.records.splice(0, Math.max(1, Math.floor(bundle.records.length / 10)));
  }
  return bundle;
}

/** Holders' counters, from their retained log records (a holder's own live counts stay in the
 * holder; its log is where they are shared). */
export function holderCounters(logsDir: string): Counters {
  return countersOf(countEvents(readRecords(logsDir).filter((r) => typeof r.role === 'string' && r.role.startsWith('holder-'))));
}

/** One line about the newest crash records, for host status. */
export function describeCrashes(crashes: readonly CrashSummary[], crashDir: string): string {
  if (crashes.length === 0) return 'none';
  const newest = crashes[0];
  const when = newest.at.slice(0, 19).replace('T', ' ');
  return `${crashes.length}${crashes.length >= CRASH_RECORDS_LISTED ? '+' : ''} in ${crashDir}; newest ${when} ${newest.role} ${newest.reason}`;
}
