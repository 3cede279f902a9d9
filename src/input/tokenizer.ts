// Client side: the outer terminal's raw input bytes -> tokens that keep their raw text.
// A pure state machine; the caller owns the clock and calls flush() when pendingTimeoutMs says.

export type TokenKind =
  /** A run of printable characters. */
  | 'text'
  /** One C0 control character, DEL, or C1 control character. */
  | 'control'
  /** ESC followed by one character (Alt+x), ESC ESC (Alt+Escape), or a lone ESC. */
  | 'esc'
  /** A control sequence, possibly prefixed by an extra ESC (Alt), including mouse reports. */
  | 'csi'
  /** ESC O followed by optional parameters and a final character, possibly Alt-prefixed. */
  | 'ss3'
  /** CSI I (focus in) or CSI O (focus out). */
  | 'focus'
  /** ESC[200~ ... ESC[201~ as one token, content unparsed. */
  | 'paste'
  | 'osc'
  | 'dcs'
  /** A malformed or truncated sequence. */
  | 'unknown';

export interface Token {
  kind: TokenKind;
  raw: string;
}

/**
 * How long an ESC (or ESC [, ESC O, ESC ], ESC P, ESC ESC, or a partial sequence) waits for
 * the rest before it counts as a key of its own, by default (the `escapeTimeoutMs` setting). A
 * terminal writes a whole sequence at once, so its bytes arrive within a millisecond or two even
 * over ssh, while nobody presses Esc and a second key within 30 ms; a longer wait makes Esc feel
 * sluggish in editors. Only a terminal without the kitty keyboard protocol makes this a guess:
 * with it, the Esc key is a sequence of its own.
 */
export const ESC_TIMEOUT_MS = 30;

/**
 * Longest OSC/DCS string held while waiting for its terminator. The outer terminal only sends
 * short replies (colours, versions, capabilities); anything longer is garbage and is dropped
 * rather than held, so an unterminated string cannot grow memory without bound.
 */
export const MAX_STRING_LENGTH = 64 * 1024;

/**
 * Longest control sequence. Keys, SGR mouse reports and kitty key reports are well under this;
 * a longer one is garbage and is cut off as an `unknown` token.
 */
export const MAX_SEQUENCE_LENGTH = 256;

export const PASTE_START = '\x1b[200~';
export const PASTE_END = '\x1b[201~';

const ESC = '\x1b';
const BEL = '\x07';
/** What ends an OSC/DCS string: BEL, or ESC (the terminator ST is ESC followed by a backslash). */
const STRING_STOP = /[\x07\x1b]/;
/** Characters a legacy mouse report (CSI M b x y) carries after the M. */
const LEGACY_MOUSE_ARGS = 3;

type StringKind = 'osc' | 'dcs';

/** One scanning step in ground state; null means the buffer ends inside a sequence. */
type Step =
  | { type: 'token'; token: Token; end: number }
  | { type: 'string'; kind: StringKind; end: number };

interface PendingString {
  kind: StringKind;
  parts: string[];
  length: number;
  /** The string outgrew MAX_STRING_LENGTH: its content is dropped until the terminator. */
  overflow: boolean;
  /** The last character seen was ESC: the next decides between ST (ESC \) and a new sequence. */
  sawEsc: boolean;
}

interface PendingPaste {
  parts: string[];
  /** The last few characters, held back because they may begin PASTE_END. */
  tail: string;
}

export class InputTokenizer {
  private readonly decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  /** Ground state: the start of a sequence that is not complete yet. */
  private pending = '';
  private str: PendingString | null = null;
  private paste: PendingPaste | null = null;
  private lastInputMs = 0;
  private lastCallMs = 0;

  constructor(private readonly escTimeoutMs = ESC_TIMEOUT_MS) {}

  push(chunk: Buffer | string, nowMs: number): Token[] {
    this.lastInputMs = nowMs;
    this.lastCallMs = nowMs;
    const text = typeof chunk === 'string'
      ? this.decoder.decode() + chunk
      : this.decoder.decode(chunk, { stream: true });
    return this.run(text, false);
  }

  /** Resolves what waits on the ESC timeout, once it has passed without input. */
  flush(nowMs: number): Token[] {
    this.lastCallMs = nowMs;
    if (!this.waitsOnTimeout() || nowMs - this.lastInputMs < this.escTimeoutMs) return [];
    return this.run('', true);
  }

  /**
   * Milliseconds after the latest push/flush time at which flush() should be called, or null
   * when nothing waits on a timeout (an unfinished paste or OSC/DCS string waits for its end).
   */
  get pendingTimeoutMs(): number | null {
    if (!this.waitsOnTimeout()) return null;
    return Math.max(0, this.lastInputMs + this.escTimeoutMs - this.lastCallMs);
  }

  private waitsOnTimeout(): boolean {
    if (this.str) return this.str.sawEsc;
    return !this.paste && this.pending !== '';
  }

  /** `final`: no more input is coming soon, so incomplete sequences resolve as they stand. */
  private run(text: string, final: boolean): Token[] {
    const out: Token[] = [];
    let rest = text;
    for (;;) {
      if (this.paste) {
        rest = this.feedPaste(rest, out);
        if (this.paste) return out;
        continue;
      }
      if (this.str) {
        rest = this.feedString(rest, out, final);
        if (this.str) return out;
        continue;
      }
      const buf = this.pending + rest;
      this.pending = '';
      rest = '';
      let i = 0;
      while (i < buf.length) {
        const step = scan(buf, i, final);
        if (step === null) {
          this.pending = buf.slice(i);
          return out;
        }
        if (step.type === 'string') {
          const intro = buf.slice(i, step.end);
          this.str = { kind: step.kind, parts: [intro], length: intro.length, overflow: false, sawEsc: false };
          rest = buf.slice(step.end);
          break;
        }
        if (step.token.raw === PASTE_START) {
          this.paste = { parts: [], tail: '' };
          rest = buf.slice(step.end);
          break;
        }
        out.push(step.token);
        i = step.end;
      }
      if (!this.paste && !this.str) return out;
    }
  }

  /** Consumes paste content; returns what follows PASTE_END, or '' while the paste goes on. */
  private feedPaste(text: string, out: Token[]): string {
    const paste = this.paste!;
    const hay = paste.tail + text;
    const at = hay.indexOf(PASTE_END);
    if (at >= 0) {
      paste.parts.push(hay.slice(0, at));
      out.push({ kind: 'paste', raw: PASTE_START + paste.parts.join('') + PASTE_END });
      this.paste = null;
      return hay.slice(at + PASTE_END.length);
    }
    const keep = Math.max(0, hay.length - (PASTE_END.length - 1));
    paste.parts.push(hay.slice(0, keep));
    paste.tail = hay.slice(keep);
    return '';
  }

  /**
   * Consumes OSC/DCS content up to BEL or ESC. ESC \ is the terminator; any other ESC ends the
   * string too (as in xterm's parser) and starts a new sequence, so a stray introducer cannot
   * swallow the keys that follow it. Returns what follows the string.
   */
  private feedString(text: string, out: Token[], final: boolean): string {
    const str = this.str!;
    if (str.sawEsc) {
      if (text === '' && !final) return '';
      str.sawEsc = false;
      if (text[0] === '\\') return this.endString(out, ESC + '\\', text.slice(1));
      return this.endString(out, '', ESC + text);
    }
    const j = text.search(STRING_STOP);
    if (j < 0) {
      this.addToString(text);
      return '';
    }
    this.addToString(text.slice(0, j));
    if (text[j] === BEL) return this.endString(out, BEL, text.slice(j + 1));
    if (j + 1 === text.length) {
      str.sawEsc = true;
      return '';
    }
    if (text[j + 1] === '\\') return this.endString(out, ESC + '\\', text.slice(j + 2));
    return this.endString(out, '', text.slice(j));
  }

  private addToString(s: string): void {
    const str = this.str!;
    if (str.overflow || s === '') return;
    str.length += s.length;
    if (str.length > MAX_STRING_LENGTH) {
      str.overflow = true;
      str.parts = [];
      return;
    }
    str.parts.push(s);
  }

  private endString(out: Token[], terminator: string, rest: string): string {
    const str = this.str!;
    if (!str.overflow) out.push({ kind: str.kind, raw: str.parts.join('') + terminator });
    this.str = null;
    return rest;
  }
}

function isControl(code: number): boolean {
  return code < 0x20 || code === 0x7f || (code >= 0x80 && code < 0xa0);
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** Length in UTF-16 units of the code point at i, or 0 when the buffer ends inside a pair. */
function codePointLength(buf: string, i: number, final: boolean): number {
  if (!isHighSurrogate(buf.charCodeAt(i))) return 1;
  if (i + 1 < buf.length) return 2;
  return final ? 1 : 0;
}

function token(kind: TokenKind, buf: string, start: number, end: number): Step {
  return { type: 'token', token: { kind, raw: buf.slice(start, end) }, end };
}

function scan(buf: string, i: number, final: boolean): Step | null {
  const code = buf.charCodeAt(i);
  if (code === 0x1b) return scanEscape(buf, i, final);
  if (isControl(code)) return token('control', buf, i, i + 1);
  let j = i;
  while (j < buf.length) {
    const c = buf.charCodeAt(j);
    if (isControl(c)) break;
    if (isHighSurrogate(c) && j + 1 === buf.length && !final) break;
    j++;
  }
  return j === i ? null : token('text', buf, i, j);
}

function scanEscape(buf: string, i: number, final: boolean): Step | null {
  if (i + 1 >= buf.length) return final ? token('esc', buf, i, i + 1) : null;
  const next = buf[i + 1];
  if (next === '[') return scanCsi(buf, i, i + 2, final);
  if (next === 'O') return scanSs3(buf, i, i + 2, final);
  if (next === ']' || next === 'P') {
    if (i + 2 >= buf.length) return final ? token('esc', buf, i, i + 2) : null;
    // A reply's content starts with a printable character; anything else means Alt+] / Alt+P.
    if (isControl(buf.charCodeAt(i + 2))) return token('esc', buf, i, i + 2);
    return { type: 'string', kind: next === ']' ? 'osc' : 'dcs', end: i + 2 };
  }
  if (next === ESC) {
    if (i + 2 >= buf.length) return final ? token('esc', buf, i, i + 2) : null;
    if (buf[i + 2] === '[') return scanCsi(buf, i, i + 3, final);
    if (buf[i + 2] === 'O') return scanSs3(buf, i, i + 3, final);
    return token('esc', buf, i, i + 2);
  }
  const len = codePointLength(buf, i + 1, final);
  return len === 0 ? null : token('esc', buf, i, i + 1 + len);
}

/** The sequence ends before it is complete: wait, or when final, resolve what is there. */
function incomplete(buf: string, start: number, bodyStart: number, final: boolean): Step | null {
  if (!final) return null;
  // ESC [ or ESC O alone is Alt+[ / Alt+O.
  const bare = bodyStart === start + 2 && buf.length === bodyStart;
  return token(bare ? 'esc' : 'unknown', buf, start, buf.length);
}

/**
 * CSI: parameter and intermediate bytes (0x20-0x3f) then a final byte (0x40-0x7e). `start` is
 * the first ESC, `p` the index after '['.
 */
function scanCsi(buf: string, start: number, p: number, final: boolean): Step | null {
  if (p < buf.length && buf[p] === 'M') return scanLegacyMouse(buf, start, p + 1, final);
  for (let j = p; ; j++) {
    if (j - start >= MAX_SEQUENCE_LENGTH) return token('unknown', buf, start, j);
    if (j >= buf.length) return incomplete(buf, start, p, final);
    const c = buf.charCodeAt(j);
    if (c >= 0x20 && c <= 0x3f) continue;
    if (c >= 0x40 && c <= 0x7e) {
      const raw = buf.slice(start, j + 1);
      const kind = raw === '\x1b[I' || raw === '\x1b[O' ? 'focus' : 'csi';
      return { type: 'token', token: { kind, raw }, end: j + 1 };
    }
    // Not a control sequence after all: nothing after '[' means Alt+[.
    if (j === p && p === start + 2) return token('esc', buf, start, p);
    return token('unknown', buf, start, j);
  }
}

/** CSI M b x y: three characters (bytes, or UTF-8 characters in mode 1005) after the M. */
function scanLegacyMouse(buf: string, start: number, p: number, final: boolean): Step | null {
  let j = p;
  for (let n = 0; n < LEGACY_MOUSE_ARGS; n++) {
    if (j >= buf.length) return incomplete(buf, start, -1, final);
    const len = codePointLength(buf, j, final);
    if (len === 0) return incomplete(buf, start, -1, final);
    j += len;
  }
  return token('csi', buf, start, j);
}

/** SS3: ESC O, optional modifier parameters, then a final character. */
function scanSs3(buf: string, start: number, p: number, final: boolean): Step | null {
  for (let j = p; ; j++) {
    if (j - start >= MAX_SEQUENCE_LENGTH) return token('unknown', buf, start, j);
    if (j >= buf.length) return incomplete(buf, start, p, final);
    const c = buf.charCodeAt(j);
    if (c >= 0x30 && c <= 0x3f) continue;
    if (c >= 0x40 && c <= 0x7e) return token('ss3', buf, start, j + 1);
    // ESC O followed by something else was Alt+O (Alt+Shift+o).
    if (j === p && p === start + 2) return token('esc', buf, start, p);
    return token('unknown', buf, start, j);
  }
}
