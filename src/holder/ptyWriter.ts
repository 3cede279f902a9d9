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

  constructor(
    private readonly fd: number,
    private readonly onError: (err: unknown) => void,
  ) {}

  /** Bytes accepted but not yet taken by the PTY: the child is not reading them. */
  get pendingBytes(): number {
    return this.queuedBytes;
  }

  write(data: string | Uint8Array): void {
    if (this.disposed) return;
    const buf = typeof data === 'string' ? Buffer.from(data, 'utf8') : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    if (buf.length === 0) return;
    this.queue.push(buf);
    this.queuedBytes += buf.length;
    if (this.queue.length === 1 && !this.retry) this.flush();
  }

  /** Idempotent; what is still queued is dropped (the child is gone). */
  dispose(): void {
    this.disposed = true;
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    this.queue = [];
    this.queuedBytes = 0;
  }

  private flush(): void {
    this.retry = null;
    while (this.queue.length > 0 && !this.disposed) {
      const head = this.queue[0];
      let written: number;
      try {
        written = fs.writeSync(this.fd, head);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'EAGAIN') {
          this.retry = setTimeout(() => this.flush(), RETRY_MS);
          return;
        }
        this.queue = [];
        this.queuedBytes = 0;
        this.onError(err);
        return;
      }
      this.queuedBytes -= written;
      if (written < head.length) this.queue[0] = head.subarray(written);
      else this.queue.shift();
    }
  }
}
