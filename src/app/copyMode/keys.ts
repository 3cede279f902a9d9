// Every key of copy mode and what it does: a motion (a new cursor) or a command the reducer
// carries out. Declared once: the reducer and /hotkeys both read COPY_MODE_KEYS.
import { contentLength, lineCells } from './document.js';
import type { CopyModeState, Pos } from './types.js';
import { emacsWordForward, wordBack, wordEnd, wordNext } from './words.js';

export type Motion = (state: CopyModeState) => Pos | { pos: Pos; top: number };

const left: Motion = (s) => ({ line: s.cursor.line, col: s.cursor.col - 1 });
const right: Motion = (s) => ({ line: s.cursor.line, col: s.cursor.col + 1 });
const up: Motion = (s) => ({ line: s.cursor.line - 1, col: s.cursor.col });
const down: Motion = (s) => ({ line: s.cursor.line + 1, col: s.cursor.col });
const pageUp: Motion = (s) => ({ pos: { line: s.cursor.line - s.height, col: s.cursor.col }, top: s.top - s.height });
const pageDown: Motion = (s) => ({ pos: { line: s.cursor.line + s.height, col: s.cursor.col }, top: s.top + s.height });
const lineStart: Motion = (s) => ({ line: s.cursor.line, col: 0 });
const lineEnd: Motion = (s) => {
  const cells = lineCells(s, s.cursor.line);
  return { line: s.cursor.line, col: cells ? Math.max(0, contentLength(cells) - 1) : s.cursor.col };
};
const first: Motion = () => ({ line: 0, col: 0 });
const last: Motion = (s) => ({ line: s.total - 1, col: 0 });

export type Command = 'leave' | 'select' | 'selectLines' | 'copy' | 'search' | 'nextMatch' | 'previousMatch';

export interface CopyModeKey {
  /** Canonical keys (keymap/keys.ts). */
  readonly keys: readonly string[];
  readonly description: string;
  readonly run: Motion | Command;
}

/** Every key of copy mode, declared once: the reducer and /hotkeys both read this list. */
export const COPY_MODE_KEYS: readonly CopyModeKey[] = [
  { keys: ['h', 'left', 'ctrl+b'], description: 'Left', run: left },
  { keys: ['l', 'right', 'ctrl+f'], description: 'Right', run: right },
  { keys: ['k', 'up', 'ctrl+p'], description: 'Up', run: up },
  { keys: ['j', 'down', 'ctrl+n'], description: 'Down', run: down },
  { keys: ['pageup'], description: 'Page up', run: pageUp },
  { keys: ['pagedown'], description: 'Page down', run: pageDown },
  { keys: ['0', 'home', 'ctrl+a'], description: 'Start of the line', run: lineStart },
  { keys: ['$', 'end', 'ctrl+e'], description: 'End of the line', run: lineEnd },
  { keys: ['g'], description: 'First line of the history', run: first },
  { keys: ['shift+g'], description: 'Last line', run: last },
  { keys: ['w'], description: 'Next word', run: (s) => wordNext(s) },
  { keys: ['b'], description: 'Previous word', run: (s) => wordBack(s, false) },
  { keys: ['e'], description: 'End of the word', run: (s) => wordEnd(s) },
  { keys: ['alt+f'], description: 'Forward a word (emacs)', run: (s) => emacsWordForward(s) },
  { keys: ['alt+b'], description: 'Back a word (emacs)', run: (s) => wordBack(s, true) },
  { keys: ['v', 'space'], description: 'Select characters', run: 'select' },
  { keys: ['shift+v'], description: 'Select lines', run: 'selectLines' },
  { keys: ['y', 'enter'], description: 'Copy the selection (OSC 52)', run: 'copy' },
  { keys: ['/', '?'], description: 'Search forward / back', run: 'search' },
  { keys: ['n'], description: 'Next match', run: 'nextMatch' },
  { keys: ['shift+n'], description: 'Previous match', run: 'previousMatch' },
  { keys: ['q', 'escape'], description: 'Back to live', run: 'leave' },
];

/** What each canonical key runs. */
export const BY_KEY: ReadonlyMap<string, Motion | Command> = new Map(COPY_MODE_KEYS.flatMap((k) => k.keys.map((key) => [key, k.run] as const)));
