// keybindings.json (SPEC §8): the user's overrides of the declared key actions, checked at
// launch. A bad file is reported in one sentence and the defaults apply, so a conflict is never
// dispatched ambiguously.
import fs from 'node:fs';
import { isActionId } from '../keymap/actions.js';
import { resolveKeymap } from '../keymap/resolve.js';
import type { Keymap } from '../keymap/keys.js';
import { tableConflicts } from '../keymap/tableConflicts.js';
import { chordLabel } from './overlays/hotkeys.js';

/**
 * The keymap in effect; `problem` says why the file was not used, `conflicts` which of the
 * user's keys a program in a tab uses (docs/keys.md). Both are shown once, as launch notices.
 */
export function loadKeymap(file: string): { keymap: Keymap; problem: string | null; conflicts: string[] } {
  const defaults = (): Keymap => {
    const r = resolveKeymap({});
    if ('error' in r) throw new Error(r.error.message); // the declared defaults are tested conflict-free
    return r.keymap;
  };
  let overrides: unknown;
  try {
    overrides = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { keymap: defaults(), problem: null, conflicts: [] };
    return { keymap: defaults(), problem: `${file} is not valid JSON; using the default keys.`, conflicts: [] };
  }
  if (!overrides || typeof overrides !== 'object' || Array.isArray(overrides)) {
    return { keymap: defaults(), problem: `${file} must hold an object of action: key; using the default keys.`, conflicts: [] };
  }
  const resolved = resolveKeymap(overrides as Record<string, string | string[]>);
  if ('error' in resolved) return { keymap: defaults(), problem: `${resolved.error.message} Using the default keys.`, conflicts: [] };
  const userActions = Object.keys(overrides).filter(isActionId);
  return { keymap: resolved.keymap, problem: null, conflicts: tableConflicts(resolved.keymap, userActions, chordLabel) };
}
