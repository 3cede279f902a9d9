import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { propertyRuns } from '../../helpers/runs.js';
import { editRename, startRename, type RenameState } from '../../../src/app/overlays/names.js';
import { TAB_NAME_MAX, validateTabName } from '../../../src/tabName.js';
import type { InputEvent } from '../../../src/input/events.js';
import { ctrl, key, paste, text, trickyString, typed } from './events.js';

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const count = (s: string): number => [...segmenter.segment(s)].length;
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

function run(state: RenameState, events: InputEvent[]) {
  let action: ReturnType<typeof editRename>['action'] = { kind: 'none' };
  for (const ev of events) ({ state, action } = editRename(state, ev));
  return { state, action };
}

describe('validateTabName', () => {
  it('trims, strips controls and counts graphemes', () => {
    expect(validateTabName('  api\x07 work \n')).toEqual({ ok: true, name: 'api work' });
    expect(validateTabName('👩‍👩‍👧'.repeat(TAB_NAME_MAX))).toEqual({ ok: true, name: '👩‍👩‍👧'.repeat(TAB_NAME_MAX) });
    expect(validateTabName('x'.repeat(TAB_NAME_MAX + 1)).ok).toBe(false);
    expect(validateTabName(' \x01\t ')).toEqual({ ok: false, reason: 'A name cannot be empty.' });
  });

  it('always gives a valid name or a one-sentence reason', () => {
    fc.assert(
      fc.property(fc.oneof(trickyString(80), fc.string({ maxLength: 80 }), fc.string({ unit: 'grapheme', minLength: 60, maxLength: 70 })), (raw) => {
        const v = validateTabName(raw);
        if (v.ok) {
          expect(v.name).toBe(v.name.trim());
          expect(v.name.length).toBeGreaterThan(0);
          expect(CONTROL.test(v.name)).toBe(false);
          expect(count(v.name)).toBeLessThanOrEqual(TAB_NAME_MAX);
          // A valid name passes again unchanged.
          expect(validateTabName(v.name)).toEqual(v);
        } else {
          expect(v.reason).toMatch(/^[A-Z][^\n]*\.$/);
        }
      }),
      { numRuns: propertyRuns(1000) },
    );
  });
});

describe('rename editor', () => {
  it('starts on the current name with the cursor at its end', () => {
    expect(startRename('t1', 'agent 2')).toEqual({ tabId: 't1', text: 'agent 2', cursor: 7, error: null });
  });

  it('commits the validated name on Enter', () => {
    const { action } = run(startRename('t1', 'agent'), [ctrl('u'), ...typed('  api  '), key('enter')]);
    expect(action).toEqual({ kind: 'commit', tabId: 't1', name: 'api' });
  });

  it('stays open with the reason when the name is invalid, until the text changes', () => {
    let r = run(startRename('t1', 'agent'), [ctrl('u'), key('enter')]);
    expect(r.action).toEqual({ kind: 'none' });
    expect(r.state.error).toBe('A name cannot be empty.');
    r = run(r.state, [key('left')]);
    expect(r.state.error).toBe('A name cannot be empty.');
    r = run(r.state, [text('x')]);
    expect(r.state.error).toBeNull();
    r = run(r.state, [paste('y'.repeat(TAB_NAME_MAX)), key('enter')]);
    expect(r.action).toEqual({ kind: 'none' });
    expect(r.state.error).toMatch(/at most 64/);
  });

  it('cancels on Escape and leaves the state as it was', () => {
    const start = startRename('t1', 'agent');
    expect(editRename(start, key('escape'))).toEqual({ state: start, action: { kind: 'cancel' } });
  });
});
