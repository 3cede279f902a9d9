// Who holds a lock file's POSIX lock, by the kernel's own account (/proc/locks): the writer
// lease's holder without trusting any record. Dependency-free, so a holder can ask it cheaply.
import fs from 'node:fs';

/**
 * The pid holding a POSIX lock on `file`, read from /proc/locks (Linux): the OS lock is the
 * authority, so its holder is known without trusting any record. Null when no lock is held;
 * undefined where /proc/locks does not exist.
 */
export function lockHolder(file: string): number | null | undefined {
  let locks: string;
  let stat: fs.Stats;
  try {
    locks = fs.readFileSync('/proc/locks', 'utf8');
  } catch {
    return undefined;
  }
  try {
    stat = fs.statSync(file);
  } catch {
    return null;
  }
  for (const line of locks.split('\n')) {
    // "1: POSIX  ADVISORY  WRITE 31462 fe:00:2147160 1073741824 1073742335"
    // A "->" line is a process waiting for the lock, not holding it.
    if (line.includes('->')) continue;
    const fields = line.trim().split(/\s+/);
    const id = fields[5]?.split(':');
    if (!id || id.length !== 3 || Number(id[2]) !== stat.ino) continue;
    const dev = (parseInt(id[0], 16) << 8) | parseInt(id[1], 16);
    if (dev === stat.dev || stat.dev > 0xffff) return Number(fields[4]);
  }
  return null;
}
