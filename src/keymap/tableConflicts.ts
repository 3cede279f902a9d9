// The launch notice for key bindings that take a key from a program in the key table: the user
// chose them (keybindings.json), so a1 uses them, and says once what the program loses.
import type { ActionId } from './actions.js';
import { PROGRAMS, keyUses, type ProgramId } from './keyTable.js';
import type { Keymap } from './keys.js';

/** More than this many lines would cover the tab; the rest are counted and docs/keys.md named. */
export const MAX_CONFLICT_NOTICES = 3;

/** 'Claude Code 2.1.328' -> 'Claude Code': the notice names programs, not versions. */
function programName(id: ProgramId): string {
  return PROGRAMS[id].replace(/ \d[\d.]*.*$/, '');
}

/**
 * One sentence per key of the user's own bindings (the actions keybindings.json names, and the
 * prefix) that a program in the table uses, such as "Alt+T is bound to tabsPicker but Claude
 * Code uses it for Chat: chat:thinkingToggle, as do bash, zsh."
 */
export function tableConflicts(
  keymap: Keymap,
  userActions: readonly ActionId[],
  label: (chord: string) => string,
): string[] {
  const bound: { chord: string; what: string }[] = [];
  if (keymap.prefix !== null) bound.push({ chord: keymap.prefix, what: 'the prefix' });
  for (const action of userActions) {
    for (const chord of keymap.byAction.get(action) ?? []) {
      if (keymap.prefix !== null && chord.startsWith(`${keymap.prefix} `)) continue; // named once, as the prefix
      bound.push({ chord, what: action });
    }
  }
  const sentences: string[] = [];
  for (const { chord, what } of bound) {
    const uses = keyUses(chord);
    if (uses.length === 0) continue;
    const programs = [...new Set(uses.map((u) => u.program))];
    const [first, ...others] = programs;
    const use = uses.find((u) => u.program === first)!.use;
    const also = others.length > 0 ? `, as do ${others.map(programName).join(', ')}` : '';
    const first1 = chord.split(' ')[0];
    const key = first1 === chord ? label(chord) : `${label(first1)} (the start of ${label(chord)})`;
    sentences.push(`${key} is bound to ${what} but ${programName(first)} uses it for ${use}${also}.`);
  }
  if (sentences.length <= MAX_CONFLICT_NOTICES) return sentences;
  const rest = sentences.length - (MAX_CONFLICT_NOTICES - 1);
  return [...sentences.slice(0, MAX_CONFLICT_NOTICES - 1), `${rest} more of your keys are used by programs in tabs; see docs/keys.md.`];
}
