// The command prompt (Alt+;): a line editor whose Enter parses the line. A bad line keeps the
// prompt open with a one-line error; an empty one just closes it.
import type { InputEvent } from '../../input/events.js';
import { parseCommand, type Command } from './commands.js';
import { editLine, EMPTY_LINE, type LineState } from './lineEditor.js';

export interface PromptState {
  readonly line: LineState;
  /** Why the last Enter ran nothing; cleared by the next change to the text. */
  readonly error: string | null;
}

export type PromptAction = { kind: 'none' } | { kind: 'cancel' } | { kind: 'run'; command: Command };

/** The prompt opens with the `/` every command starts with already typed. */
export const OPEN_PROMPT: PromptState = { line: { text: '/', cursor: 1 }, error: null };

export function editPrompt(state: PromptState, ev: InputEvent): { state: PromptState; action: PromptAction } {
  const { state: line, action } = editLine(state.line, ev);
  if (action === 'cancel') return { state, action: { kind: 'cancel' } };
  if (action === 'submit') {
    const text = state.line.text.trim();
    if (text === '' || text === '/') return { state, action: { kind: 'cancel' } };
    const parsed = parseCommand(text);
    if (!parsed.ok) return { state: { ...state, error: parsed.error }, action: { kind: 'none' } };
    return { state: { line: EMPTY_LINE, error: null }, action: { kind: 'run', command: parsed.command } };
  }
  return { state: { line, error: line.text === state.line.text ? state.error : null }, action: { kind: 'none' } };
}
