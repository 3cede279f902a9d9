// The tab's terminal model (SPEC §7): a headless xterm that parses the child's output, answers
// its queries, tracks its modes and title, and gives each viewing client the rows that changed.
import xtermHeadless from '@xterm/headless';
import unicode11 from '@xterm/addon-unicode11';
import { ModeTracker } from '../surface/modes.js';
import { extractRow, extractCursor, rowWords } from '../surface/extract.js';
import { changedRows } from '../surface/diff.js';
import { watchDirtyRows, writeNow } from '../surface/feed.js';
import { RowCache } from '../surface/rowCache.js';
import type { Row, SurfacePatch } from '../surface/types.js';
import type { HistoryPage, SearchResult } from '../protocol/history.js';
import { DroppedLines, readHistoryPage, searchBuffer, type SearchDirection } from './history.js';
import { parseOsc52 } from './clipboard.js';
import { recoveryText } from './recovery.js';
import { Emitter } from '../emitter.js';
import type { Disposable } from '../disposable.js';

const { Terminal } = xtermHeadless;
type XTerm = InstanceType<typeof Terminal>;

/** Where the model sends what goes to the child: answers to its queries (DA, DSR) and admitted
 * input. */
export interface ChildInput {
  write(data: string | Buffer): void;
}

/** A frame for one client: what changed since the rows it has, or null when nothing did. */
export interface Frame {
  patch: SurfacePatch;
  rows: Row[];
  /** Cursor, modes and title, to tell a frame that changes only those. */
  meta: string;
}

export class TerminalModel implements Disposable {
  readonly term: XTerm;
  private readonly titleChanged = new Emitter();
  readonly onTitleChange = this.titleChanged.event;
  private readonly clipboardWritten = new Emitter<string>();
  /** An OSC 52 write, for the attached clients (never persisted or logged). */
  readonly onClipboard = this.clipboardWritten.event;
  readonly modes: ModeTracker;
  title = '';
  private readonly rowCache: RowCache;
  /** Counted from the first copy-mode request on: clients only compare two replies' counts. */
  private droppedLines: DroppedLines | null = null;

  constructor(size: { cols: number; rows: number; scrollback: number }, child: ChildInput) {
    this.term = new Terminal({ ...size, allowProposedApi: true });
    this.term.loadAddon(new unicode11.Unicode11Addon());
    this.term.unicode.activeVersion = '11';
    this.modes = new ModeTracker(this.term, (data) => child.write(data));
    // Registered before any write, so no change goes unreported.
    const rowCache = new RowCache((y) => extractRow(this.term, y), true, (y) => rowWords(this.term, y));
    const watching = watchDirtyRows(this.term, (range) => (range ? rowCache.mark(range.start, range.end) : rowCache.markAll()));
    this.rowCache = watching ? rowCache : new RowCache((y) => extractRow(this.term, y), false);
    this.term.onTitleChange((t) => {
      this.title = t;
      this.titleChanged.fire();
    });
    // OSC 52: writes go to attached clients at once; reads and malformed requests are swallowed
    // here, so the child never gets an answer.
    this.term.parser.registerOscHandler(52, (data) => {
      const req = parseOsc52(data);
      if (req.kind === 'write') this.clipboardWritten.fire(req.sequence);
      return true;
    });
    // The model answers terminal queries (DA, DSR) and carries admitted input (SPEC §7).
    this.term.onData((data) => child.write(data));
    this.term.onBinary((data) => child.write(Buffer.from(data, 'binary')));
  }

  dispose(): void {
    this.titleChanged.dispose();
    this.clipboardWritten.dispose();
    this.term.dispose();
  }

  get cols(): number {
    return this.term.cols;
  }

  get rows(): number {
    return this.term.rows;
  }

  /** The child's output, parsed now. */
  feed(data: Uint8Array): void {
    writeNow(this.term, data);
  }

  /** Calls `done` once everything written so far is parsed. */
  whenParsed(done: () => void): void {
    this.term.write('', done);
  }

  /** Typed text through the model's input path: marks it as typed, so the echo is parsed at once
   * instead of on the model's next timer tick (SPEC §7). */
  typed(text: string): void {
    this.term.input(text, true);
  }

  /** A clean model for a new child (RIS, through the parser so every tracked mode resets too). */
  reset(): void {
    this.term.write('\x1bc');
    this.title = '';
  }

  /** A line the child never printed, shown in the tab (a start that failed). */
  note(text: string): void {
    this.term.write(text);
  }

  /** False when the model already has that size. */
  resize(cols: number, rows: number): boolean {
    if (cols === this.term.cols && rows === this.term.rows) return false;
    this.term.resize(cols, rows);
    // Reflow rewrites rows without a parse to report it.
    this.rowCache.markAll();
    return true;
  }

  currentRows(): Row[] {
    return this.rowCache.current(this.term.rows);
  }

  /** The frame a client that has `sent` (null: nothing yet) and `sentMeta` needs, or null. */
  frameFor(sent: Row[] | null, sentMeta: string, current: Row[]): Frame | null {
    const full = sent === null || sent.length !== current.length;
    const lines = changedRows(sent, current).map((y) => current[y]);
    const patch: SurfacePatch = {
      full,
      cols: this.term.cols,
      rows: this.term.rows,
      lines,
      cursor: extractCursor(this.term, this.modes),
      modes: this.modes.modes,
      title: this.title,
    };
    const meta = JSON.stringify([patch.cursor, patch.modes, patch.title]);
    if (!full && lines.length === 0 && meta === sentMeta) return null;
    return { patch, rows: current, meta };
  }

  /** The last screen and its scrollback, for a recovery file. */
  recoveryText(): string {
    return recoveryText(this.term.buffer.normal, this.term.rows);
  }

  // Copy mode: read-only and per client.

  historyPage(from: number, count: number): HistoryPage & { dropped: number } {
    return { dropped: this.dropped(), ...readHistoryPage(this.term, from, count) };
  }

  search(text: string, direction: SearchDirection, from: number | undefined): SearchResult & { total: number; dropped: number } {
    const dropped = this.dropped();
    const result = searchBuffer(this.term, text, direction, from);
    return { total: this.term.buffer.active.length, dropped, ...result };
  }

  private dropped(): number {
    this.droppedLines ??= new DroppedLines(this.term);
    return this.droppedLines.total;
  }
}
