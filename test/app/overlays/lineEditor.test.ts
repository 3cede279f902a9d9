import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { propertyRuns } from '../../helpers/runs.js';
import stringWidth from 'string-width';
import type { InputEvent } from '../../../src/input/events.js';
import { eventKey } from '../../../src/keymap/keys.js';
import {
  cursorOffset,
  editLine,
  EMPTY_LINE,
  LINE_MAX_GRAPHEMES,
  lineOf,
  lineView,
  type LineState,
} from '../../../src/app/overlays/lineEditor.js';
import { alt, ctrl, editKeyArb, eventArb, key, paste, text, trickyString, typed } from './events.js';

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const count = (s: string): number => [...segmenter.segment(s)].length;
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

function run(state: LineState, events: InputEvent[]): LineState {
  return events.reduce((s, ev) => editLine(s, ev).state, state);
}

const line = (s: string, cursor = count(s)): LineState => ({ text: s, cursor });

describe('editLine', () => {
  it('inserts typed text at the cursor', () => {
    expect(run(EMPTY_LINE, typed('abc'))).toEqual(line('abc'));
    expect(run(line('ac', 1), [text('b')])).toEqual(line('abc', 2));
    expect(run(EMPTY_LINE, [text('A', { shift: true }), key('space'), text('漢字')])).toEqual(line('A 漢字'));
  });

  it('moves and deletes by grapheme, never inside a cluster', () => {
    const s = 'a👩‍👩‍👧e\u0301🇫🇷';
    expect(count(s)).toBe(4);
    let st = lineOf(s);
    st = run(st, [key('left')]);
    expect(st.cursor).toBe(3);
    st = run(st, [key('backspace')]);
    expect(st).toEqual(line('a👩‍👩‍👧🇫🇷', 2));
    st = run(st, [key('left'), key('delete')]);
    expect(st).toEqual(line('a🇫🇷', 1));
    st = run(st, [key('left'), key('left'), key('left')]);
    expect(st.cursor).toBe(0);
    st = run(st, [key('right'), key('right'), key('right')]);
    expect(st.cursor).toBe(2);
  });

  it('keeps the cursor on a cluster boundary when an edit joins two clusters', () => {
    // Deleting the x pairs the two regional indicators into one flag: cursor after it.
    expect(run(line('🇫x🇷', 2), [key('backspace')])).toEqual(line('🇫🇷', 1));
    expect(run(line('ex\u0301', 2), [key('backspace')])).toEqual(line('e', 1));
    // A combining mark typed after a letter belongs to it.
    expect(run(line('e'), [text('\u0301')])).toEqual(line('e\u0301', 1));
  });

  it('goes home and end with the keys and with Ctrl+A / Ctrl+E', () => {
    const st = lineOf('hello');
    expect(run(st, [key('home')]).cursor).toBe(0);
    expect(run(st, [ctrl('a')]).cursor).toBe(0);
    expect(run(st, [ctrl('a'), key('end')]).cursor).toBe(5);
    expect(run(st, [ctrl('a'), ctrl('e')]).cursor).toBe(5);
    expect(run(st, [ctrl('a'), ctrl('f'), ctrl('f'), ctrl('b')]).cursor).toBe(1);
  });

  it('does nothing deleting past either end', () => {
    expect(run(line('aa', 0), [key('backspace'), ctrl('w'), ctrl('u')])).toEqual(line('aa', 0));
    expect(run(line('aa'), [key('delete'), ctrl('k')])).toEqual(line('aa'));
  });

  it('kills to the start with Ctrl+U and to the end with Ctrl+K', () => {
    expect(run(line('hello world', 6), [ctrl('u')])).toEqual(line('world', 0));
    expect(run(line('hello world', 6), [ctrl('k')])).toEqual(line('hello ', 6));
  });

  it('deletes the word before the cursor with Ctrl+W, Alt+Backspace and Ctrl+Backspace', () => {
    expect(run(lineOf('new-tab my agent  '), [ctrl('w')])).toEqual(line('new-tab my '));
    expect(run(lineOf('new-tab my agent'), [ctrl('w'), ctrl('w')])).toEqual(line('new-tab '));
    expect(run(lineOf('a b'), [key('backspace', { alt: true })])).toEqual(line('a '));
    expect(run(line('one two', 5), [key('backspace', { ctrl: true })])).toEqual(line('one wo', 4));
  });

  it('moves by word with Ctrl+arrows and Alt+B / Alt+F', () => {
    const st = lineOf('one two three');
    expect(run(st, [key('left', { ctrl: true })]).cursor).toBe(8);
    expect(run(st, [alt('b'), alt('b')]).cursor).toBe(4);
    expect(run(st, [key('home'), key('right', { ctrl: true })]).cursor).toBe(3);
    expect(run(st, [key('home'), alt('f'), alt('f')]).cursor).toBe(7);
  });

  it('submits on Enter and cancels on Escape without changing the line', () => {
    const st = line('abc', 1);
    expect(editLine(st, key('enter'))).toEqual({ state: st, action: 'submit' });
    expect(editLine(st, key('escape'))).toEqual({ state: st, action: 'cancel' });
    expect(editLine(st, key('enter', { alt: true }))).toEqual({ state: st, action: 'none' });
  });

  it('ignores command keys, mouse, focus and raw bytes', () => {
    const st = line('abc', 1);
    for (const ev of [
      ctrl('x'), alt('a'), text('a', { meta: true }), key('f5'), key('tab'), key('up'),
      { k: 'mouse', action: 'press', button: 'left', x: 0, y: 0 },
      { k: 'focus', focused: false },
      { k: 'raw', bytes: '\x1b[1;2Z' },
    ] as InputEvent[]) {
      expect(editLine(st, ev)).toEqual({ state: st, action: 'none' });
    }
  });

  it('pastes one line: breaks become spaces, a trailing break and controls are dropped', () => {
    expect(run(EMPTY_LINE, [paste('one\ntwo\r\nthree\rfour\n')])).toEqual(line('one two three four'));
    expect(run(line('[]', 1), [paste('a\tb\x1b[31mc\x07')])).toEqual(line('[a b[31mc]', 9));
    expect(run(line('x'), [paste('\n\n')])).toEqual(line('x'));
  });

  it('strips controls from typed text', () => {
    expect(run(EMPTY_LINE, [text('a\x00b\x85c')])).toEqual(line('abc'));
  });

  it('holds at most LINE_MAX_GRAPHEMES graphemes', () => {
    const full = run(EMPTY_LINE, [paste('x'.repeat(LINE_MAX_GRAPHEMES + 10))]);
    expect(count(full.text)).toBe(LINE_MAX_GRAPHEMES);
    expect(run(full, [text('y')])).toEqual(full);
    expect(count(lineOf('漢'.repeat(LINE_MAX_GRAPHEMES * 2)).text)).toBe(LINE_MAX_GRAPHEMES);
  });
});

describe('lineOf and cursorOffset', () => {
  it('puts the cursor at the end of a cleaned text', () => {
    expect(lineOf('a\x01b')).toEqual(line('ab'));
    expect(cursorOffset(line('a👍b', 2))).toBe(3);
    expect(cursorOffset(line('a👍b', 3))).toBe(4);
    expect(cursorOffset(EMPTY_LINE)).toBe(0);
  });
});

describe('editLine properties', () => {
  // Any text, with the cursor at its start, its end or any grapheme boundary between.
  const startArb = fc
    .record({ s: trickyString(16), at: fc.oneof(fc.constant(0), fc.constant(Infinity), fc.nat(16)) })
    .map(({ s, at }) => {
      const st = lineOf(s);
      return { text: st.text, cursor: Math.min(at, st.cursor) };
    });

  it('keeps the cursor within the text and the text free of controls', () => {
    fc.assert(
      fc.property(startArb, fc.array(fc.oneof(eventArb, editKeyArb), { maxLength: 30 }), (start, events) => {
        let st = start;
        for (const ev of events) {
          st = editLine(st, ev).state;
          const n = count(st.text);
          expect(Number.isInteger(st.cursor)).toBe(true);
          expect(st.cursor).toBeGreaterThanOrEqual(0);
          expect(st.cursor).toBeLessThanOrEqual(n);
          expect(n).toBeLessThanOrEqual(LINE_MAX_GRAPHEMES);
          expect(CONTROL.test(st.text)).toBe(false);
        }
      }),
      { numRuns: propertyRuns(300) },
    );
  });

  it('changes the text only by the event: an insertion at the cursor, or one removed stretch', () => {
    fc.assert(
      fc.property(startArb, fc.oneof(eventArb, editKeyArb), (before, ev) => {
        const { state: after, action } = editLine(before, ev);
        const k = eventKey(ev);
        if (k === 'enter' || k === 'escape') {
          expect(after).toEqual(before);
          expect(action).toBe(k === 'enter' ? 'submit' : 'cancel');
          return;
        }
        expect(action).toBe('none');
        const offset = cursorOffset(before);
        const inserted =
          ev.k === 'paste'
            ? ev.s.replace(/(\r\n|\r|\n)+$/, '').replace(/\r\n|\r|\n|\t/g, ' ').replace(/[\u0000-\u001f\u007f-\u009f]/g, '')
            : (ev.k === 'text' && !ev.mods?.ctrl && !ev.mods?.alt && !ev.mods?.meta)
              ? ev.s.replace(/[\u0000-\u001f\u007f-\u009f]/g, '')
              : ev.k === 'key' && ev.key === 'space' && !ev.mods?.ctrl && !ev.mods?.alt && !ev.mods?.meta
                ? ' '
                : null;
        if (inserted !== null) {
          expect(after.text).toBe(before.text.slice(0, offset) + inserted + before.text.slice(offset));
          // The cursor ends after the inserted text (within the cluster it may have joined).
          expect(cursorOffset(after)).toBeGreaterThanOrEqual(offset + inserted.length);
          return;
        }
        let p = 0;
        while (p < after.text.length && after.text[p] === before.text[p]) p++;
        expect(after.text.length).toBeLessThanOrEqual(before.text.length);
        expect(before.text.endsWith(after.text.slice(p))).toBe(true);
      }),
      { numRuns: propertyRuns(1000) },
    );
  });
});

describe('lineView', () => {
  it('shows the whole line when it fits with a cell for the cursor', () => {
    expect(lineView(line('abc', 1), 10)).toEqual({ before: 'a', under: 'b', after: 'c' });
    expect(lineView(line('abc'), 4)).toEqual({ before: 'abc', under: '', after: '' });
  });

  it('scrolls so the cursor stays visible', () => {
    expect(lineView(line('abcdef'), 4)).toEqual({ before: 'def', under: '', after: '' });
    expect(lineView(line('abcdef', 5), 3)).toEqual({ before: 'de', under: 'f', after: '' });
    expect(lineView(line('abcdef', 1), 3)).toEqual({ before: 'a', under: 'b', after: 'c' });
  });

  it('measures wide characters by display width', () => {
    expect(lineView(line('漢字漢字', 2), 5)).toEqual({ before: '字', under: '漢', after: '' });
    expect(lineView(line('漢字'), 4)).toEqual({ before: '字', under: '', after: '' });
    expect(lineView(line('漢', 0), 1)).toEqual({ before: '', under: '', after: '' });
  });

  it('never exceeds the width and always shows the cursor cell when one fits', () => {
    fc.assert(
      fc.property(trickyString(20), fc.nat(20), fc.integer({ min: 0, max: 12 }), (s, moves, width) => {
        const st = run(lineOf(s), Array.from({ length: moves }, () => key('left')));
        const v = lineView(st, width);
        const cursorWidth = v.under === '' ? 1 : stringWidth(v.under);
        const total = stringWidth(v.before) + cursorWidth + stringWidth(v.after);
        const underText = [...segmenter.segment(st.text)][st.cursor]?.segment ?? '';
        if (width >= Math.max(1, stringWidth(underText))) {
          expect(total).toBeLessThanOrEqual(width);
          expect(v.under).toBe(underText);
          expect(st.text.slice(0, cursorOffset(st)).endsWith(v.before)).toBe(true);
        } else {
          expect(v).toEqual({ before: '', under: '', after: '' });
        }
      }),
      { numRuns: propertyRuns(500) },
    );
  });
});
