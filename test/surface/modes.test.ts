import { afterEach, describe, expect, it } from 'vitest';
import { ModeTracker } from '../../src/surface/modes.js';
import { makeTerminal, write, type XTerm } from './headless.js';

const open: Array<{ term: XTerm; tracker: ModeTracker }> = [];

function setup(): { term: XTerm; tracker: ModeTracker } {
  const term = makeTerminal(20, 5);
  const tracker = new ModeTracker(term);
  open.push({ term, tracker });
  return { term, tracker };
}

afterEach(() => {
  for (const { term, tracker } of open.splice(0)) {
    tracker.dispose();
    term.dispose();
  }
});

describe('ModeTracker', () => {
  it('starts with a terminal default state', () => {
    const { tracker } = setup();
    expect(tracker.modes).toEqual({
      appCursor: false,
      appKeypad: false,
      bracketedPaste: false,
      mouse: 'none',
      mouseEncoding: 'default',
      focus: false,
      altScreen: false,
      kittyFlags: 0,
    });
    expect([tracker.cursorVisible, tracker.cursorShape, tracker.cursorBlink, tracker.cursorDefaultStyle]).toEqual([true, 'block', false, true]);
    expect(tracker.title).toBe('');
  });

  it('reads the public modes and the alternate screen', async () => {
    const { term, tracker } = setup();
    await write(term, '\x1b[?1h\x1b=\x1b[?2004h\x1b[?1002h\x1b[?1004h\x1b[?1049h');
    expect(tracker.modes).toMatchObject({ appCursor: true, appKeypad: true, bracketedPaste: true, mouse: 'drag', focus: true, altScreen: true });
    await write(term, '\x1b[?1l\x1b>\x1b[?2004l\x1b[?1002l\x1b[?1003h\x1b[?1004l\x1b[?1049l');
    expect(tracker.modes).toMatchObject({ appCursor: false, appKeypad: false, bracketedPaste: false, mouse: 'any', focus: false, altScreen: false });
  });

  it('tracks mouse encodings as mutually exclusive, a reset undoing only its own mode', async () => {
    const { term, tracker } = setup();
    await write(term, '\x1b[?1000;1006h');
    expect(tracker.modes).toMatchObject({ mouse: 'vt200', mouseEncoding: 'sgr' });
    await write(term, '\x1b[?1015h');
    expect(tracker.modes.mouseEncoding).toBe('urxvt');
    await write(term, '\x1b[?1006l');
    expect(tracker.modes.mouseEncoding).toBe('urxvt');
    await write(term, '\x1b[?1015l');
    expect(tracker.modes.mouseEncoding).toBe('default');
    await write(term, '\x1b[?1005h');
    expect(tracker.modes.mouseEncoding).toBe('utf8');
  });

  it('tracks cursor visibility while xterm still applies the mode', async () => {
    const { term, tracker } = setup();
    await write(term, '\x1b[?25l');
    expect(tracker.cursorVisible).toBe(false);
    // Returning false let xterm apply it too: its mode report agrees.
    const reports: string[] = [];
    term.onData((d) => reports.push(d));
    await write(term, '\x1b[?25$p');
    expect(reports.join('')).toBe('\x1b[?25;2$y');
    await write(term, '\x1b[?7;25h');
    expect(tracker.cursorVisible).toBe(true);
  });

  it('maps DECSCUSR to shape and blink, and 0 back to the default style', async () => {
    const { term, tracker } = setup();
    const expected = [
      [1, 'block', true],
      [2, 'block', false],
      [3, 'underline', true],
      [4, 'underline', false],
      [5, 'bar', true],
      [6, 'bar', false],
    ] as const;
    for (const [ps, shape, blink] of expected) {
      await write(term, `\x1b[${ps} q`);
      expect([tracker.cursorShape, tracker.cursorBlink, tracker.cursorDefaultStyle]).toEqual([shape, blink, false]);
    }
    await write(term, '\x1b[?25l\x1b[0 q');
    expect([tracker.cursorShape, tracker.cursorBlink, tracker.cursorDefaultStyle, tracker.cursorVisible]).toEqual(['block', false, true, false]);
    await write(term, '\x1b[5 q\x1b[9 q');
    expect(tracker.cursorShape).toBe('bar');
  });

  it('tracks cursor blink (?12) without choosing a style', async () => {
    const { term, tracker } = setup();
    await write(term, '\x1b[?12h');
    expect([tracker.cursorBlink, tracker.cursorDefaultStyle]).toEqual([true, true]);
    await write(term, '\x1b[6 q\x1b[?12h');
    expect([tracker.cursorShape, tracker.cursorBlink, tracker.cursorDefaultStyle]).toEqual(['bar', true, false]);
  });

  it('follows the title', async () => {
    const { term, tracker } = setup();
    await write(term, '\x1b]0;first\x07\x1b]2;second\x1b\\');
    expect(tracker.title).toBe('second');
  });

  it('restores the cursor on DECSTR, keeping mouse reporting', async () => {
    const { term, tracker } = setup();
    await write(term, '\x1b[?25l\x1b[4 q\x1b[?1000h\x1b[?1006h\x1b[!p');
    expect([tracker.cursorVisible, tracker.cursorDefaultStyle]).toEqual([true, true]);
    expect(tracker.modes).toMatchObject({ mouse: 'vt200', mouseEncoding: 'sgr' });
  });

  it('restores everything but the title on RIS', async () => {
    const { term, tracker } = setup();
    await write(term, '\x1b]2;kept\x07\x1b[?25l\x1b[4 q\x1b[?1000;1006;2004;1h\x1b[?1049h\x1bc');
    expect(tracker.modes).toEqual({
      appCursor: false,
      appKeypad: false,
      bracketedPaste: false,
      mouse: 'none',
      mouseEncoding: 'default',
      focus: false,
      altScreen: false,
      kittyFlags: 0,
    });
    expect([tracker.cursorVisible, tracker.cursorDefaultStyle]).toEqual([true, true]);
    expect(tracker.title).toBe('kept');
  });

  it('stops observing once disposed, and disposes idempotently', async () => {
    const { term, tracker } = setup();
    tracker.dispose();
    tracker.dispose();
    await write(term, '\x1b[?25l\x1b[?1006h\x1b[4 q\x1b]2;x\x07');
    expect(tracker.cursorVisible).toBe(true);
    expect(tracker.cursorShape).toBe('block');
    expect(tracker.modes.mouseEncoding).toBe('default');
    expect(tracker.title).toBe('');
  });
});

describe('ModeTracker: kitty keyboard flags', () => {
  function withReplies(): { term: XTerm; tracker: ModeTracker; replies: string[] } {
    const term = makeTerminal(20, 5);
    const replies: string[] = [];
    const tracker = new ModeTracker(term, (data) => replies.push(data));
    open.push({ term, tracker });
    return { term, tracker, replies };
  }

  it('push, set, pop and query, answered from the model', async () => {
    const { term, tracker, replies } = withReplies();
    await write(term, '\x1b[?u');
    expect(replies).toEqual(['\x1b[?0u']);
    await write(term, '\x1b[>1u');
    expect(tracker.modes.kittyFlags).toBe(1);
    await write(term, '\x1b[=2;2u'); // add 2
    expect(tracker.modes.kittyFlags).toBe(3);
    await write(term, '\x1b[=1;3u'); // remove 1
    expect(tracker.modes.kittyFlags).toBe(2);
    await write(term, '\x1b[=31u'); // set exactly (mode 1 by default)
    await write(term, '\x1b[?u');
    expect(replies.at(-1)).toBe('\x1b[?31u');
    await write(term, '\x1b[>5u\x1b[<u');
    expect(tracker.modes.kittyFlags).toBe(31);
    await write(term, '\x1b[<u');
    expect(tracker.modes.kittyFlags).toBe(0);
    await write(term, '\x1b[<5u'); // popping an empty stack is harmless
    expect(tracker.modes.kittyFlags).toBe(0);
  });

  it('the main and alternate screens keep their own stacks', async () => {
    const { term, tracker, replies } = withReplies();
    await write(term, '\x1b[>1u\x1b[?1049h');
    expect(tracker.modes.kittyFlags).toBe(0);
    await write(term, '\x1b[>11u\x1b[?u');
    expect(replies).toEqual(['\x1b[?11u']);
    await write(term, '\x1b[?1049l');
    expect(tracker.modes.kittyFlags).toBe(1);
    await write(term, '\x1b[?1049h');
    expect(tracker.modes.kittyFlags).toBe(11);
  });

  it('a full reset clears both stacks; the query is never passed on as cursor restore', async () => {
    const { term, tracker } = withReplies();
    await write(term, '\x1b[>1u\x1b[?1049h\x1b[>3u\x1bc');
    expect(tracker.modes.kittyFlags).toBe(0);
    await write(term, '\x1b[?1049l');
    expect(tracker.modes.kittyFlags).toBe(0);
    await write(term, 'ab\x1b[?u\x1b[<u\x1b[>1u\x1b[=1u');
    expect(term.buffer.active.cursorX).toBe(2);
  });

  it('a push onto a full stack evicts the oldest entry', async () => {
    const { term, tracker } = withReplies();
    for (let i = 1; i <= 20; i++) await write(term, `\x1b[>${i}u`);
    for (let i = 0; i < 7; i++) await write(term, '\x1b[<u');
    expect(tracker.modes.kittyFlags).toBe(13);
    await write(term, '\x1b[<u');
    expect(tracker.modes.kittyFlags).toBe(0);
  });
});
