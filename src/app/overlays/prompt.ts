// The command prompt (Alt+;): a line editor whose Enter parses the line and whose Tab completes
// the command's name. It opens empty; a typed leading `/` is accepted (commands.ts). A bad line
// keeps the prompt open with an error under it, wrapped to the box's width; an empty one just
// closes it.
import type { InputEvent } from '../../input/events.js';
import { eventKey } from '../../keymap/keys.js';
import { completeCommand, parseCommand, type Command } from './commands.js';
import { cursorOffset, editLine, EMPTY_LINE, lineOf, type LineState } from './lineEditor.js';
import { wrapText } from './text.js';

export interface PromptState {
  readonly line: LineState;
  /** Why the last Enter ran nothing; cleared by the next change to the text. */
  readonly error: string | null;
  /** What the last Tab found (the candidates it could not choose between); cleared as error is. */
  readonly hint?: string | null;
}

export type PromptAction = { kind: 'none' } | { kind: 'cancel' } | { kind: 'run'; command: Command };

/** The prompt opens empty: `/tabs` and `tabs` are both typed as they read. */
export const OPEN_PROMPT: PromptState = { line: EMPTY_LINE, error: null, hint: null };

/** Tab completes only at the end of the line, where the command word is being typed. */
function complete(state: PromptState): PromptState {
  const { text } = state.line;
  if (cursorOffset(state.line) !== text.length) return state;
  const done = completeCommand(text);
  return { line: done.text === text ? state.line : lineOf(done.text), error: null, hint: done.hint };
}

export function editPrompt(state: PromptState, ev: InputEvent): { state: PromptState; action: PromptAction } {
  if (ev.k === 'key' && eventKey(ev) === 'tab') return { state: complete(state), action: { kind: 'none' } };
  const { state: line, action } = editLine(state.line, ev);
  if (action === 'cancel') return { state, action: { kind: 'cancel' } };
  if (action === 'submit') {
    const text = state.line.text.trim();
    if (text === '' || text === '/') return { state, action: { kind: 'cancel' } };
    const parsed = parseCommand(text);
    if (!parsed.ok) return { state: { ...state, error: parsed.error, hint: null }, action: { kind: 'none' } };
    return { state: OPEN_PROMPT, action: { kind: 'run', command: parsed.command } };
  }
  const same = line.text === state.line.text;
  return { state: { line, error: same ? state.error : null, hint: same ? (state.hint ?? null) : null }, action: { kind: 'none' } };
}

/** The line under the input: the error, else Tab's candidates; null when there is none. */
export function promptMessage(state: PromptState): { text: string; error: boolean } | null {
  if (state.error !== null) return { text: state.error, error: true };
  if (state.hint) return { text: state.hint, error: false };
  return null;
}

/** The message wrapped to a box `width` columns wide: a long error is read whole, never cut. */
export function promptMessageLines(state: PromptState, width: number): string[] {
  const message = promptMessage(state);
  return message === null ? [] : wrapText(message.text, width);
}
