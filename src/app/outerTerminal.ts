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

/**
 * The kitty keyboard protocol's query, then DA1 as a sentinel: a terminal that answers DA1 and
 * not the first does not speak the protocol (the protocol's own detection). Sent on the
 * alternate screen, whose stack is a1's alone.
 */
export const KEYBOARD_QUERY = '\x1b[?u\x1b[c';

/** What a1 asks of a terminal that speaks the protocol: disambiguation (Esc, Alt+key and
 * Ctrl+key each a sequence of its own, so Esc then . is never Alt+.), event types (a child that
 * asks for releases gets them) and alternate keys (the shifted key, whatever the layout). */
export const A1_KEYBOARD_FLAGS = 1 | 2 | 4;

/** A reply to KEYBOARD_QUERY: the protocol's flags, or DA1 (the sentinel). */
export type KeyboardReply = { k: 'kitty'; flags: number } | { k: 'da1' };

export function keyboardReply(raw: string): KeyboardReply | null {
  const kitty = /^\x1b\[\?(\d*)u$/.exec(raw);
  if (kitty) return { k: 'kitty', flags: Number(kitty[1] || 0) };
  return /^\x1b\[\?[\d;]*c$/.test(raw) ? { k: 'da1' } : null;
}

export class OuterTerminal {
  private entered = false;
  /** a1 pushed its keyboard flags onto the alternate screen's stack: popped before leaving it. */
  private keyboardPushed = false;

  constructor(
    private readonly stdin: NodeJS.ReadStream,
    private readonly stdout: NodeJS.WriteStream,
  ) {}

  enter(): void {
    if (this.entered) return;
    this.entered = true;
    if (this.stdin.isTTY) this.stdin.setRawMode(true);
    this.stdout.write(ENTER_SEQUENCE + KEYBOARD_QUERY);
  }

  /** The terminal answered the keyboard query: it speaks the kitty protocol. */
  enhanceKeyboard(): void {
    if (!this.entered || this.keyboardPushed) return;
    this.keyboardPushed = true;
    this.stdout.write(`\x1b[>${A1_KEYBOARD_FLAGS}u`);
  }

  /** Idempotent; synchronous so it also works from exit and signal handlers. */
  restore(): void {
    if (!this.entered) return;
    this.entered = false;
    // Popped on the alternate screen, where it was pushed; leaving that screen then brings back
    // the main screen's own flags, which a1 never touched.
    writeSync(this.stdout, (this.keyboardPushed ? '\x1b[<u' : '') + RESTORE_SEQUENCE);
    this.keyboardPushed = false;
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

/**
 * Why a1 refuses to draw on this terminal, or null when it can: a1 needs the cursor moves, the
 * alternate screen and the clears that `TERM=dumb` says the terminal lacks (tmux refuses it
 * too). An unset or empty TERM names no terminal at all, so nothing says what it can do either.
 */
export function unsuitableTerminal(env: NodeJS.ProcessEnv): string | null {
  const term = env.TERM ?? '';
  if (term === 'dumb') return 'this terminal (TERM=dumb) cannot clear or move the cursor, which a1 needs.';
  if (term === '') return 'TERM is not set, so a1 cannot tell what this terminal can draw.';
  return null;
}

/** a1's own UI draws in colour unless NO_COLOR is present and non-empty (https://no-color.org).
 *  It is about a1's strip, overlays and notices only: a tab's program output is its own. */
export function uiColour(env: NodeJS.ProcessEnv): boolean {
  return !env.NO_COLOR;
}

/** `TERM` families whose terminals draw underline styles (`4:N`) and colours (`58`), with tmux,
 *  which passes them on to its own terminal when that draws them and a plain underline when not. */
const STYLED_UNDERLINE_TERMS = /^(xterm-kitty|xterm-ghostty|wezterm|foot|alacritty|contour|mintty|tmux)(-|$)/;
/** `TERM_PROGRAM` values of terminals that draw them (VS Code's is xterm.js). */
const STYLED_UNDERLINE_PROGRAMS = new Set(['WezTerm', 'ghostty', 'iTerm.app', 'vscode', 'mintty', 'tmux']);
/** VTE draws them from 0.51.2 (GNOME Terminal and its kin). */
const VTE_STYLED_UNDERLINES = 5102;

/**
 * Whether the outer terminal draws underline styles and colours, as tmux asks terminfo's `Smulx`
 * and `Setulc`: known from the terminal's family. Unknown terminals get a plain underline in the
 * text's colour, which every terminal draws, instead of a sequence it might misread.
 */
export function styledUnderlines(env: NodeJS.ProcessEnv): boolean {
  if (env.TMUX) return true;
  if (STYLED_UNDERLINE_TERMS.test(env.TERM ?? '')) return true;
  if (STYLED_UNDERLINE_PROGRAMS.has(env.TERM_PROGRAM ?? '')) return true;
  return Number(env.VTE_VERSION) >= VTE_STYLED_UNDERLINES;
}
