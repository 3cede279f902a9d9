import fc from 'fast-check';
import { propertyRuns } from '../helpers/runs.js';
import { describe, expect, it } from 'vitest';
import type { InputEvent } from '../../src/input/events.js';
import { ACTIONS, type ActionId } from '../../src/keymap/actions.js';
import { chordStep, chordTimeout, NO_CHORD, type ChordState } from '../../src/keymap/chords.js';
import { eventKey, type Keymap } from '../../src/keymap/keys.js';
import { resolveKeymap } from '../../src/keymap/resolve.js';

function keymap(overrides: Record<string, string | string[]>): Keymap {
  const r = resolveKeymap(overrides);
  if (!('keymap' in r)) throw new Error(r.error.message);
  return r.keymap;
}

const ctrl = (c: string): InputEvent => ({ k: 'text', s: c, mods: { ctrl: true } });
const ch = (c: string): InputEvent => ({ k: 'text', s: c });
const paste: InputEvent = { k: 'paste', s: 'pasted' };

type Out = { tab: InputEvent } | { action: ActionId; events: readonly InputEvent[] };

/** Feeds presses one by one, as the client does; `timeouts` fire after the given indexes. */
function run(km: Keymap, events: readonly InputEvent[], timeouts: ReadonlySet<number> = new Set()): Out[] {
  const out: Out[] = [];
  let state: ChordState = NO_CHORD;
  events.forEach((ev, i) => {
    const step = chordStep(state, ev, km);
    state = step.state;
    for (const f of step.flushed) out.push({ tab: f });
    if (step.result.kind === 'action') out.push({ action: step.result.action, events: step.result.events });
    else if (step.result.kind === 'none') out.push({ tab: ev });
    if (timeouts.has(i)) {
      const t = chordTimeout(state);
      state = t.state;
      for (const f of t.flushed) out.push({ tab: f });
    }
  });
  for (const f of chordTimeout(state).flushed) out.push({ tab: f });
  return out;
}

describe('chord matching', () => {
  const km = keymap({ prefix: 'ctrl+b' });

  it('runs prefix then key; prefix then an unbound key sends both to the tab, in order', () => {
    expect(run(km, [ctrl('b'), ch('d')])).toEqual([{ action: 'detach', events: [ctrl('b'), ch('d')] }]);
    expect(run(km, [ch('x'), ctrl('b'), ch('z'), ch('y')])).toEqual([{ tab: ch('x') }, { tab: ctrl('b') }, { tab: ch('z') }, { tab: ch('y') }]);
  });

  it('a non-key (a paste) flushes the waiting prefix before it; the timeout flushes it alone', () => {
    expect(run(km, [ctrl('b'), paste])).toEqual([{ tab: ctrl('b') }, { tab: paste }]);
    expect(run(km, [ctrl('b'), ch('d')], new Set([0]))).toEqual([{ tab: ctrl('b') }, { tab: ch('d') }]);
  });

  it('the prefix twice is one prefix for the tab (sendPrefix), and Ctrl+C still detaches twice', () => {
    expect(run(km, [ctrl('b'), ctrl('b')])).toEqual([{ action: 'sendPrefix', events: [ctrl('b'), ctrl('b')] }]);
    expect(run(km, [ctrl('c')])).toEqual([{ action: 'detachTwice', events: [ctrl('c')] }]);
  });

  it('a key that does not continue the chord is matched again on its own', () => {
    const own = keymap({ detach: 'ctrl+b d' });
    const altA: InputEvent = { k: 'text', s: 'a', mods: { alt: true } };
    expect(run(own, [ctrl('b'), altA])).toEqual([{ tab: ctrl('b') }, { action: 'newTab', events: [altA] }]);
  });
});

/** Keymaps over a small alphabet of keys, so chords and near misses are common. */
const ALPHABET: readonly InputEvent[] = [ctrl('b'), ctrl('a'), ch('d'), ch('x'), ch('c'), { k: 'key', key: 'f5' }, paste];
const descriptor = (ev: InputEvent) => eventKey(ev) ?? 'f5';
const ids = ACTIONS.map((a) => a.id).filter((id) => id !== 'detachTwice');

const arbKeymap = fc
  .uniqueArray(
    fc.record({ id: fc.constantFrom(...ids), keys: fc.array(fc.constantFrom(...ALPHABET.slice(0, 6)), { minLength: 1, maxLength: 3 }) }),
    { selector: (b) => b.id, maxLength: 5 },
  )
  .map((bindings) => {
    const overrides: Record<string, string[]> = Object.fromEntries(ACTIONS.map((a) => [a.id, []]));
    for (const b of bindings) overrides[b.id] = [b.keys.map(descriptor).join(' ')];
    return resolveKeymap(overrides);
  })
  .filter((r): r is { keymap: Keymap } => 'keymap' in r)
  .map((r) => r.keymap);

describe('chord matching, for any keymap and any presses', () => {
  it('every press comes out once, in the order typed, as tab input or in exactly one bound chord', () => {
    fc.assert(
      fc.property(
        arbKeymap,
        fc.array(fc.constantFrom(...ALPHABET), { maxLength: 30 }),
        fc.uniqueArray(fc.nat(30)),
        (km, events, timeouts) => {
          const out = run(km, events, new Set(timeouts));
          const replay = out.flatMap((o) => ('tab' in o ? [o.tab] : [...o.events]));
          expect(replay).toEqual(events);
          for (const o of out) {
            if ('action' in o) expect(km.byKey.get(o.events.map((e) => eventKey(e)).join(' '))).toBe(o.action);
          }
        },
      ),
      { numRuns: propertyRuns(500) },
    );
  });

  it('a bound key pressed with nothing waiting runs at once; a chord start always waits', () => {
    fc.assert(
      fc.property(arbKeymap, fc.constantFrom(...ALPHABET), (km, ev) => {
        const step = chordStep(NO_CHORD, ev, km);
        const key = eventKey(ev);
        expect(step.flushed).toEqual([]);
        if (key !== null && km.byKey.has(key)) expect(step.result).toEqual({ kind: 'action', action: km.byKey.get(key), events: [ev] });
        else if (key !== null && km.chordStarts.has(key)) expect(step.result).toEqual({ kind: 'pending' });
        else expect(step.result).toEqual({ kind: 'none' });
      }),
      { numRuns: propertyRuns(500) },
    );
  });
});
