// `a1 tabs doctor [--out FILE]` (SPEC §13): a bounded diagnostic bundle — host status, recent
// structured log records and counters — built from allowlisted fields only. Terminal content,
// prompts, recovery files and credentials never enter it: log records are rebuilt field by field
// from the allowlist, so anything else a record might carry is dropped, not filtered.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Every field a bundle's log record may carry; all are event names, ids, numbers or codes. */
const RECORD_FIELDS = [
  'at', 'pid', 'level', 'role', 'event', 'code', 'tab', 'holderPid', 'childPid', 'epoch', 'maxEpoch', 'attempt',
  'graceMs', 'silentMs', 'reason', 'signal', 'tabs', 'resumed', 'op',
] as const;
/** A string field longer than this is not an id or a code: it is dropped. */
const MAX_FIELD_CHARS = 80;
/** The newest records kept per role. */
const RECORDS_PER_ROLE = 200;
/** The whole bundle stays under this size. */
export const MAX_BUNDLE_BYTES = 512 * 1024;

export type DoctorRecord = Partial<Record<(typeof RECORD_FIELDS)[number], string | number | boolean | null>>;

/** One log line as the bundle may show it, or null when it is not one of a1's records. */
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
    const v = (parsed as Record<string, unknown>)[key];
    if (typeof v === 'number' || typeof v === 'boolean' || v === null) out[key] = v;
    else if (typeof v === 'string' && v.length <= MAX_FIELD_CHARS && /^[\w.:\-+/ ]*$/.test(v)) out[key] = v;
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
  counters: Record<string, number>;
  records: DoctorRecord[];
}

/** Assembles the bundle, dropping the oldest records until it fits MAX_BUNDLE_BYTES. */
export function buildBundle(parts: Omit<DoctorBundle, 'createdAt' | 'platform' | 'counters'>): DoctorBundle {
  const bundle: DoctorBundle = {
    createdAt: new Date().toISOString(),
    version: parts.version,
    platform: { os: process.platform, release: os.release(), arch: process.arch, node: process.version, cpus: os.cpus().length },
    profile: parts.profile,
    host: parts.host,
    registry: parts.registry,
    counters: countEvents(parts.records),
    records: [...parts.records],
  };
  while (bundle.records.length > 0 && Buffer.byteLength(JSON.stringify(bundle)) > MAX_BUNDLE_BYTES) {
    bundle.records.splice(0, Math.max(1, Math.floor(bundle.records.length / 10)));
  }
  return bundle;
}
