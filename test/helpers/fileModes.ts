// Permission bits in tests: reading a file's, and running code under a chosen umask.
import fs from 'node:fs';

export function modeOf(file: string): number {
  return fs.statSync(file).mode & 0o777;
}

/** Runs `fn` with the process umask set to `mask`, then restores the old one. */
export function withUmask<T>(mask: number, fn: () => T): T {
  const old = process.umask(mask);
  try {
    return fn();
  } finally {
    process.umask(old);
  }
}
