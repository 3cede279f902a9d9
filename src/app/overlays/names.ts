// The inline rename editor (F2, the chip menu's Rename, SPEC §8): a line editor over the tab's
// name that commits only a valid name and otherwise stays open with the reason. Validation is
// the one rule in src/tabName.ts, which the server applies again to every name it commits.
import type { InputEvent } from '../../input/events.js';
import { validateTabName } from '../../tabName.js';
import { editLine, lineOf, type LineState } from './lineEditor.js';

/** Shaped so the strip layout can draw it as it is (text, grapheme cursor, error). */
export interface RenameState extends LineState {
  readonly tabId: string;
  /** Why the last Enter did not commit; cleared by the next change to the text. */
  readonly error: string | null;
}

export type RenameAction = { kind: 'none' } | { kind: 'cancel' } | { kind: 'commit'; tabId: string; name: string };

export function startRename(tabId: string, currentName: string): RenameState {
  return { tabId, ...lineOf(currentName), error: null };
}

export function editRename(state: RenameState, ev: InputEvent): { state: RenameState; action: RenameAction } {
  const { state: line, action } = editLine(state, ev);
  if (action === 'cancel') return { state, action: { kind: 'cancel' } };
  if (action === 'submit') {
    const verdict = validateTabName(state.text);
    if (!verdict.ok) return { state: { ...state, error: verdict.reason }, action: { kind: 'none' } };
    return { state: { ...state, error: null }, action: { kind: 'commit', tabId: state.tabId, name: verdict.name } };
  }
  const error = line.text === state.text ? state.error : null;
  return { state: { tabId: state.tabId, text: line.text, cursor: line.cursor, error }, action: { kind: 'none' } };
}
