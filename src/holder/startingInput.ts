// Keys typed while a tab's child starts (its first start, or a restart after a crash): kept in
// order, whole batches only, up to the tab's input bound, and handed over once the child runs
// (SPEC §7). Pure: the holder measures, delivers and tells the typist.

export interface StartingBatch<Owner, Event> {
  owner: Owner;
  events: Event[];
  bytes: number;
}

export class StartingInput<Owner, Event> {
  #batches: StartingBatch<Owner, Event>[] = [];
  #bytes = 0;

  constructor(private readonly limitBytes: number) {}

  get bytes(): number {
    return this.#bytes;
  }

  /** Keeps the batch, or refuses it whole (false) when it would pass the bound. */
  offer(owner: Owner, events: Event[], bytes: number): boolean {
    if (this.#bytes + bytes > this.limitBytes) return false;
    this.#batches.push({ owner, events, bytes });
    this.#bytes += bytes;
    return true;
  }

  /** Everything kept, oldest first; the queue is empty after. */
  take(): StartingBatch<Owner, Event>[] {
    const batches = this.#batches;
    this.#batches = [];
    this.#bytes = 0;
    return batches;
  }
}
