// What the child has asked of its terminal beyond the cells: input-relevant modes, cursor
// visibility and style, and the title. `@xterm/headless` applies all of these but exposes only
// some publicly, so the rest is observed with parser handlers that return false (xterm still
// applies the sequence itself; we only watch it go by).
import type { IDisposable, Terminal } from '@xterm/headless';
import type { CursorShape, Modes } from './types.js';
import { NO_KITTY_FLAGS, applyKittyOp, currentFlags, kittyFlagsReport, kittyOpOf, type KittyStacks, type Screen } from '../input/kittyFlags.js';

type Params = (number | number[])[];

/** DEC private modes watched here (the rest are read from `term.modes`). */
const DECTCEM = 25; // cursor visible
const CURSOR_BLINK = 12; // att610: blinking cursor
const MOUSE_UTF8 = 1005;
const MOUSE_SGR = 1006;
const MOUSE_URXVT = 1015;

const MOUSE_ENCODING: ReadonlyMap<number, Modes['mouseEncoding']> = new Map([
  [MOUSE_UTF8, 'utf8'],
  [MOUSE_SGR, 'sgr'],
  [MOUSE_URXVT, 'urxvt'],
]);

/** DECSCUSR `CSI Ps SP q`: Ps 1..6 → shape and blink (odd values blink). */
const DECSCUSR: ReadonlyArray<{ shape: CursorShape; blink: boolean } | undefined> = [
  undefined, // 0: the terminal's own default
  { shape: 'block', blink: true },
  { shape: 'block', blink: false },
  { shape: 'underline', blink: true },
  { shape: 'underline', blink: false },
  { shape: 'bar', blink: true },
  { shape: 'bar', blink: false },
];

interface CursorStyle {
  visible: boolean;
  shape: CursorShape;
  blink: boolean;
  defaultStyle: boolean;
}

const INITIAL_CURSOR: Readonly<CursorStyle> = { visible: true, shape: 'block', blink: false, defaultStyle: true };

export class ModeTracker implements IDisposable {
  private readonly disposables: IDisposable[];
  private mouseEncoding: Modes['mouseEncoding'] = 'default';
  private cursor: CursorStyle = { ...INITIAL_CURSOR };
  private titleText = '';
  /** The kitty keyboard protocol's flags, one stack per screen. xterm.js ignores the protocol's
   * sequences; they are kept (and the query answered) here. */
  private kitty: KittyStacks = NO_KITTY_FLAGS;

  /** `reply` writes an answer to the child, in order with xterm's own answers (DA, DSR). */
  constructor(private readonly term: Terminal, private readonly reply: (data: string) => void = () => {}) {
    const parser = term.parser;
    this.disposables = [
      parser.registerCsiHandler({ prefix: '>', final: 'u' }, (p) => this.kittyOp('>', p)),
      parser.registerCsiHandler({ prefix: '<', final: 'u' }, (p) => this.kittyOp('<', p)),
      parser.registerCsiHandler({ prefix: '=', final: 'u' }, (p) => this.kittyOp('=', p)),
      parser.registerCsiHandler({ prefix: '?', final: 'u' }, () => {
        this.reply(kittyFlagsReport(currentFlags(this.kitty, this.screen())));
        return true;
      }),
      parser.registerCsiHandler({ prefix: '?', final: 'h' }, (p) => this.decPrivate(p, true)),
      parser.registerCsiHandler({ prefix: '?', final: 'l' }, (p) => this.decPrivate(p, false)),
      parser.registerCsiHandler({ intermediates: ' ', final: 'q' }, (p) => this.cursorStyle(p)),
      // DECSTR (soft reset) restores the cursor; mouse reporting survives it, as in xterm.
      parser.registerCsiHandler({ intermediates: '!', final: 'p' }, () => {
        this.cursor = { ...INITIAL_CURSOR };
        return false;
      }),
      // RIS (full reset) restores everything tracked here except the title, as xterm.js does.
      parser.registerEscHandler({ final: 'c' }, () => {
        this.cursor = { ...INITIAL_CURSOR };
        this.mouseEncoding = 'default';
        this.kitty = NO_KITTY_FLAGS;
        return false;
      }),
      term.onTitleChange((title) => {
        this.titleText = title;
      }),
    ];
  }

  get modes(): Modes {
    const m = this.term.modes;
    return {
      appCursor: m.applicationCursorKeysMode,
      appKeypad: m.applicationKeypadMode,
      bracketedPaste: m.bracketedPasteMode,
      mouse: m.mouseTrackingMode,
      mouseEncoding: this.mouseEncoding,
      focus: m.sendFocusMode,
      altScreen: this.term.buffer.active.type === 'alternate',
      kittyFlags: currentFlags(this.kitty, this.screen()),
    };
  }

  /** Both screens' kitty keyboard stacks, bottom to top. */
  get kittyStacks(): KittyStacks {
    return this.kitty;
  }

  private screen(): Screen {
    return this.term.buffer.active.type === 'alternate' ? 'alternate' : 'main';
  }

  private kittyOp(marker: '>' | '<' | '=', params: Params): boolean {
    const numbers = params.map((p) => (typeof p === 'number' ? p : p[0] ?? 0));
    this.kitty = applyKittyOp(this.kitty, this.screen(), kittyOpOf(marker, numbers));
    return true;
  }

  get cursorVisible(): boolean {
    return this.cursor.visible;
  }

  get cursorShape(): CursorShape {
    return this.cursor.shape;
  }

  get cursorBlink(): boolean {
    return this.cursor.blink;
  }

  /** True while the child has not chosen a cursor style. */
  get cursorDefaultStyle(): boolean {
    return this.cursor.defaultStyle;
  }

  get title(): string {
    return this.titleText;
  }

  /** Idempotent. */
  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
  }

  private decPrivate(params: Params, set: boolean): boolean {
    for (const p of params) {
      if (typeof p !== 'number') continue;
      if (p === DECTCEM) {
        this.cursor.visible = set;
      } else if (p === CURSOR_BLINK) {
        this.cursor.blink = set;
      } else {
        const encoding = MOUSE_ENCODING.get(p);
        // The encodings are mutually exclusive; as in xterm, a reset only undoes its own mode.
        if (encoding !== undefined) {
          if (set) this.mouseEncoding = encoding;
          else if (this.mouseEncoding === encoding) this.mouseEncoding = 'default';
        }
      }
    }
    return false;
  }

  private cursorStyle(params: Params): boolean {
    const ps = typeof params[0] === 'number' ? params[0] : 0;
    if (ps === 0) {
      this.cursor = { ...INITIAL_CURSOR, visible: this.cursor.visible };
    } else {
      const style = DECSCUSR[ps];
      if (style) this.cursor = { ...this.cursor, ...style, defaultStyle: false };
    }
    return false;
  }
}
