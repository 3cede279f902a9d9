// The keys that the programs people run in a tab use (issue 16): Claude Code, Codex, bash's
// readline, zsh's emacs keymap and vim. a1's defaults are checked against it (a default of a1's
// own may use none of these keys) and so are the user's key bindings, at launch. The rows are
// generated from the captures in docs/keys/sources by test/keymap/keyTable.test.ts, which fails
// when this data, the captures or docs/keys.md drift apart.
import { KEY_ROWS } from './keyTableRows/index.js';

export const PROGRAMS = {
  claude: 'Claude Code 2.1.328',
  codex: 'Codex 0.169',
  bash: 'bash 5.2 (readline, emacs mode)',
  zsh: 'zsh 5.9 (emacs keymap)',
  vim: 'vim 9.0',
} as const;

export type ProgramId = keyof typeof PROGRAMS;

/** Where each row comes from: a capture in docs/keys/sources, or a documentation page. */
export const SOURCES = {
  'claude-keybindings': 'Claude Code 2.1.328 `/keybindings` (the default ~/.claude/keybindings.json): docs/keys/sources/claude-keybindings.json',
  'claude-help': 'Claude Code 2.1.328 `/help` screen: docs/keys/sources/claude-help.txt',
  'claude-docs': 'https://code.claude.com/docs/en/interactive-mode (keyboard shortcuts), transcribed in docs/keys/sources/transcribed.tsv',
  'codex-keymap': 'Codex 0.169.0 `/keymap` screen, every page: docs/keys/sources/codex-keymap.txt',
  'codex-shortcuts': 'Codex 0.169.0 `?` shortcuts screen: docs/keys/sources/codex-shortcuts.txt',
  'codex-status-line': 'Codex 0.169.0 status line with a warning: docs/keys/sources/codex-status-line.txt',
  'bash-bind-p': 'bash 5.2.15 `bind -p` with no inputrc: docs/keys/sources/bash-bind-p.txt',
  'zsh-bindkey': 'zsh 5.9 `bindkey -M emacs` with no startup files: docs/keys/sources/zsh-bindkey-emacs.txt',
  'vim-index': 'vim 9.0 `:help index` (insert and normal mode): docs/keys/sources/vim-index.txt',
} as const;

export type SourceId = keyof typeof SOURCES;

export interface KeyRow {
  readonly program: ProgramId;
  /** Canonical keys (keymap/keys.ts); a chord is its keys separated by one space. */
  readonly keys: string;
  /** What the program does with it, in the program's own words. */
  readonly use: string;
  readonly source: SourceId;
}

export const KEY_TABLE: readonly KeyRow[] = KEY_ROWS;

/** The first key of a chord: pressing it is enough to take the key from the program. */
export function firstKey(keys: string): string {
  const space = keys.indexOf(' ');
  return space < 0 ? keys : keys.slice(0, space);
}

const BY_FIRST_KEY = new Map<string, KeyRow[]>();
for (const row of KEY_TABLE) {
  const k = firstKey(row.keys);
  BY_FIRST_KEY.set(k, [...(BY_FIRST_KEY.get(k) ?? []), row]);
}

/** The rows a binding of `keys` (a canonical key or chord) takes a key from. */
export function keyUses(keys: string): readonly KeyRow[] {
  return BY_FIRST_KEY.get(firstKey(keys)) ?? [];
}
