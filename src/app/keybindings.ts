// keybindings.json (SPEC §8) at launch: the keymap in effect (src/keymap/bindingsFile.ts reads the
// file), what was wrong with the file, and which of the user's keys a program in a tab uses.
import { loadKeybindings } from '../keymap/bindingsFile.js';
import type { Keymap } from '../keymap/keys.js';
import { tableConflicts } from '../keymap/tableConflicts.js';
import { chordLabel } from './overlays/hotkeys.js';

/**
 * The keymap in effect; `problem` says where the file went wrong and what stands in, `conflicts`
 * which of the user's keys a program in a tab uses (docs/keys.md). Both are shown once, as
 * launch notices.
 */
export function loadKeymap(file: string): { keymap: Keymap; problem: string | null; conflicts: string[] } {
  const loaded = loadKeybindings(file);
  return { keymap: loaded.keymap, problem: loaded.notice, conflicts: tableConflicts(loaded.keymap, loaded.userActions, chordLabel) };
}
