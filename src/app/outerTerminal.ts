// The outer terminal's modes (SPEC §8): what the client turns on, and how every change is
// undone in reverse order on exit, on signals and on crashes.

/** Entered in this order; left in exactly the reverse order. */
const MODES: ReadonlyArray<{ on: string; off: string }> = [
  { on: '\x1b[?1049h', off: '\x1b[?1049l' }, // alternate screen
  { on: '\x1b[?1000h', off: '\x1b[?1000l' }, // mouse clicks
  { on: '\x1b[?1002h', off: '\x1b[?1002l' }, // mouse drags
  { on: '\x1b[?1003h', off: '\x1b[?1003l' }, // all motion: hovering a chip highlights it
  { on: '\x1b[?1006h', off: '\x1b[?1006l' }, // SGR mouse encoding
  { on: '\x1b[?2004h', off: '\x1b[?2004l' }, // bracketed paste
  { on: '\x1b[?1004h', off: '\x1b[?1004l' }, // focus reports
];

export const ENTER_SEQUENCE = MODES.map((m) => m.on).join('') + '\x1b[H\x1b[2J';

/** Also resets what the compositor may have set inside: attributes, cursor shape and
 * visibility, synchronized output. Safe to send to a terminal in any state, so a client
 * restores a terminal left dirty by a killed predecessor too. */
export const RESTORE_SEQUENCE =
  '\x1b[?2026l\x1b[0m\x1b[0 q\x1b[?25h' +
  [...MODES]
    .reverse()
    .map((m) => m.off)
    .join('') +
  '\x1b[?1005l\x1b[?1015l';

export class OuterTerminal {
  private entered = false;

  constructor(
    private readonly stdin: NodeJS.ReadStream,
    private readonly stdout: NodeJS.WriteStream,
  ) {}

  enter(): void {
    if (this.entered) return;
    this.entered = true;
    if (this.stdin.isTTY) this.stdin.setRawMode(true);
    this.stdout.write(ENTER_SEQUENCE);
  }

  /** Idempotent; synchronous so it also works from exit and signal handlers. */
  restore(): void {
    if (!this.entered) return;
    this.entered = false;
    writeSync(this.stdout, RESTORE_SEQUENCE);
    try {
      if (this.stdin.isTTY) this.stdin.setRawMode(false);
    } catch {
      // The terminal is gone; nothing to restore.
    }
  }
}

export function writeSync(stdout: NodeJS.WriteStream, text: string): void {
  try {
    // fd writes bypass the stream's buffer, so nothing queued is lost at exit.
    (stdout as unknown as { _handle?: { setBlocking?: (b: boolean) => void } })._handle?.setBlocking?.(true);
    stdout.write(text);
  } catch {
    // The terminal is gone.
  }
}
