// History for copy mode (issue 8): a client reads the model's buffer a page at a time and
// searches it, so the whole scrollback is never serialised. Read-only: nothing here changes the
// terminal, the child or what other clients see. Line numbers are indexes into the active buffer:
// 0 is the oldest scrollback line, `total - 1` the last row of the screen.
import type { IDisposable, Terminal } from '@xterm/headless';
import { extractBufferLine } from '../surface/extract.js';
import type { Row } from '../surface/types.js';
import type { CellMatch, HistoryPage, SearchResult } from '../protocol/history.js';

/** A page holds at most this many lines: a few screens, enough to page ahead of a reader, while
 * one reply (a few tens of KB) never holds up the surface frames on the same lane for long. */
export const HISTORY_PAGE_MAX_LINES = 200;
/** A search reports at most this many matches: every match of a word planted in a 10,000-line
 * history fits, and a one-letter search over it stays a reply of about 100 KB. */
export const SEARCH_MAX_MATCHES = 5_000;
/** Longer search text is cut to this: nobody types more, and it bounds the work per line. */
export const SEARCH_TEXT_MAX_CHARS = 256;

/** Lines `from .. from + count - 1` of the active buffer, clamped to what exists and to the cap. */
export function readHistoryPage(term: Terminal, from: number, count: number): HistoryPage {
  const buffer = term.buffer.active;
  const total = buffer.length;
  const start = clampInt(from, 0, total);
  const end = start + clampInt(count, 0, Math.min(HISTORY_PAGE_MAX_LINES, total - start));
  const lines: Row[] = [];
  const wrapped: number[] = [];
  for (let i = start; i < end; i++) {
    lines.push(extractBufferLine(term, i));
    if (buffer.getLine(i)?.isWrapped) wrapped.push(i);
  }
  return { total, from: start, lines, wrapped, alt: buffer.type === 'alternate' };
}

export type SearchDirection = 'forward' | 'backward';

/** A match in string offsets of a line's text. */
export interface TextHit {
  line: number;
  index: number;
}

export interface ScanResult {
  hits: TextHit[];
  /** More matches exist past the last one reported. */
  truncated: boolean;
}

/**
 * Every occurrence of `text` (case-sensitive; overlapping ones too) in lines `textOf(0 ..
 * total - 1)`, scanning from line `from` to the end (forward) or to line 0 (backward), in scan
 * order: backward also orders the matches within a line from right to left. At most `max`.
 */
export function scanLines(
  textOf: (line: number) => string,
  total: number,
  text: string,
  from: number,
  direction: SearchDirection,
  max: number,
): ScanResult {
  const hits: TextHit[] = [];
  if (text === '' || total <= 0 || max <= 0) return { hits, truncated: false };
  const step = direction === 'forward' ? 1 : -1;
  for (let line = clampInt(from, 0, total - 1); line >= 0 && line < total; line += step) {
    const s = textOf(line);
    if (s.length < text.length) continue;
    const found: number[] = [];
    for (let at = s.indexOf(text); at >= 0; at = s.indexOf(text, at + 1)) found.push(at);
    if (step < 0) found.reverse();
    for (const index of found) {
      if (hits.length === max) return { hits, truncated: true };
      hits.push({ line, index });
    }
  }
  return { hits, truncated: false };
}

/** Searches the active buffer's text; `from` defaults to the first line (forward) or the last. */
export function searchBuffer(term: Terminal, text: string, direction: SearchDirection, from?: number): SearchResult {
  const buffer = term.buffer.active;
  const needle = text.slice(0, SEARCH_TEXT_MAX_CHARS);
  const start = from ?? (direction === 'forward' ? 0 : buffer.length - 1);
  const textOf = (i: number) => buffer.getLine(i)?.translateToString(true) ?? '';
  const { hits, truncated } = scanLines(textOf, buffer.length, needle, start, direction, SEARCH_MAX_MATCHES);
  const matches: CellMatch[] = [];
  let columnsLine = -1;
  let columns: number[] = [];
  for (const hit of hits) {
    // Offsets become columns only on lines that match: wide characters and clusters make them differ.
    if (hit.line !== columnsLine) {
      columnsLine = hit.line;
      columns = textColumns(term, hit.line);
    }
    const col = columns[hit.index] ?? hit.index;
    const end = columns[hit.index + needle.length] ?? col + needle.length;
    matches.push({ line: hit.line, col, len: Math.max(1, end - col) });
  }
  return { matches, truncated };
}

/**
 * For each code unit of the line's text (as `translateToString` builds it: one string per cell,
 * a space for an empty cell, nothing for the second half of a wide character), the column of
 * its cell; one more entry holds the column after the last cell.
 */
function textColumns(term: Terminal, index: number): number[] {
  const line = term.buffer.active.getLine(index);
  const columns: number[] = [];
  if (!line) return columns;
  const cell = term.buffer.active.getNullCell();
  for (let x = 0; x < line.length; x++) {
    line.getCell(x, cell);
    const chars = cell.getChars();
    if (cell.getWidth() === 0 && chars === '') continue;
    for (let i = 0; i < Math.max(1, chars.length); i++) columns.push(x);
  }
  columns.push(line.length);
  return columns;
}

/**
 * Counts the lines a full scrollback drops off its top, so a client keeps its place while the
 * tab prints on: line `i` of an earlier reply is line `i - (dropped' - dropped)` of a later one.
 * Reads internals of the pinned @xterm/headless (the line list's trim event), defensively: when
 * they are missing the count stays 0 and a client's place drifts by the dropped lines, nothing
 * worse. Only the normal buffer counts (the alternate screen has no history).
 */
export class DroppedLines implements IDisposable {
  private count = 0;
  private hooked: unknown = null;
  private trimSub: IDisposable | null = null;
  private readonly bufferSub: IDisposable;

  constructor(private readonly term: Terminal) {
    this.hook();
    // A reset replaces the buffers (and their line lists) and reports it as a buffer change.
    this.bufferSub = term.buffer.onBufferChange(() => this.hook());
  }

  get total(): number {
    this.hook();
    return this.count;
  }

  dispose(): void {
    this.trimSub?.dispose();
    this.trimSub = null;
    this.bufferSub.dispose();
  }

  private hook(): void {
    const lines = normalLines(this.term);
    if (!lines || lines === this.hooked) return;
    this.trimSub?.dispose();
    this.hooked = lines;
    this.trimSub = lines.onTrim((n) => {
      this.count += n;
    });
  }
}

interface TrimmingList {
  onTrim(listener: (amount: number) => void): IDisposable;
}

function normalLines(term: Terminal): TrimmingList | null {
  const core = (term as unknown as { _core?: { _bufferService?: { buffers?: { normal?: { lines?: Partial<TrimmingList> } } } } })._core;
  const lines = core?._bufferService?.buffers?.normal?.lines;
  return lines && typeof lines.onTrim === 'function' ? (lines as TrimmingList) : null;
}

function clampInt(n: number, lo: number, hi: number): number {
  if (!Number.isFinite(n)) return lo;
  return Math.max(lo, Math.min(hi, Math.trunc(n)));
}
