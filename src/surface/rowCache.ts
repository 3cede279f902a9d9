// The viewport's rows as last extracted, re-extracted only where the terminal reported a
// change: a keystroke's echo re-reads one row instead of the whole screen. Unchanged rows stay
// the same objects, so comparing them with what a client was sent is a reference check. A row
// reported changed whose cells are word for word what they were is kept too: a program that
// moves the cursor across the screen to echo one key (Claude Code does) reports most rows.
import type { Row } from './types.js';

/** A row's raw cell words when they alone decide its Row, else null (always re-extracted). */
export type RowWords = (y: number) => Uint32Array | null;

export class RowCache {
  private rows: Row[] = [];
  private dirty = new Uint8Array(0);
  private allDirty = true;
  /** Each row's words as of its last extraction (null: unknown, or not enough to decide). */
  private words: (Uint32Array | null)[] = [];

  /** `trackDirty` false: nobody reports changes, so every row is read again every time. */
  constructor(
    private readonly extract: (y: number) => Row,
    private readonly trackDirty = true,
    private readonly rowWords: RowWords = () => null,
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
      this.words = new Array<Uint32Array | null>(count).fill(null);
      for (let y = 0; y < count; y++) this.read(y);
      this.dirty = new Uint8Array(count);
      this.allDirty = false;
    } else {
      for (let y = 0; y < count; y++) {
        if (this.dirty[y] === 0) continue;
        this.dirty[y] = 0;
        const now = this.rowWords(y);
        const before = this.words[y];
        if (now !== null && before !== null && sameWords(now, before)) continue;
        this.read(y, now);
      }
    }
    return this.rows.slice();
  }

  private read(y: number, now = this.rowWords(y)): void {
    this.rows[y] = this.extract(y);
    this.words[y] = now === null ? null : now.slice();
  }
}

function sameWords(a: Uint32Array, b: Uint32Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
