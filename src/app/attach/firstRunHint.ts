// The first-run hint (issue 18): one line naming the main keys as this profile binds them, shown
// under the strip until its own key dismisses it; the dismissal is a file in the profile's state
// directory, so it is dismissed for good.
import fs from 'node:fs';
import path from 'node:path';
import type { Keymap } from '../../keymap/keys.js';
import type { ActionId } from '../../keymap/actions.js';
import { chordLabel } from '../overlays/hotkeys.js';

/** The hint's own key: bound to nothing of a1's, used by none of the programs in the key table
 *  (src/keymap/keyTable.ts), and a1's only while the hint shows. */
export const HINT_KEY = 'f12';
const HINT_KEY_LABEL = 'F12';

/** Its presence is the dismissal; the content says what it is to a person who finds it. */
export const HINT_DISMISSED_FILE = 'first-run-hint-dismissed';

/** What the hint names, in the order a newcomer needs them. */
const MAIN_KEYS: readonly { actions: readonly ActionId[]; what: string }[] = [
  { actions: ['newTab'], what: 'new tab' },
  { actions: ['nextTab', 'prevTab'], what: 'switch' },
  { actions: ['closeTab'], what: 'close' },
  { actions: ['detach'], what: 'detach' },
  { actions: ['commandPrompt'], what: 'commands' },
];

/** The hint line from the effective bindings; an unbound action is left out. */
export function firstRunHintText(keymap: Keymap): string {
  const parts: string[] = [];
  for (const { actions, what } of MAIN_KEYS) {
    const labels = actions.map((a) => keymap.byAction.get(a)?.[0]).filter((k): k is string => k !== undefined).map(chordLabel);
    if (labels.length > 0) parts.push(`${labels.join(' ')} ${what}`);
  }
  return [...parts, `${HINT_KEY_LABEL} hides this`].join(' · ');
}

export function hintDismissed(stateDir: string): boolean {
  return fs.existsSync(path.join(stateDir, HINT_DISMISSED_FILE));
}

/** Records the dismissal. A failure to write only means the hint shows again next time. */
export function dismissHint(stateDir: string): void {
  try {
    fs.writeFileSync(path.join(stateDir, HINT_DISMISSED_FILE), 'The first-run hint was dismissed; delete this file to see it again.\n', { mode: 0o600 });
  } catch {
    // Shown again at the next launch: harmless.
  }
}
