// Age-based pruning of the owner-only files a1 keeps (logs, recovery files): every resident
// process may prune at once, so a file that vanishes meanwhile is not an error.
import fs from 'node:fs';
import path from 'node:path';

/** Removes the files in `dir` whose names `matches` and whose mtime is more than
 * `maxAgeMs` before `nowMs`; returns how many went. A missing directory prunes nothing. */
export function pruneOlderThan(dir: string, nowMs: number, maxAgeMs: number, matches: (name: string) => boolean = () => true): number {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    if (!matches(name)) continue;
    const file = path.join(dir, name);
    try {
      if (nowMs - fs.statSync(file).mtimeMs > maxAgeMs) {
        fs.unlinkSync(file);
        removed++;
      }
    } catch {
      // Removed meanwhile by another process.
    }
  }
  return removed;
}

/** Recovery files (src/holder/recovery.ts writes them) are kept a week (SPEC §4, §10). */
export const RECOVERY_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

/** Removes recovery files older than the maximum age; returns how many. The server prunes them,
 * the holder writes them: the rule lives here, beside both. */
export function pruneRecoveryFiles(dir: string, now: number, maxAgeMs = RECOVERY_MAX_AGE_MS): number {
  return pruneOlderThan(dir, now, maxAgeMs);
}
