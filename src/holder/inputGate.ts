// The tab's input admission (SPEC §7 as issue 15 sharpens it): input is written at once while the
// writer's backlog stays within the bound; beyond it, it waits in order for the child to read, and
// is refused only once the child has taken nothing for `stallMs`: a child that reads at its own
// pace gets every byte, one that does not read gets none of a refused batch. A paste larger than
// the bound can never be queued whole and is refused at once. Pure: the writer's backlog and how
// long it has not moved are given.

/** One piece of a batch: text goes through the model's input path, binary straight to the PTY. */
export interface InputPart {
  binary: boolean;
  data: string;
}

/** What one input message asked for: admitted, written and refused as a whole. */
export interface InputBatch<Owner> {
  parts: InputPart[];
  bytes: number;
  paste: boolean;
  owner: Owner;
}

/** The writer as admission sees it. */
export interface WriterView {
  /** Bytes written to the writer that the PTY has not taken yet. */
  pending: number;
  /** How long the PTY has taken none of them (0 when nothing is pending). */
  stalledMs: number;
}

export type Admission = 'write' | 'held' | 'refused';

export class InputGate<Owner> {
  private held: InputBatch<Owner>[] = [];
  private heldTotal = 0;

  constructor(
    private readonly limitBytes: number,
    private readonly stallMs: number,
    /** Memory guard: a reading child's backlog plus what waits never exceeds this. */
    private readonly capBytes: number,
  ) {}

  get heldBytes(): number {
    return this.heldTotal;
  }

  offer(batch: InputBatch<Owner>, w: WriterView): Admission {
    if (batch.bytes === 0) return 'write';
    if (batch.paste && batch.bytes > this.limitBytes) return 'refused';
    if (this.held.length === 0 && this.fits(batch.bytes, w.pending)) return 'write';
    if (w.stalledMs >= this.stallMs) return 'refused';
    if (w.pending + this.heldTotal + batch.bytes > this.capBytes) return 'refused';
    this.held.push(batch);
    this.heldTotal += batch.bytes;
    return 'held';
  }

  /** The held batches that fit now, oldest first, removed. `write` reports each one's bytes as
   * pending before the next is judged. */
  release(w: WriterView): InputBatch<Owner>[] {
    const out: InputBatch<Owner>[] = [];
    let pending = w.pending;
    while (this.held.length > 0 && this.fits(this.held[0].bytes, pending)) {
      const batch = this.held.shift()!;
      this.heldTotal -= batch.bytes;
      pending += batch.bytes;
      out.push(batch);
    }
    return out;
  }

  /** Once the child has stopped reading: every held batch, refused whole, removed. */
  refuseIfStalled(w: WriterView): InputBatch<Owner>[] {
    return w.stalledMs >= this.stallMs ? this.dropAll() : [];
  }

  /** Every held batch, removed (refused, or the child ended). */
  dropAll(): InputBatch<Owner>[] {
    const out = this.held;
    this.held = [];
    this.heldTotal = 0;
    return out;
  }

  /** A batch larger than the bound still goes to an idle writer (typed input has no whole to keep). */
  private fits(bytes: number, pending: number): boolean {
    return pending === 0 || pending + bytes <= this.limitBytes;
  }
}
