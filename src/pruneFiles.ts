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
