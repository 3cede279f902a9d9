// Generated from docs/keys/sources by test/keymap/keyTable.test.ts (UPDATE_KEY_TABLE=1); do not edit.
import type { KeyRow } from '../keyTable.js';
import { CLAUDE_ROWS } from './claude.js';
import { CODEX_ROWS } from './codex.js';
import { BASH_ROWS } from './bash.js';
import { ZSH_ROWS } from './zsh.js';
import { VIM_ROWS } from './vim.js';
import { TRANSCRIBED_ROWS } from './transcribed.js';

export const KEY_ROWS: readonly KeyRow[] = [...CLAUDE_ROWS, ...CODEX_ROWS, ...BASH_ROWS, ...ZSH_ROWS, ...VIM_ROWS, ...TRANSCRIBED_ROWS];
