// A person's terminal, for end-to-end tests: a real PTY running the program (by default the a1
// client) whose output feeds a headless xterm, so a test can read the screen as a person sees it
// and also check the exact bytes the program wrote (mode resets, redraw sizes).

import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as nodePty from 'node-pty';
import xtermHeadless from '@xterm/headless';
import type { IBufferCell } from '@xterm/headless';
import { DEFAULT_COLOR, RGB_FLAG, type Color } from '../../src/surface/types.js';
import { DEFAULT_WAIT_TIMEOUT_MS, WaitTimeoutError, waitFor } from './wait.js';
import type { InputEvent } from '../../src/input/events.js';
import { encodeInput } from '../../src/input/encode.js';
import type { KittyStacks } from '../../src/input/kittyFlags.js';
import { ModeTracker } from '../../src/surface/modes.js';
import { LEGACY_MODES } from './modes.js';

const { Terminal } = xtermHeadless;
type HeadlessTerminal = InstanceType<typeof Terminal>;

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const A1_BIN = path.join(REPO_ROOT, 'bin', 'a1');

/** The argv that runs the a1 client with `args`, as a person would type `a1 ...`. */
export function a1Argv(...args: string[]): string[] {
  return [process.execPath, A1_BIN, ...args];
}

/** The size the issues measure and test at. */
export const DEFAULT_COLS = 120;
export const DEFAULT_ROWS = 40;

export interface PtyDriverOptions {
  /** Program and arguments; default: the a1 client with no arguments. */
  argv?: readonly string[];
  cols?: number;
  rows?: number;
  env?: Record<string, string>;
  cwd?: string;
  /**
   * Emulates a terminal that speaks the kitty keyboard protocol: it keeps the flag stacks per
   * screen (push, pop, set), answers `CSI ? u`, and `key()` sends keys as the flags on the
   * active screen ask. `mainFlags` is pushed on the main screen before the program starts, as
   * the user's shell might have. Off: a legacy terminal, which answers only DA1.
   */
  kittyKeyboard?: { mainFlags?: number };
}

export interface CellInfo {
  chars: string;
  width: number;
  /** Encoded as on the surface wire: -1 default, 0..255 palette, RGB_FLAG | 0xRRGGBB. */
  fg: Color;
  bg: Color;
  bold: boolean;
  dim: boolean;
  italic: boolean;
  underline: boolean;
  inverse: boolean;
  strikethrough: boolean;
  blink: boolean;
  invisible: boolean;
  overline: boolean;
}

export interface PtyExit {
  exitCode: number;
  signal: number | undefined;
}

function colorOf(isDefault: boolean, isRgb: boolean, value: number): Color {
  if (isDefault) return DEFAULT_COLOR;
  return isRgb ? RGB_FLAG | value : value;
}

export class PtyDriver {
  readonly pid: number;
  readonly exited: Promise<PtyExit>;
  private readonly pty: nodePty.IPty;
  private readonly term: HeadlessTerminal;
  private readonly chunks: Buffer[] = [];
  private byteCount = 0;
  private hasExited = false;
  private disposed = false;
  /** The emulated kitty keyboard protocol (opts.kittyKeyboard); null for a legacy terminal. */
  private readonly keyboard: ModeTracker | null;

  constructor(opts: PtyDriverOptions = {}) {
    const [file, ...args] = opts.argv ?? a1Argv();
    if (file === undefined) throw new Error('PtyDriver needs a program to run.');
    const cols = opts.cols ?? DEFAULT_COLS;
    const rows = opts.rows ?? DEFAULT_ROWS;
    this.term = new Terminal({ cols, rows, allowProposedApi: true });
    this.keyboard = opts.kittyKeyboard ? new ModeTracker(this.term, (reply) => this.writeIfRunning(reply)) : null;
    if (opts.kittyKeyboard?.mainFlags !== undefined) this.term.write(`\x1b[>${opts.kittyKeyboard.mainFlags}u`);
    // utf8 (node-pty's default) also sets IUTF8 on the PTY, as a person's modern terminal does;
    // the kept bytes are the UTF-8 encoding of what was decoded, exact for valid UTF-8 output.
    this.pty = nodePty.spawn(file, args, {
      name: 'xterm-256color',
      cols,
      rows,
      cwd: opts.cwd ?? process.cwd(),
      env: opts.env ?? (process.env as Record<string, string>),
    });
    this.pid = this.pty.pid;
    this.pty.onData((data) => {
      const bytes = Buffer.from(data, 'utf8');
      this.chunks.push(bytes);
      this.byteCount += bytes.length;
      if (!this.disposed) this.term.write(data);
    });
    // A real terminal answers queries (cursor position, device attributes); so does this one.
    this.term.onData((reply) => this.writeIfRunning(reply));
    this.term.onBinary((reply) => this.writeIfRunning(Buffer.from(reply, 'latin1')));
    this.exited = new Promise((resolve) => {
      this.pty.onExit(({ exitCode, signal }) => {
        this.hasExited = true;
        resolve({ exitCode, signal });
      });
    });
  }

  write(data: string): void {
    this.pty.write(data);
  }

  /** Sends key events as this terminal encodes them now: legacy bytes, or, with the kitty
   * keyboard emulation on, as the flags the program pushed ask. Call after `flush()` so the
   * program's latest flags are applied. */
  key(...events: InputEvent[]): void {
    const modes = { ...(this.keyboard?.modes ?? LEGACY_MODES), appCursor: this.term.modes.applicationCursorKeysMode };
    this.pty.write(events.map((ev) => encodeInput(ev, this.keyboard ? modes : { ...modes, kittyFlags: 0 })).join(''));
  }

  /** The emulated kitty keyboard stacks of both screens (an error without the emulation). */
  keyboardStacks(): KittyStacks {
    if (!this.keyboard) throw new Error('the kitty keyboard emulation is off (PtyDriverOptions.kittyKeyboard)');
    return this.keyboard.kittyStacks;
  }

  resize(cols: number, rows: number): void {
    this.pty.resize(cols, rows);
    this.term.resize(cols, rows);
  }

  /** Resolves once everything read so far has been parsed into the screen (parsing is async). */
  flush(): Promise<void> {
    return new Promise((resolve) => this.term.write('', resolve));
  }

  get cols(): number {
    return this.term.cols;
  }

  get rows(): number {
    return this.term.rows;
  }

  /** Each screen row as text, trailing blanks trimmed. Call after `flush()` or a wait helper. */
  screenText(): string[] {
    const lines: string[] = [];
    for (let y = 0; y < this.term.rows; y++) lines.push(this.line(y));
    return lines;
  }

  /** Only the columns the terminal has now: a line keeps its cells past the right edge after
   *  the terminal narrows, and those show nowhere (nor count as content to trim up to). */
  line(y: number): string {
    const line = this.bufferLine(y);
    if (!line) return '';
    let end = Math.min(line.length, this.term.cols);
    for (let cell = line.getCell(end - 1); end > 0 && cell?.getChars() === '' && cell.getWidth() === 1; cell = line.getCell(end - 1)) end--;
    return line.translateToString(false, 0, end);
  }

  cell(x: number, y: number): CellInfo {
    const cell: IBufferCell | undefined = this.bufferLine(y)?.getCell(x);
    if (cell === undefined) throw new RangeError(`no cell at ${x},${y} on a ${this.term.cols}x${this.term.rows} screen`);
    return {
      chars: cell.getChars(),
      width: cell.getWidth(),
      fg: colorOf(cell.isFgDefault(), cell.isFgRGB(), cell.getFgColor()),
      bg: colorOf(cell.isBgDefault(), cell.isBgRGB(), cell.getBgColor()),
      bold: cell.isBold() !== 0,
      dim: cell.isDim() !== 0,
      italic: cell.isItalic() !== 0,
      underline: cell.isUnderline() !== 0,
      inverse: cell.isInverse() !== 0,
      strikethrough: cell.isStrikethrough() !== 0,
      blink: cell.isBlink() !== 0,
      invisible: cell.isInvisible() !== 0,
      overline: cell.isOverline() !== 0,
    };
  }

  cursor(): { x: number; y: number } {
    const buffer = this.term.buffer.active;
    return { x: buffer.cursorX, y: buffer.cursorY };
  }

  /** Which buffer the program has selected: 'alternate' while a full-screen program runs. */
  bufferType(): 'normal' | 'alternate' {
    return this.term.buffer.active.type;
  }

  /** A position in the output byte stream, for `bytesSince`/`rawOutput`. */
  mark(): number {
    return this.byteCount;
  }

  /** The exact output bytes since `mark` (a value from `mark()`). */
  bytesSince(mark: number): Buffer {
    return Buffer.concat(this.chunks).subarray(mark);
  }

  /** All output since `mark` (default: since the start), decoded as UTF-8. */
  rawOutput(mark = 0): string {
    return this.bytesSince(mark).toString('utf8');
  }

  /** Waits until some screen row contains `text` (or matches the regex); resolves with the screen. */
  waitForText(text: string | RegExp, timeoutMs = DEFAULT_WAIT_TIMEOUT_MS): Promise<string[]> {
    const found = (line: string) => (typeof text === 'string' ? line.includes(text) : text.test(line));
    return this.waitForScreen((lines) => lines.some(found), timeoutMs, `screen text ${String(text)}`);
  }

  /** Waits until `pred` holds for the parsed screen; resolves with the screen it held for. */
  async waitForScreen(
    pred: (lines: string[]) => boolean,
    timeoutMs = DEFAULT_WAIT_TIMEOUT_MS,
    what = 'screen condition',
  ): Promise<string[]> {
    let lines: string[] = [];
    try {
      return await waitFor(
        async () => {
          await this.flush();
          lines = this.screenText();
          return pred(lines) ? lines : undefined;
        },
        { timeoutMs, what },
      );
    } catch (error) {
      if (!(error instanceof WaitTimeoutError)) throw error;
      // The whole screen, one row per line, says more than the one-line summary waitFor gives.
      throw new WaitTimeoutError(`timed out after ${timeoutMs} ms waiting for ${what}; screen:\n${lines.join('\n')}`, lines);
    }
  }

  kill(signal: string = 'SIGHUP'): void {
    if (!this.hasExited) this.pty.kill(signal);
  }

  /** Ends the program if it still runs and releases the PTY and the model; idempotent. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (!this.hasExited) {
      try {
        process.kill(this.pid, 'SIGKILL');
      } catch {
        // It exited between the check and the signal.
      }
    }
    this.keyboard?.dispose();
    this.term.dispose();
  }

  private bufferLine(y: number) {
    const buffer = this.term.buffer.active;
    return buffer.getLine(buffer.baseY + y);
  }

  private writeIfRunning(data: string | Buffer): void {
    if (!this.hasExited && !this.disposed) this.pty.write(data);
  }
}
