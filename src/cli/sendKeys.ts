// `a1 send`'s arguments as input events (issue 18), as tmux's send-keys reads them: a word that is
// a key name (`Enter`, `Up`, `F5`; case does not matter), optionally with modifier prefixes
// (`C-c`, `M-x`, `S-Tab`, `C-M-Up`), is that key; any other word is its text, as typed, with no
// space added between words. With `literal` every word is text. Pure: the holder encodes the
// events for the child's keyboard mode (src/input/encode.ts), as it does a client's keys.
import type { InputEvent, KeyName, Mods } from '../input/events.js';

/** Key names as tmux spells them, and their usual other spellings, lower case. */
const KEY_NAMES: Readonly<Record<string, KeyName>> = {
  enter: 'enter', return: 'enter', tab: 'tab', bspace: 'backspace', backspace: 'backspace',
  escape: 'escape', esc: 'escape', space: 'space',
  up: 'up', down: 'down', left: 'left', right: 'right',
  home: 'home', end: 'end', pageup: 'pageup', pgup: 'pageup', ppage: 'pageup',
  pagedown: 'pagedown', pgdn: 'pagedown', npage: 'pagedown',
  ic: 'insert', insert: 'insert', dc: 'delete', delete: 'delete',
  f1: 'f1', f2: 'f2', f3: 'f3', f4: 'f4', f5: 'f5', f6: 'f6',
  f7: 'f7', f8: 'f8', f9: 'f9', f10: 'f10', f11: 'f11', f12: 'f12',
};

/** The names `a1 send --help` lists. */
export const KEY_NAMES_HELP = 'Enter, Tab, BTab, BSpace, Escape, Space, Up, Down, Left, Right, Home, End, PageUp, PageDown, Insert, Delete, F1-F12; prefixes C- (Ctrl), M- (Alt), S- (Shift)';

const MODIFIER: Readonly<Record<string, keyof Mods>> = { c: 'ctrl', m: 'alt', s: 'shift' };

/** One word: the key it names, or null when it is text. */
export function keyOf(word: string): InputEvent | null {
  const mods: Mods = {};
  let rest = word;
  // `C-` etc. before something: a lone `C-` or `-` is text.
  while (rest.length > 2 && rest[1] === '-' && MODIFIER[rest[0].toLowerCase()]) {
    mods[MODIFIER[rest[0].toLowerCase()]] = true;
    rest = rest.slice(2);
  }
  const modified = rest !== word;
  const lower = rest.toLowerCase();
  const withMods = (ev: InputEvent): InputEvent => (modified ? ({ ...ev, mods } as InputEvent) : ev);
  if (lower === 'btab') return { k: 'key', key: 'tab', mods: { ...mods, shift: true } };
  const key = KEY_NAMES[lower];
  if (key) return withMods({ k: 'key', key });
  // A modified single character: C-c, M-x.
  if (modified && [...rest].length === 1) return withMods({ k: 'text', s: rest });
  return null;
}

/** Every word as events: keys and text (`literal`: text only), in order. */
export function sendEvents(words: readonly string[], literal: boolean): InputEvent[] {
  const events: InputEvent[] = [];
  for (const word of words) {
    const key = literal ? null : keyOf(word);
    if (key) {
      events.push(key);
      continue;
    }
    if (word === '') continue;
    const last = events[events.length - 1];
    // Runs of text are one event: the holder keeps them whole.
    if (last?.k === 'text' && !last.mods) events[events.length - 1] = { k: 'text', s: last.s + word };
    else events.push({ k: 'text', s: word });
  }
  return events;
}

/** Events in batches of at most `maxChars` characters of text each, so that large text travels
 * in frames of a bounded size; a long text is split between characters (never inside one). */
export function batches(events: readonly InputEvent[], maxChars: number): InputEvent[][] {
  const out: InputEvent[][] = [];
  let batch: InputEvent[] = [];
  let size = 0;
  const flush = () => {
    if (batch.length > 0) out.push(batch);
    batch = [];
    size = 0;
  };
  for (const ev of events) {
    if (ev.k !== 'text' || ev.mods) {
      if (size + 1 > maxChars) flush();
      batch.push(ev);
      size += 1;
      continue;
    }
    const chars = [...ev.s];
    for (let i = 0; i < chars.length; ) {
      if (size >= maxChars) flush();
      const take = Math.min(chars.length - i, maxChars - size);
      batch.push({ k: 'text', s: chars.slice(i, i + take).join('') });
      size += take;
      i += take;
    }
  }
  flush();
  return out;
}
