// The first-run hint (issues 18, 28): one line naming the main keys as this profile binds them.
// Each key named drops out of it once used, and the hint goes by itself once all were used, or at
// once by its own key. Both are remembered in the profile's state directory: the keys used so
// far (action ids, nothing typed) and the dismissal, so it never comes back.
import fs from 'node:fs';
import path from 'node:path';
import type { Keymap } from '../../keymap/keys.js';
import { isActionId, type ActionId } from '../../keymap/actions.js';
import { chordLabel } from '../overlays/hotkeys.js';

/** The hint's own key: bound to nothing of a1's, used by none of the programs in the key table
 *  (src/keymap/keyTable.ts), and a1's only while the hint shows. */
export const HINT_KEY = 'f12';
const HINT_KEY_LABEL = 'F12';

/** Its presence is the dismissal; the content says what it is to a person who finds it. */
export const HINT_DISMISSED_FILE = 'first-run-hint-dismissed';
/** The actions whose keys were used while the hint showed, one id a line. */
export const HINT_KEYS_USED_FILE = 'first-run-hint-keys-used';

/** What the hint names, in the order a newcomer needs them. Either action of a part is its use. */
const MAIN_KEYS: readonly { actions: readonly ActionId[]; what: string }[] = [
  { actions: ['newTab'], what: 'new tab' },
  { actions: ['nextTab', 'prevTab'], what: 'switch' },
  { actions: ['closeTab'], what: 'close' },
  { actions: ['detach'], what: 'detach' },
  { actions: ['commandPrompt'], what: 'commands' },
];

/** The actions the hint names. */
export const HINT_ACTIONS: ReadonlySet<ActionId> = new Set(MAIN_KEYS.flatMap((k) => k.actions));

/**
 * The hint line from the effective bindings, leaving out an unbound action and a part whose key
 * was used; null once no part is left: the user has used every key it names.
 */
export function firstRunHintText(keymap: Keymap, used: ReadonlySet<ActionId> = new Set()): string | null {
  const parts: string[] = [];
  for (const { actions, what } of MAIN_KEYS) {
    if (actions.some((a) => used.has(a))) continue;
    const labels = actions.map((a) => keymap.byAction.get(a)?.[0]).filter((k): k is string => k !== undefined).map(chordLabel);
    if (labels.length > 0) parts.push(`${labels.join(' ')} ${what}`);
  }
  return parts.length === 0 ? null : [...parts, `${HINT_KEY_LABEL} hides this`].join(' · ');
}

export function hintDismissed(stateDir: string): boolean {
  return fs.existsSync(path.join(stateDir, HINT_DISMISSED_FILE));
}

/** Records the dismissal. A failure to write only means the hint shows again next time. */
export function dismissHint(stateDir: string): void {
  try {
    fs.writeFileSync(path.join(stateDir, HINT_DISMISSED_FILE), 'The first-run hint was dismissed; delete this file to see it again.\n', { mode: 0o600 });
    fs.rmSync(path.join(stateDir, HINT_KEYS_USED_FILE), { force: true });
  } catch {
    // Shown again at the next launch: harmless.
  }
}

/** The named keys used so far, by this or an earlier launch; an unreadable file is none. */
export function hintKeysUsed(stateDir: string): Set<ActionId> {
  try {
    const lines = fs.readFileSync(path.join(stateDir, HINT_KEYS_USED_FILE), 'utf8').split('\n');
    return new Set(lines.filter(isActionId).filter((a) => HINT_ACTIONS.has(a)));
  } catch {
    return new Set();
  }
}

/** Adds `action` to the keys used, with what another launch recorded meanwhile. A failure to
 *  write only means that key is named again next time. */
export function recordHintKeyUsed(stateDir: string, action: ActionId): void {
  const used = [...new Set([...hintKeysUsed(stateDir), action])];
  try {
    fs.writeFileSync(path.join(stateDir, HINT_KEYS_USED_FILE), used.map((a) => `${a}\n`).join(''), { mode: 0o600 });
  } catch {
    // Named again at the next launch: harmless.
  }
}
