// Writes to the PTY master at once. node-pty queues every write through the thread pool, a
// round trip on each keystroke before the child even sees it; the master is non-blocking, so a
// direct write either lands or reports EAGAIN, and only then is the rest queued and retried.
import fs from 'node:fs';

/** A child that is not reading its input is asked again this often, not in a busy loop. */
const RETRY_MS = 1;

export class PtyWriter {
  private queue: Buffer[] = [];
  private queuedBytes = 0;
  private retry: NodeJS.Timeout | null = null;
  private disposed = false;
  /** When the PTY last took bytes, or the backlog began. */
  private movedAt = 0;
  /** Set once the master is gone: what is queued then can no longer be delivered. */
  private closed = false;
  /** The master as it was opened: node-pty closes it before it reports the exit, and the number
   * may then name another file of this process, which must never receive the tab's input. */
  private readonly identity: string | null;

  constructor(
    private readonly fd: number,
    private readonly onError: (err: unknown) => void,
    /** The PTY took queued bytes on a retry: room may have opened for input that waits. */
    private readonly onTaken: () => void = () => undefined,
    private readonly now: () => number = Date.now,
  ) {
    this.identity = identityOf(fd);
  }

  /** Bytes accepted but not yet taken by the PTY: the child is not reading them, or (once the
   * master is gone) never will. */
  get pendingBytes(): number {
    return this.queuedBytes;
  }

  /** How long the PTY has taken none of the backlog; 0 with none. */
  stalledMs(): number {
    return this.queuedBytes === 0 ? 0 : this.now() - this.movedAt;
  }

  write(data: string | Uint8Array): void {
    if (this.disposed) return;
    const buf = typeof data === 'string' ? Buffer.from(data, 'utf8') : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    if (buf.length === 0) return;
    if (this.closed) {
      this.queuedBytes += buf.length;
      return;
    }
    if (this.queuedBytes === 0) this.movedAt = this.now();
    this.queue.push(buf);
    this.queuedBytes += buf.length;
    if (this.queue.length === 1 && !this.retry) this.flush(false);
  }

  /** Idempotent; what is still queued is dropped (the child is gone). */
  dispose(): void {
    this.disposed = true;
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    this.queue = [];
    this.queuedBytes = 0;
  }

  private flush(retrying: boolean): void {
    this.retry = null;
    const before = this.queuedBytes;
    if (this.queue.length > 0 && !this.disposed && (this.identity === null || identityOf(this.fd) !== this.identity)) {
      this.markClosed();
      return;
    }
    while (this.queue.length > 0 && !this.disposed) {
      const head = this.queue[0];
      let written: number;
      try {
        written = fs.writeSync(this.fd, head);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'EAGAIN') {
          this.retry = setTimeout(() => this.flush(true), RETRY_MS);
          if (retrying && this.queuedBytes < before) this.onTaken();
          return;
        }
        this.markClosed();
        this.onError(err);
        return;
      }
      this.queuedBytes -= written;
      if (written > 0) this.movedAt = this.now();
      if (written < head.length) this.queue[0] = head.subarray(written);
      else this.queue.shift();
    }
    if (retrying && this.queuedBytes < before) this.onTaken();
  }

  /** The master is gone: nothing more is written; what is queued stays counted as undelivered. */
  private markClosed(): void {
    this.closed = true;
    this.queue = [];
  }
}

function identityOf(fd: number): string | null {
  try {
    const st = fs.fstatSync(fd);
    return `${st.dev}:${st.ino}:${st.rdev}`;
  } catch {
    return null;
  }
}
