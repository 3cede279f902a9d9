// Replacing a file so that a kill -9 or a power cut at any instruction leaves either the old
// content or the new, never a torn file: a private temp file in the same directory, written and
// synced, renamed over the file, and the directory synced so the rename itself survives.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { crashPoint } from './crashPoints.js';

export interface AtomicWriteOptions {
  /** Permission bits of the new file, set exactly: the umask does not apply. */
  mode: number;
}

/** Replaces `file` with `data` atomically and durably; the temp file is removed on failure. */
export function writeFileAtomic(file: string, data: string | Uint8Array, options: AtomicWriteOptions): void {
  atomicWriteSteps({ fs, path, crypto, crashPoint, fsyncDir }, file, data, options.mode);
}

/** Makes a rename, link or unlink inside `dir` durable. */
export function fsyncDir(dir: string): void {
  fsyncDirWith(fs, dir);
}

/** What the steps use, passed in rather than imported: the watchdog's worker thread is an eval'd
 * script that cannot import, and runs copies of atomicWriteSteps' and fsyncDirWith's source. */
export interface AtomicWriteIO {
  fs: typeof fs;
  path: typeof path;
  crypto: typeof crypto;
  crashPoint(name: 'atomicWrite.rename.before' | 'atomicWrite.rename.after'): void;
  fsyncDir(dir: string): void;
}

/** fsyncDir over the fs module it is given; self-contained, for the same reason. */
export function fsyncDirWith(fsModule: typeof fs, dir: string): void {
  const fd = fsModule.openSync(dir, 'r');
  try {
    fsModule.fsyncSync(fd);
  } finally {
    fsModule.closeSync(fd);
  }
}

/**
 * The steps of writeFileAtomic. Self-contained (nothing but its arguments and globals), since
 * its source is copied into the watchdog's worker. The temp name carries the pid and 48 random
 * bits, and O_EXCL makes a collision an error, so concurrent writers never share a temp file.
 */
export function atomicWriteSteps(io: AtomicWriteIO, file: string, data: string | Uint8Array, mode: number): void {
  const temp = `${file}.a1-${process.pid}-${io.crypto.randomBytes(6).toString('hex')}.tmp`;
  // Opened outside the try: when the open fails, the name may be another writer's file.
  let fd: number | null = io.fs.openSync(temp, 'wx', mode);
  try {
    io.fs.fchmodSync(fd, mode);
    io.fs.writeFileSync(fd, data);
    io.fs.fsyncSync(fd);
    io.fs.closeSync(fd);
    fd = null;
    io.crashPoint('atomicWrite.rename.before');
    io.fs.renameSync(temp, file);
  } catch (error) {
    if (fd !== null) io.fs.closeSync(fd);
    io.fs.rmSync(temp, { force: true });
    throw error;
  }
  io.crashPoint('atomicWrite.rename.after');
  io.fsyncDir(io.path.dirname(file));
}
