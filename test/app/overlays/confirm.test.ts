import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import stringWidth from 'string-width';
import { CONFIRM_NAME_MAX_COLUMNS, confirmKey, confirmText } from '../../../src/app/overlays/confirm.js';
import type { InputEvent } from '../../../src/input/events.js';
import { eventArb, key, text } from './events.js';

describe('close confirmation', () => {
  it('asks to stop the named tab', () => {
    expect(confirmText({ kind: 'closeTab', tabId: 't', name: 'api' })).toBe('Stop "api"? Enter stop · Esc cancel');
  });

  it('clips a long name for display at a grapheme boundary', () => {
    const s = confirmText({ kind: 'closeTab', tabId: 't', name: '👩‍👩‍👧'.repeat(30) });
    const name = s.slice('Stop "'.length, s.indexOf('"?'));
    expect(stringWidth(name)).toBeLessThanOrEqual(CONFIRM_NAME_MAX_COLUMNS);
    expect(name.endsWith('…')).toBe(true);
    expect('👩‍👩‍👧'.repeat(30).startsWith(name.slice(0, -1))).toBe(true);
  });

  it('clips the name first, then the text, to fit a narrow box', () => {
    const state = { kind: 'closeTab' as const, tabId: 't', name: 'a long tab name' };
    expect(confirmText(state, 47)).toBe('Stop "a long tab name"? Enter stop · Esc cancel');
    expect(confirmText(state, 36)).toBe('Stop "a l…"? Enter stop · Esc cancel');
    expect(confirmText(state, 34)).toBe('Stop "a…"? Enter stop · Esc cancel');
    expect(confirmText(state, 33)).toBe('Stop "…"? Enter stop · Esc cancel');
    expect(confirmText(state, 20)).toBe('Stop "…"? Enter sto…');
    for (let w = 0; w < 60; w++) expect(stringWidth(confirmText(state, w))).toBeLessThanOrEqual(w);
  });

  it('asks before stopping every tab for /quit-all', () => {
    expect(confirmText({ kind: 'quitAll', count: 3 })).toBe('Stop all 3 tabs and detach? Enter stop · Esc cancel');
    expect(confirmText({ kind: 'quitAll', count: 1 })).toBe('Stop the 1 tab and detach? Enter stop · Esc cancel');
  });

  it('confirms on Enter, cancels on Escape and ignores everything else', () => {
    expect(confirmKey(key('enter'))).toBe('confirm');
    expect(confirmKey(key('escape'))).toBe('cancel');
    for (const ev of [text('y'), key('enter', { alt: true }), key('space'), { k: 'paste', s: '\r' }] as InputEvent[]) {
      expect(confirmKey(ev)).toBe('none');
    }
    fc.assert(
      fc.property(eventArb, (ev) => {
        const isEnter = ev.k === 'key' && ev.key === 'enter' && !Object.values(ev.mods ?? {}).some(Boolean);
        const isEscape = ev.k === 'key' && ev.key === 'escape' && !Object.values(ev.mods ?? {}).some(Boolean);
        expect(confirmKey(ev)).toBe(isEnter ? 'confirm' : isEscape ? 'cancel' : 'none');
      }),
    );
  });
});
