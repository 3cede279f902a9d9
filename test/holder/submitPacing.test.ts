// A scripted Enter after text waits until the child has taken the text (issue 28, item 5).
import { describe, expect, it } from 'vitest';
import { SUBMIT_QUIET_MS, SUBMIT_WAIT_MS, submitAfterText, submitDue } from '../../src/holder/submitPacing.js';
import type { InputEvent } from '../../src/input/events.js';

const text = (s: string): InputEvent => ({ k: 'text', s });
const ENTER: InputEvent = { k: 'key', key: 'enter' };

describe('submitAfterText', () => {
  it('finds the first Enter that follows text', () => {
    expect(submitAfterText([text('hello again'), ENTER], false)).toBe(1);
    expect(submitAfterText([text('a'), ENTER, text('b'), ENTER], false)).toBe(1);
  });

  it('an Enter first in the batch follows the text written before it', () => {
    expect(submitAfterText([ENTER], true)).toBe(0);
    expect(submitAfterText([ENTER], false)).toBe(-1);
  });

  it('an Enter after a key, a modified character or nothing is not paused', () => {
    expect(submitAfterText([text('x'), { k: 'key', key: 'left' }, ENTER], false)).toBe(-1);
    expect(submitAfterText([{ k: 'text', s: 'c', mods: { ctrl: true } }, ENTER], false)).toBe(-1);
    expect(submitAfterText([ENTER, ENTER], false)).toBe(-1);
    expect(submitAfterText([text('only text')], false)).toBe(-1);
  });

  it('a released Enter is not a submit', () => {
    expect(submitAfterText([text('x'), { k: 'key', key: 'enter', type: 'release' }], false)).toBe(-1);
  });
});

describe('submitDue', () => {
  const textAt = 1_000;
  it('waits for the child to answer the text and then stay quiet', () => {
    expect(submitDue({ now: textAt + 10, textAt, outputAt: textAt - 5, pendingBytes: 0 })).toBe(false);
    expect(submitDue({ now: textAt + 50, textAt, outputAt: textAt + 20, pendingBytes: 0 })).toBe(false);
    expect(submitDue({ now: textAt + 20 + SUBMIT_QUIET_MS, textAt, outputAt: textAt + 20, pendingBytes: 0 })).toBe(true);
  });

  it('not while the PTY has not taken all the input', () => {
    expect(submitDue({ now: textAt + 20 + SUBMIT_QUIET_MS, textAt, outputAt: textAt + 20, pendingBytes: 3 })).toBe(false);
  });

  it('goes after a person\'s pause from a child that echoes nothing or never stops drawing', () => {
    expect(submitDue({ now: textAt + SUBMIT_WAIT_MS - 1, textAt, outputAt: 0, pendingBytes: 0 })).toBe(false);
    expect(submitDue({ now: textAt + SUBMIT_WAIT_MS, textAt, outputAt: 0, pendingBytes: 0 })).toBe(true);
    expect(submitDue({ now: textAt + SUBMIT_WAIT_MS, textAt, outputAt: textAt + SUBMIT_WAIT_MS - 1, pendingBytes: 0 })).toBe(true);
  });
});
