// The tab's bounded input queue (SPEC §7): accepted input is never dropped, reordered or
// truncated; a paste is admitted whole or rejected whole.

export class InputQueue {
  private chunks: string[] = [];
  private bytes = 0;

  constructor(private readonly limitBytes: number) {}

  get size(): number {
    return this.bytes;
  }

  /** Admits `data` whole, or returns false and queues nothing. `backlogBytes` is input admitted
   * earlier that a child not reading has not taken yet (still waiting for the PTY): it counts
   * against the limit, or a stalled child would let every paste through and buffer without end. */
  offer(data: string, backlogBytes = 0): boolean {
    const n = Buffer.byteLength(data);
    if (n === 0) return true;
    if (this.bytes + backlogBytes + n > this.limitBytes) return false;
    this.chunks.push(data);
    this.bytes += n;
    return true;
  }

  /** Everything queued, in order, emptying the queue. */
  takeAll(): string {
    const out = this.chunks.join('');
    this.chunks = [];
    this.bytes = 0;
    return out;
  }
}
