// The question asked before stopping busy tabs (SPEC §8): Alt+W, the chip menu's Close and
// /close on a busy tab, and /quit-all when any tab is busy. Enter confirms, Esc cancels, and
// every other input is ignored, so a stray keystroke neither stops a tab nor reaches it.
import stringWidth from 'string-width';
import type { InputEvent } from '../../input/events.js';
import { eventKey } from '../../keymap/keys.js';
import { fitEnd } from './text.js';

export type ConfirmState =
  | { readonly kind: 'closeTab'; readonly tabId: string; readonly name: string }
  | { readonly kind: 'quitAll'; readonly count: number };

/** Enough of a name to recognise it, while the question still reads as one short line. */
export const CONFIRM_NAME_MAX_COLUMNS = 24;

const KEYS_HINT = 'Enter stop · Esc cancel';

/** The question, at most `maxColumns` wide: the name gives way first, then the text's end. */
export function confirmText(state: ConfirmState, maxColumns = Number.POSITIVE_INFINITY): string {
  if (state.kind === 'quitAll') {
    const what = state.count === 1 ? 'the 1 tab' : `all ${state.count} tabs`;
    return fitEnd(`Stop ${what} and detach? ${KEYS_HINT}`, maxColumns);
  }
  const frame = (name: string): string => `Stop "${name}"? ${KEYS_HINT}`;
  const room = Math.min(CONFIRM_NAME_MAX_COLUMNS, maxColumns - stringWidth(frame('')));
  return fitEnd(frame(fitEnd(state.name, Math.max(1, room))), maxColumns);
}

export function confirmKey(ev: InputEvent): 'confirm' | 'cancel' | 'none' {
  const key = eventKey(ev);
  if (key === 'enter') return 'confirm';
  if (key === 'escape') return 'cancel';
  return 'none';
}
