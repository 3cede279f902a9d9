// The page's keyboard as input events: xterm.js's onData strings read by the same tokenizer and
// parser as the terminal client's, and the phone's quick keys and compose line.
import type { InputEvent } from '../../input/events.js';
import { ESC_TIMEOUT_MS, InputTokenizer } from '../../input/tokenizer.js';
import { tokenToEvents } from '../../input/parse.js';

/**
 * xterm.js hands over each key (or paste) whole in one onData call, so nothing waits for more:
 * the tokenizer is flushed at once and a lone ESC is the Escape key, not the start of a sequence.
 */
export function keysToEvents(data: string): InputEvent[] {
  const tokenizer = new InputTokenizer();
  const tokens = tokenizer.push(data, 0);
  tokens.push(...tokenizer.flush(ESC_TIMEOUT_MS));
  return tokens.flatMap(tokenToEvents);
}

/** The quick keys a phone's keyboard lacks, and the agents' permission answers (DOM `data-key`). */
export const QUICK_KEYS = ['enter', 'escape', 'tab', 'up', 'down', 'ctrl-c', '1', '2', '3', 'y', 'n'] as const;
export type QuickKey = (typeof QUICK_KEYS)[number];

const QUICK_KEY_EVENTS: Readonly<Record<QuickKey, InputEvent>> = {
  enter: { k: 'key', key: 'enter' },
  escape: { k: 'key', key: 'escape' },
  tab: { k: 'key', key: 'tab' },
  up: { k: 'key', key: 'up' },
  down: { k: 'key', key: 'down' },
  'ctrl-c': { k: 'text', s: 'c', mods: { ctrl: true } },
  '1': { k: 'text', s: '1' },
  '2': { k: 'text', s: '2' },
  '3': { k: 'text', s: '3' },
  y: { k: 'text', s: 'y' },
  n: { k: 'text', s: 'n' },
};

/** Labels on the quick-key buttons. */
export const QUICK_KEY_LABELS: Readonly<Record<QuickKey, string>> = {
  enter: '⏎', escape: 'Esc', tab: 'Tab', up: '↑', down: '↓', 'ctrl-c': '^C', '1': '1', '2': '2', '3': '3', y: 'y', n: 'n',
};

export function quickKeyEvents(key: string): InputEvent[] {
  return Object.hasOwn(QUICK_KEY_EVENTS, key) ? [QUICK_KEY_EVENTS[key as QuickKey]] : [];
}

/** The compose line's text typed as keys, then Enter (an empty line is just Enter). A newline in
 * it is Enter too, so a pasted multi-line text submits line by line as typed text would. */
export function composeEvents(text: string): InputEvent[] {
  const events: InputEvent[] = [];
  text.split(/\r\n|\r|\n/).forEach((line, i) => {
    if (i > 0) events.push({ k: 'key', key: 'enter' });
    if (line !== '') events.push({ k: 'text', s: line });
  });
  events.push({ k: 'key', key: 'enter' });
  return events;
}
