// Shortcuts' actions run one at a time, in the order typed: each sees the revision and order the
// one before it left (the server's topology change precedes its reply on the same socket), and
// input typed after a shortcut waits for it (attach/input.ts).

export class ActionQueue {
  private tail: Promise<void> = Promise.resolve();
  private pending = 0;

  /** Steps queued that have not started. */
  get busy(): boolean {
    return this.pending > 0;
  }

  /** Runs `step` after the steps queued before it. */
  chain(step: () => void | Promise<void>): void {
    this.pending++;
    this.tail = this.tail.then(async () => {
      this.pending--;
      await step();
    });
  }
}
