// Reads the captures in docs/keys/sources into key table rows: the generator and the drift check
// of src/keymap/keyTableRows/. Kept: keys with Ctrl or Alt, F-keys, Esc, and the Shift keys
// agents use; plain typing keys never collide with an a1 binding.
import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../helpers/pty.js';
import { parseKey } from '../../src/keymap/keys.js';
import type { KeyRow, ProgramId, SourceId } from '../../src/keymap/keyTable.js';

export const SOURCES_DIR = path.join(REPO_ROOT, 'docs', 'keys', 'sources');

const read = (name: string) => fs.readFileSync(path.join(SOURCES_DIR, name), 'utf8');

function canonical(descriptor: string): string | null {
  const parsed = parseKey(descriptor);
  return parsed.ok ? parsed.key : null;
}

/** A chord of descriptors as canonical keys, or null when a1 cannot name one of them. */
function chord(descriptors: readonly string[]): string | null {
  const keys = descriptors.map(canonical);
  return keys.every((k) => k !== null) ? keys.join(' ') : null;
}

function kept(keys: string): boolean {
  const first = keys.split(' ')[0];
  return /(^|\+)(ctrl|alt)\+/.test(first) || /^f\d+$/.test(first) || first === 'escape' || ['shift+tab', 'shift+enter'].includes(first);
}

function row(program: ProgramId, keys: string | null, use: string, source: SourceId): KeyRow[] {
  return keys !== null && kept(keys) ? [{ program, keys, use, source }] : [];
}

/** A control character's key as a1 names it: 0x01 is ctrl+a, 0x7f backspace. */
function controlKey(ch: string): string {
  if (ch === '?') return 'backspace';
  if (ch === '@') return 'ctrl+space';
  if (ch === 'I' || ch === 'i') return 'tab';
  if (ch === 'M' || ch === 'm') return 'enter';
  if (ch === '[') return 'escape';
  return `ctrl+${ch.toLowerCase()}`;
}

/** CSI and SS3 sequences in the listings, by the key a terminal sends them for. */
const SEQUENCES: Readonly<Record<string, string>> = {
  '[A': 'up', '[B': 'down', '[C': 'right', '[D': 'left', '[H': 'home', '[F': 'end',
  OA: 'up', OB: 'down', OC: 'right', OD: 'left', OH: 'home', OF: 'end',
  '[2~': 'insert', '[3~': 'delete', '[5~': 'pageup', '[6~': 'pagedown', '[1~': 'home', '[4~': 'end',
  '[1;5C': 'ctrl+right', '[1;5D': 'ctrl+left', '[1;3C': 'alt+right', '[1;3D': 'alt+left',
  '[200~': '',
};

/**
 * A key sequence of a listing, already split into characters with control characters as
 * `^X` pairs, as a1 descriptors: ESC then a key is alt+key, ESC [ ... a terminal's sequence.
 */
function sequenceKeys(items: readonly string[]): string[] | null {
  const keys: string[] = [];
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (item === '^[' && i + 1 < items.length) {
      const rest = items.slice(i + 1).join('');
      if ((rest.startsWith('[') || rest.startsWith('O')) && rest.length > 1) {
        const seq = SEQUENCES[rest];
        if (seq === undefined || seq === '') return null;
        keys.push(seq);
        break;
      }
      const next = items[++i];
      const base = next.startsWith('^') ? controlKey(next.slice(1)) : next === ' ' ? 'space' : next;
      if (base.startsWith('ctrl+')) keys.push(`ctrl+alt+${base.slice(5)}`);
      else if (/^[A-Z]$/.test(base)) keys.push(`alt+shift+${base.toLowerCase()}`);
      else keys.push(`alt+${base === '+' ? 'plus' : base}`);
      continue;
    }
    keys.push(item.startsWith('^') && item.length === 2 ? controlKey(item.slice(1)) : item === ' ' ? 'space' : item === '+' ? 'plus' : item);
  }
  return keys;
}

/** bash `bind -p`: `"\C-x\C-g": abort`. */
export function bashRows(): KeyRow[] {
  const rows: KeyRow[] = [];
  for (const line of read('bash-bind-p.txt').split('\n')) {
    const m = /^"(.*)": (\S+)$/.exec(line);
    if (!m) continue;
    const items: string[] = [];
    const s = m[1];
    for (let i = 0; i < s.length; i++) {
      if (s.startsWith('\\C-', i)) {
        const ch = s[i + 3] === '\\' ? s[i + 4] : s[i + 3];
        items.push(`^${ch}`);
        i += s[i + 3] === '\\' ? 4 : 3;
      } else if (s.startsWith('\\e', i)) {
        items.push('^[');
        i += 1;
      } else if (s[i] === '\\') {
        items.push(s[i + 1]);
        i += 1;
      } else items.push(s[i]);
    }
    // "\eA": do-lowercase-version is Alt+A doing what Alt+a does: listed under Alt+a only.
    if (m[2] === 'do-lowercase-version') continue;
    const keys = sequenceKeys(items);
    if (keys) rows.push(...row('bash', chord(keys), m[2], 'bash-bind-p'));
  }
  return rows;
}

/** zsh `bindkey -M emacs`: `"^X^B" vi-match-bracket`, ranges as `"!"-"~" self-insert`. */
export function zshRows(): KeyRow[] {
  const rows: KeyRow[] = [];
  for (const line of read('zsh-bindkey-emacs.txt').split('\n')) {
    const m = /^"((?:[^"\\]|\\.)*)" (\S+)$/.exec(line);
    if (!m || m[2].startsWith('self-insert')) continue;
    const items: string[] = [];
    const s = m[1];
    for (let i = 0; i < s.length; i++) {
      if (s[i] === '^' && i + 1 < s.length) {
        items.push(`^${s[i + 1]}`);
        i += 1;
      } else if (s[i] === '\\') {
        items.push(s[i + 1]);
        i += 1;
      } else items.push(s[i]);
    }
    const keys = sequenceKeys(items);
    if (keys) rows.push(...row('zsh', chord(keys), m[2], 'zsh-bindkey'));
  }
  return rows;
}

/** Claude Code's keybindings.json: `meta` is Alt; `cmd` never reaches a terminal. */
export function claudeRows(): KeyRow[] {
  const json = JSON.parse(read('claude-keybindings.json')) as { bindings: { context: string; bindings: Record<string, string> }[] };
  const rows: KeyRow[] = [];
  for (const block of json.bindings) {
    for (const [keys, action] of Object.entries(block.bindings)) {
      if (/(^|\+)cmd\+/.test(keys)) continue;
      const descriptors = keys.split(' ').map((k) => k.replace(/(^|\+)meta\+/, '$1alt+').replace(/^ctrl\+-$/, 'ctrl+-'));
      rows.push(...row('claude', chord(descriptors), `${block.context}: ${action}`, 'claude-keybindings'));
    }
  }
  return rows;
}

/** Codex's /keymap screen: `Chat  Increase Reasoning Effort  alt-., shift-up`. */
export function codexRows(): KeyRow[] {
  const rows: KeyRow[] = [];
  for (const line of read('codex-keymap.txt').split('\n')) {
    const m = /^ {2}(\S+(?: [a-z]+)*) {2,}(\S.*?) {2,}(\S.*)$/.exec(line);
    if (!m || m[3] === 'unbound') continue;
    const leader = /\((.*)\)$/.exec(m[3]);
    for (const binding of leader ? [leader[1]] : m[3].split(', ')) {
      const descriptors = binding.split(' ').map((k) =>
        k.replace(/^((?:(?:ctrl|alt|shift|super)-)*)(.+)$/, (_all, mods: string, base: string) =>
          mods.replace(/-/g, '+') + ({ esc: 'escape', 'page-up': 'pageup', 'page-down': 'pagedown', ',': 'comma' }[base] ?? base)));
      if (descriptors.some((d) => d.includes('super+'))) continue;
      rows.push(...row('codex', chord(descriptors), `${m[1]}: ${m[2]}`, 'codex-keymap'));
    }
  }
  return rows;
}

/** vim's `:help index` lines: `|i_CTRL-G_j|	CTRL-G CTRL-J	line down...`. */
export function vimRows(): KeyRow[] {
  const rows: KeyRow[] = [];
  for (const line of read('vim-index.txt').split('\n')) {
    const m = /^\|([^|]+)\|\s+(.+?)(?:\t+|\s{2,})\s*(?:[12]\s+)?(.*)$/.exec(line);
    if (!m) continue;
    const [, tag, keyText, what] = m;
    const mode = tag.startsWith('i_') ? 'insert' : 'normal';
    const descriptors: string[] = [];
    for (const word of keyText.split(' ')) {
      // `{char}`, `{register}`: what the command reads next, not a key of it.
      if (word === '' || word.startsWith('{')) break;
      const ctrl = /^CTRL-(SHIFT-)?(.)$/.exec(word);
      if (ctrl) descriptors.push(ctrl[1] ? `ctrl+shift+${ctrl[2].toLowerCase()}` : controlKey(ctrl[2]));
      else if (word === '<Esc>') descriptors.push('escape');
      else if (word === '<F1>') descriptors.push('f1');
      else if (['<Down>', '<Up>', '<Left>', '<Right>', '<Tab>'].includes(word)) descriptors.push(word.slice(1, -1).toLowerCase());
      else if ([...word].length === 1) descriptors.push(word);
      else throw new Error(`vim-index.txt: a key form this reader does not know: ${word}`);
    }
    if (descriptors.length > 0) rows.push(...row('vim', chord(descriptors), `${mode}: ${what.trim()}`, 'vim-index'));
  }
  return rows;
}

/** The rows transcribed from screens and pages (transcribed.tsv). */
export function transcribedRows(): KeyRow[] {
  const rows: KeyRow[] = [];
  for (const line of read('transcribed.tsv').split('\n')) {
    if (line.startsWith('#') || line.trim() === '') continue;
    const [program, keys, use, source] = line.split('\t');
    rows.push(...row(program as ProgramId, chord(keys.split(' ')), use, source as SourceId));
  }
  return rows;
}

/** The rows by the reader that gives them, in table order: src/keymap/keyTableRows/ holds a
 * generated file of each (`name`.ts, exporting `constant`). */
export const ROW_GROUPS: readonly { name: string; constant: string; rows: () => KeyRow[] }[] = [
  { name: 'claude', constant: 'CLAUDE_ROWS', rows: claudeRows },
  { name: 'codex', constant: 'CODEX_ROWS', rows: codexRows },
  { name: 'bash', constant: 'BASH_ROWS', rows: bashRows },
  { name: 'zsh', constant: 'ZSH_ROWS', rows: zshRows },
  { name: 'vim', constant: 'VIM_ROWS', rows: vimRows },
  { name: 'transcribed', constant: 'TRANSCRIBED_ROWS', rows: transcribedRows },
];

export function allRows(): KeyRow[] {
  return ROW_GROUPS.flatMap((g) => g.rows());
}
