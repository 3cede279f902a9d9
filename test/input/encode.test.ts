import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import xterm from '@xterm/headless';
import type { InputEvent, KeyName, Mods, MouseButton } from '../../src/input/events.js';
import { encodeInput, encodeMouseForChild, isBinaryInput } from '../../src/input/encode.js';
import { tokenToEvents } from '../../src/input/parse.js';
import { ESC_TIMEOUT_MS, InputTokenizer } from '../../src/input/tokenizer.js';
import type { Modes } from '../../src/surface/types.js';
import { LEGACY_MODES as NORMAL } from '../helpers/modes.js';

const APP: Modes = { ...NORMAL, appCursor: true };

const text = (s: string, mods?: Mods): InputEvent => (mods ? { k: 'text', s, mods } : { k: 'text', s });
const key = (name: KeyName, mods?: Mods): InputEvent => (mods ? { k: 'key', key: name, mods } : { k: 'key', key: name });
type MouseEvent = Extract<InputEvent, { k: 'mouse' }>;
const mouse = (action: MouseEvent['action'], button: MouseButton, x: number, y: number, mods?: Mods): MouseEvent =>
  (mods ? { k: 'mouse', action, button, x, y, mods } : { k: 'mouse', action, button, x, y });

describe('encodeInput: text', () => {
  const cases: [string, InputEvent, string][] = [
    ['plain', text('héllo 中'), 'héllo 中'],
    ['alt+a', text('a', { alt: true }), '\x1ba'],
    ['alt+.', text('.', { alt: true }), '\x1b.'],
    ['ctrl+c', text('c', { ctrl: true }), '\x03'],
    ['ctrl+C', text('C', { ctrl: true }), '\x03'],
    ['ctrl+alt+c', text('c', { ctrl: true, alt: true }), '\x1b\x03'],
    ['ctrl+space', text(' ', { ctrl: true }), '\x00'],
    ['ctrl+@', text('@', { ctrl: true }), '\x00'],
    ['ctrl+2', text('2', { ctrl: true }), '\x00'],
    ['ctrl+[', text('[', { ctrl: true }), '\x1b'],
    ['ctrl+\\', text('\\', { ctrl: true }), '\x1c'],
    ['ctrl+]', text(']', { ctrl: true }), '\x1d'],
    ['ctrl+^', text('^', { ctrl: true }), '\x1e'],
    ['ctrl+_', text('_', { ctrl: true }), '\x1f'],
    ['ctrl+/', text('/', { ctrl: true }), '\x1f'],
    ['ctrl+?', text('?', { ctrl: true }), '\x7f'],
    ['ctrl with a character without a control', text('é', { ctrl: true }), 'é'],
    ['shift and meta add nothing to text', text('A', { shift: true, meta: true }), 'A'],
  ];
  it.each(cases)('%s', (_n, ev, expected) => expect(encodeInput(ev, NORMAL)).toBe(expected));
});

describe('encodeInput: keys', () => {
  const cases: [string, InputEvent, Modes, string][] = [
    ['enter', key('enter'), NORMAL, '\r'],
    ['alt+enter', key('enter', { alt: true }), NORMAL, '\x1b\r'],
    ['tab', key('tab'), NORMAL, '\t'],
    ['shift+tab', key('tab', { shift: true }), NORMAL, '\x1b[Z'],
    ['backspace', key('backspace'), NORMAL, '\x7f'],
    ['ctrl+backspace', key('backspace', { ctrl: true }), NORMAL, '\b'],
    ['alt+backspace', key('backspace', { alt: true }), NORMAL, '\x1b\x7f'],
    ['escape', key('escape'), NORMAL, '\x1b'],
    ['alt+escape', key('escape', { alt: true }), NORMAL, '\x1b\x1b'],
    ['space', key('space'), NORMAL, ' '],
    ['ctrl+space', key('space', { ctrl: true }), NORMAL, '\x00'],
    ['up', key('up'), NORMAL, '\x1b[A'],
    ['down', key('down'), NORMAL, '\x1b[B'],
    ['right', key('right'), NORMAL, '\x1b[C'],
    ['left', key('left'), NORMAL, '\x1b[D'],
    ['up, application cursor', key('up'), APP, '\x1bOA'],
    ['left, application cursor', key('left'), APP, '\x1bOD'],
    ['ctrl+up', key('up', { ctrl: true }), NORMAL, '\x1b[1;5A'],
    ['ctrl+up, application cursor still CSI', key('up', { ctrl: true }), APP, '\x1b[1;5A'],
    ['shift+right', key('right', { shift: true }), NORMAL, '\x1b[1;2C'],
    ['alt+left', key('left', { alt: true }), NORMAL, '\x1b[1;3D'],
    ['ctrl+shift+alt+meta+down', key('down', { ctrl: true, shift: true, alt: true, meta: true }), NORMAL, '\x1b[1;16B'],
    ['home', key('home'), NORMAL, '\x1b[H'],
    ['end', key('end'), NORMAL, '\x1b[F'],
    ['home, application cursor', key('home'), APP, '\x1bOH'],
    ['end, application cursor', key('end'), APP, '\x1bOF'],
    ['ctrl+end', key('end', { ctrl: true }), APP, '\x1b[1;5F'],
    ['insert', key('insert'), NORMAL, '\x1b[2~'],
    ['delete', key('delete'), NORMAL, '\x1b[3~'],
    ['page up', key('pageup'), NORMAL, '\x1b[5~'],
    ['page down', key('pagedown'), APP, '\x1b[6~'],
    ['shift+delete', key('delete', { shift: true }), NORMAL, '\x1b[3;2~'],
    ['ctrl+page down', key('pagedown', { ctrl: true }), NORMAL, '\x1b[6;5~'],
    ['F1', key('f1'), NORMAL, '\x1bOP'],
    ['F2', key('f2'), APP, '\x1bOQ'],
    ['F3', key('f3'), NORMAL, '\x1bOR'],
    ['F4', key('f4'), NORMAL, '\x1bOS'],
    ['shift+F1', key('f1', { shift: true }), NORMAL, '\x1b[1;2P'],
    ['ctrl+F4', key('f4', { ctrl: true }), NORMAL, '\x1b[1;5S'],
    ['F5', key('f5'), NORMAL, '\x1b[15~'],
    ['F6', key('f6'), NORMAL, '\x1b[17~'],
    ['F7', key('f7'), NORMAL, '\x1b[18~'],
    ['F8', key('f8'), NORMAL, '\x1b[19~'],
    ['F9', key('f9'), NORMAL, '\x1b[20~'],
    ['F10', key('f10'), NORMAL, '\x1b[21~'],
    ['F11', key('f11'), NORMAL, '\x1b[23~'],
    ['F12', key('f12'), NORMAL, '\x1b[24~'],
    ['ctrl+F5', key('f5', { ctrl: true }), NORMAL, '\x1b[15;5~'],
    ['alt+F12', key('f12', { alt: true }), NORMAL, '\x1b[24;3~'],
  ];
  it.each(cases)('%s', (_n, ev, modes, expected) => expect(encodeInput(ev, modes)).toBe(expected));
});

describe('encodeInput: paste, focus, raw', () => {
  const BRACKETED: Modes = { ...NORMAL, bracketedPaste: true };
  it('wraps a paste only when the child enabled bracketed paste', () => {
    expect(encodeInput({ k: 'paste', s: 'a\rb' }, NORMAL)).toBe('a\rb');
    expect(encodeInput({ k: 'paste', s: 'a\rb' }, BRACKETED)).toBe('\x1b[200~a\rb\x1b[201~');
  });

  it('removes PASTE_END from the payload so a paste cannot end itself early', () => {
    expect(encodeInput({ k: 'paste', s: 'a\x1b[201~rm -rf ~\r' }, BRACKETED)).toBe('\x1b[200~arm -rf ~\r\x1b[201~');
    // Removing the inner one joins the outer halves into another PASTE_END.
    expect(encodeInput({ k: 'paste', s: 'x\x1b[20\x1b[201~1~y' }, BRACKETED)).toBe('\x1b[200~xy\x1b[201~');
    fc.assert(
      fc.property(fc.array(fc.constantFrom('\x1b', '[', '2', '0', '1', '~', 'a'), { maxLength: 40 }), (parts) => {
        const out = encodeInput({ k: 'paste', s: parts.join('') }, BRACKETED);
        const body = out.slice('\x1b[200~'.length, out.length - '\x1b[201~'.length);
        expect(body.includes('\x1b[201~')).toBe(false);
      }),
    );
  });

  it('reports focus only when the child asked for it', () => {
    expect(encodeInput({ k: 'focus', focused: true }, NORMAL)).toBe('');
    expect(encodeInput({ k: 'focus', focused: true }, { ...NORMAL, focus: true })).toBe('\x1b[I');
    expect(encodeInput({ k: 'focus', focused: false }, { ...NORMAL, focus: true })).toBe('\x1b[O');
  });

  it('passes raw bytes through', () => {
    expect(encodeInput({ k: 'raw', bytes: '\x1b[99~' }, NORMAL)).toBe('\x1b[99~');
  });
});

describe('encodeInput: mouse', () => {
  const m = (mouseMode: Modes['mouse'], mouseEncoding: Modes['mouseEncoding']): Modes => ({ ...NORMAL, mouse: mouseMode, mouseEncoding });
  const cases: [string, MouseEvent, Modes, string][] = [
    ['nothing without mouse reporting', mouse('press', 'left', 0, 0), m('none', 'sgr'), ''],
    ['x10 press', mouse('press', 'left', 4, 2), m('x10', 'sgr'), '\x1b[<0;5;3M'],
    ['x10 drops modifiers', mouse('press', 'right', 4, 2, { ctrl: true }), m('x10', 'sgr'), '\x1b[<2;5;3M'],
    ['x10 no release', mouse('release', 'left', 4, 2), m('x10', 'sgr'), ''],
    ['x10 no wheel', mouse('press', 'wheelUp', 4, 2), m('x10', 'sgr'), ''],
    ['x10 no motion', mouse('move', 'left', 4, 2), m('x10', 'sgr'), ''],
    ['vt200 release, SGR names the button', mouse('release', 'middle', 4, 2), m('vt200', 'sgr'), '\x1b[<1;5;3m'],
    ['vt200 wheel down', mouse('press', 'wheelDown', 4, 2), m('vt200', 'sgr'), '\x1b[<65;5;3M'],
    ['vt200 no drag', mouse('move', 'left', 4, 2), m('vt200', 'sgr'), ''],
    ['drag with a button', mouse('move', 'left', 4, 2, { shift: true }), m('drag', 'sgr'), '\x1b[<36;5;3M'],
    ['drag no bare motion', mouse('move', 'none', 4, 2), m('drag', 'sgr'), ''],
    ['any bare motion', mouse('move', 'none', 4, 2), m('any', 'sgr'), '\x1b[<35;5;3M'],
    ['modifiers', mouse('press', 'left', 0, 0, { shift: true, alt: true, ctrl: true }), m('vt200', 'sgr'), '\x1b[<28;1;1M'],
    ['default press', mouse('press', 'left', 0, 0), m('vt200', 'default'), '\x1b[M !!'],
    ['default release is button 3', mouse('release', 'right', 10, 4), m('vt200', 'default'), '\x1b[M#+%'],
    ['default wheel up', mouse('press', 'wheelUp', 0, 0), m('vt200', 'default'), '\x1b[M`!!'],
    ['default at the 223 limit', mouse('press', 'left', 222, 0), m('vt200', 'default'), '\x1b[M \xff!'],
    ['default beyond the 223 limit', mouse('press', 'left', 223, 0), m('vt200', 'default'), ''],
    ['utf8 beyond 223', mouse('press', 'left', 400, 0), m('vt200', 'utf8'), '\x1b[M \u01b1!'],
    ['utf8 beyond its 2015 limit', mouse('press', 'left', 2015, 0), m('vt200', 'utf8'), ''],
    ['urxvt', mouse('press', 'left', 400, 9), m('vt200', 'urxvt'), '\x1b[32;401;10M'],
    ['urxvt release', mouse('release', 'left', 0, 0), m('vt200', 'urxvt'), '\x1b[35;1;1M'],
    ['negative coordinates', mouse('press', 'left', -1, 0), m('any', 'sgr'), ''],
    ['release of a wheel is nonsense', mouse('release', 'wheelUp', 0, 0), m('any', 'sgr'), ''],
  ];
  it.each(cases)('%s', (_n, ev, modes, expected) => {
    expect(encodeInput(ev, modes)).toBe(expected);
    expect(encodeMouseForChild(ev, modes)).toBe(expected);
  });

  it('marks only the default encoding as binary', () => {
    const ev = mouse('press', 'left', 0, 0);
    expect(isBinaryInput(ev, m('vt200', 'default'))).toBe(true);
    expect(isBinaryInput(ev, m('vt200', 'sgr'))).toBe(false);
    expect(isBinaryInput(text('a'), m('vt200', 'default'))).toBe(false);
  });
});

describe('encodeInput agrees with @xterm/headless mouse reports', () => {
  // xterm.js keeps its mouse encoder in a private service; reaching it here (tests only) checks
  // a1's encoder against the emulator children are written for. Its button/action codes:
  const XTERM_BUTTON: Record<MouseButton, number> = { left: 0, middle: 1, right: 2, none: 3, wheelUp: 4, wheelDown: 4 };
  const XTERM_ACTION = { release: 0, press: 1, move: 32 } as const;
  const PROTOCOL_MODE: Record<Exclude<Modes['mouse'], 'none'>, string> = { x10: '9', vt200: '1000', drag: '1002', any: '1003' };
  const COLS = 300;
  const ROWS = 100;

  function xtermReport(term: xterm.Terminal, ev: MouseEvent, out: string[]): string {
    out.length = 0;
    const wheel = ev.button === 'wheelUp' || ev.button === 'wheelDown';
    (term as any)._core.coreMouseService.triggerMouseEvent({
      col: ev.x, row: ev.y, button: XTERM_BUTTON[ev.button],
      action: wheel ? (ev.button === 'wheelUp' ? 0 : 1) : XTERM_ACTION[ev.action],
      ctrl: !!ev.mods?.ctrl, alt: !!ev.mods?.alt, shift: !!ev.mods?.shift,
    });
    return out.join('');
  }

  const events: MouseEvent[] = [];
  for (const [x, y] of [[0, 0], [9, 4], [150, 50], [250, 99]]) {
    for (const button of ['left', 'middle', 'right'] as const) {
      for (const action of ['press', 'move', 'release'] as const) {
        events.push(mouse(action, button, x, y), mouse(action, button, x, y, { ctrl: true, shift: true }));
      }
    }
    events.push(mouse('press', 'wheelUp', x, y, { alt: true }), mouse('press', 'wheelDown', x, y));
    events.push(mouse('move', 'none', x, y), mouse('move', 'none', x + 1, y));
  }

  for (const protocol of ['x10', 'vt200', 'drag', 'any'] as const) {
    for (const encoding of ['default', 'sgr'] as const) {
      it(`${protocol} / ${encoding}`, async () => {
        const term = new xterm.Terminal({ cols: COLS, rows: ROWS, allowProposedApi: true });
        const out: string[] = [];
        term.onData((d) => out.push(d));
        term.onBinary((d) => out.push(d));
        const setup = `\x1b[?${PROTOCOL_MODE[protocol]}h` + (encoding === 'sgr' ? '\x1b[?1006h' : '');
        await new Promise<void>((resolve) => term.write(setup, resolve));
        const modes: Modes = { ...NORMAL, mouse: protocol, mouseEncoding: encoding };
        let reported = 0;
        for (const ev of events) {
          const expected = xtermReport(term, ev, out);
          expect(encodeInput(ev, modes), JSON.stringify(ev)).toBe(expected);
          if (expected !== '') reported++;
        }
        expect(reported).toBeGreaterThan(0);
        term.dispose();
      });
    }
  }
});

describe('round trip: what a1 encodes, a1 parses back', () => {
  function parse(bytes: string): InputEvent[] {
    const t = new InputTokenizer();
    return [...t.push(bytes, 0), ...t.flush(ESC_TIMEOUT_MS)].flatMap(tokenToEvents);
  }
  const modsArb = fc
    .record({ shift: fc.boolean(), alt: fc.boolean(), ctrl: fc.boolean(), meta: fc.boolean() })
    .map((m): Mods | undefined => {
      const out = Object.fromEntries(Object.entries(m).filter(([, v]) => v)) as Mods;
      return Object.keys(out).length ? out : undefined;
    });
  const sequenceKeys: KeyName[] = [
    'up', 'down', 'left', 'right', 'home', 'end', 'pageup', 'pagedown', 'insert', 'delete',
    'f1', 'f2', 'f3', 'f4', 'f5', 'f6', 'f7', 'f8', 'f9', 'f10', 'f11', 'f12',
  ];

  it('keys sent as sequences keep every modifier (property)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...sequenceKeys), modsArb, fc.boolean(), (name, mods, appCursor) => {
        const ev = key(name, mods);
        expect(parse(encodeInput(ev, { ...NORMAL, appCursor }))).toEqual([ev]);
      }),
    );
  });

  it('SGR mouse reports parse back to the same event (property)', () => {
    const mouseArb = fc.record({
      action: fc.constantFrom('press', 'release', 'move'),
      button: fc.constantFrom('left', 'middle', 'right'),
      x: fc.nat(5000),
      y: fc.nat(5000),
      mods: fc.record({ shift: fc.boolean(), alt: fc.boolean(), ctrl: fc.boolean() }),
    });
    fc.assert(
      fc.property(mouseArb, ({ action, button, x, y, mods }) => {
        const set = Object.fromEntries(Object.entries(mods).filter(([, v]) => v)) as Mods;
        const ev = mouse(action as MouseEvent['action'], button as MouseButton, x, y, Object.keys(set).length ? set : undefined);
        expect(parse(encodeInput(ev, { ...NORMAL, mouse: 'any', mouseEncoding: 'sgr' }))).toEqual([ev]);
      }),
    );
  });

  it.each([
    text('a'), text('a', { alt: true }), text('c', { ctrl: true }), text('c', { ctrl: true, alt: true }),
    key('enter'), key('enter', { alt: true }), key('tab'), key('tab', { shift: true }), key('backspace'),
    key('backspace', { ctrl: true }), key('backspace', { alt: true }), key('escape'), key('escape', { alt: true }),
    key('space', { ctrl: true }), { k: 'paste', s: 'x\ry' } as InputEvent,
  ])('%j', (ev) => {
    expect(parse(encodeInput(ev, { ...NORMAL, bracketedPaste: true }))).toEqual([ev]);
  });
});
