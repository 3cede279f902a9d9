// The viewport's rows as last extracted, re-extracted only where the terminal reported a
// change: a keystroke's echo re-reads one row instead of the whole screen. Unchanged rows stay
// the same objects, so comparing them with what a client was sent is a reference check.
import type { Row } from './types.js';

export class RowCache {
  private rows: Row[] = [];
  private dirty = new Uint8Array(0);
  private allDirty = true;

  /** `trackDirty` false: nobody reports changes, so every row is read again every time. */
  constructor(
    private readonly extract: (y: number) => Row,
    private readonly trackDirty = true,
  ) {}

  /** Viewport rows `start..end` (inclusive) changed; out-of-range parts are ignored. */
  mark(start: number, end: number): void {
    const from = Math.max(0, start);
    const to = Math.min(this.dirty.length - 1, end);
    for (let y = from; y <= to; y++) this.dirty[y] = 1;
  }

  markAll(): void {
    this.allDirty = true;
  }

  /** All `count` rows, current; a new array each call (callers keep the one they sent). */
  current(count: number): Row[] {
    if (!this.trackDirty || count !== this.rows.length) this.allDirty = true;
    if (this.allDirty) {
      this.rows = new Array<Row>(count);
      for (let y = 0; y < count; y++) this.rows[y] = this.extract(y);
      this.dirty = new Uint8Array(count);
      this.allDirty = false;
    } else {
      for (let y = 0; y < count; y++) {
        if (this.dirty[y] === 0) continue;
        this.rows[y] = this.extract(y);
        this.dirty[y] = 0;
      }
    }
    return this.rows.slice();
  }
}
