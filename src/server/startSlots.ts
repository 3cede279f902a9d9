// At most `tabsMaxConcurrentStarts` holder starts run at once (SPEC §12): starting agents
// contend for their own settings and auth locks, and a restored tab set must not spawn every
// holder in the same instant. Starts beyond the limit wait their turn, in order; none is refused.

export class StartSlots {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError('StartSlots needs a limit of at least 1.');
  }

  /** Starts running now. */
  get inFlight(): number {
    return this.active;
  }

  /** Starts waiting for a slot. */
  get queued(): number {
    return this.waiting.length;
  }

  /** Runs `start` once a slot is free; the slot is released however it ends. */
  async run<T>(start: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active++;
    try {
      return await start();
    } finally {
      const next = this.waiting.shift();
      // The slot passes straight to the next start, so a newcomer cannot overtake the queue.
      if (next) next();
      else this.active--;
    }
  }
}
