// Matching key presses against bindings that may be chords ('ctrl+b d'), as a pure state
// machine. A press that begins a bound chord waits; the chord's last key runs its action; a press
// that continues no chord, or the timeout, sends the waiting presses to the tab in the order they
// were typed, and the press is then matched again on its own.
import type { InputEvent } from '../input/events.js';
import type { ActionId } from './actions.js';
import { eventKey, type Keymap } from './keys.js';

/** How long a begun chord waits for its next key: long enough for a deliberate second press
 * (tmux's prefix waits for ever, but here a lone prefix must reach the tab eventually). */
export const CHORD_TIMEOUT_MS = 2_000;

export interface ChordState {
  /** The presses of the chord begun so far, in order; empty when none is. */
  readonly pending: readonly InputEvent[];
}

export const NO_CHORD: ChordState = { pending: [] };

export type ChordResult =
  /** The press is bound (alone or as a chord's last key): run the action. */
  | { kind: 'action'; action: ActionId; events: readonly InputEvent[] }
  /** The press begins or continues a chord: nothing to do until the next one. */
  | { kind: 'pending' }
  /** The press is no binding: the caller handles it as before (forwards it to the tab...). */
  | { kind: 'none' };

export interface ChordStep {
  readonly state: ChordState;
  /** Presses that waited for a chord that did not come: they go to the tab first, in order. */
  readonly flushed: readonly InputEvent[];
  readonly result: ChordResult;
}

function keysOf(events: readonly InputEvent[]): string {
  return events.map((e) => eventKey(e)).join(' ');
}

/** One press, from a state with nothing waiting. */
function fresh(ev: InputEvent, keymap: Keymap): { state: ChordState; result: ChordResult } {
  const key = eventKey(ev);
  if (key === null) return { state: NO_CHORD, result: { kind: 'none' } };
  const action = keymap.byKey.get(key);
  if (action !== undefined) return { state: NO_CHORD, result: { kind: 'action', action, events: [ev] } };
  if (keymap.chordStarts.has(key)) return { state: { pending: [ev] }, result: { kind: 'pending' } };
  return { state: NO_CHORD, result: { kind: 'none' } };
}

export function chordStep(state: ChordState, ev: InputEvent, keymap: Keymap): ChordStep {
  if (state.pending.length === 0) return { ...fresh(ev, keymap), flushed: [] };
  const key = eventKey(ev);
  if (key !== null) {
    const events = [...state.pending, ev];
    const seq = keysOf(events);
    const action = keymap.byKey.get(seq);
    if (action !== undefined) return { state: NO_CHORD, flushed: [], result: { kind: 'action', action, events } };
    if (keymap.chordStarts.has(seq)) return { state: { pending: events }, flushed: [], result: { kind: 'pending' } };
  }
  return { ...fresh(ev, keymap), flushed: state.pending };
}

/** The timeout: whatever waited goes to the tab. */
export function chordTimeout(state: ChordState): { state: ChordState; flushed: readonly InputEvent[] } {
  return { state: NO_CHORD, flushed: state.pending };
}
