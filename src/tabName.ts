// Tab names (SPEC §8 Rename): one rule for the rename editor, `/name`, `a1 new --name` and the
// server, which re-checks every name it commits.
import { graphemeSegmenter } from './graphemes.js';

/** Long enough for a branch or ticket name; chips show at most 20 columns anyway. */
export const TAB_NAME_MAX = 64;

// C0 controls, DEL and C1 controls.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

export type NameVerdict = { ok: true; name: string } | { ok: false; reason: string };

/** Trimmed, control characters stripped, non-empty, at most 64 characters (graphemes, so a
 * name is never cut inside an emoji or an accented letter). */
export function validateTabName(raw: string): NameVerdict {
  const name = raw.replace(CONTROL, '').trim();
  if (name.length === 0) return { ok: false, reason: 'A name cannot be empty.' };
  let count = 0;
  for (const _ of graphemeSegmenter().segment(name)) count++;
  if (count > TAB_NAME_MAX) return { ok: false, reason: `A name has at most ${TAB_NAME_MAX} characters.` };
  return { ok: true, name };
}
