// The status glyph a chip shows before its name (SPEC §8). The lead maps a tab's structured
// status to a Glyph; this module only says how each one looks.

export const GLYPHS = [
  'none', 'working', 'needs-input', 'done', 'error', 'starting', 'asleep', 'unresponsive', 'stalled',
] as const;
export type Glyph = (typeof GLYPHS)[number];

/** The braille "dots" spinner: every frame is one column wide, so a spinning chip never changes width. */
export const SPINNER_FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'] as const;

/**
 * The frames of each glyph; a still glyph has one frame, `none` has none. Every frame is exactly
 * one column wide. Unresponsive (`!`: the child stopped answering its bridge heartbeat) and
 * stalled (`⧗`: working, but no progress for a long time) must differ from each other and from
 * the rest (SPEC §10); `…` is avoided because it already marks clipped names and the overflow chip.
 */
export const GLYPH_FRAMES: Readonly<Record<Glyph, readonly string[]>> = {
  none: [],
  working: SPINNER_FRAMES,
  'needs-input': ['?'],
  done: ['✓'],
  error: ['✗'],
  // Starting spins like working; the strip component dims it.
  starting: SPINNER_FRAMES,
  asleep: ['◌'],
  unresponsive: ['!'],
  stalled: ['⧗'],
};

/** The glyph's text at a spinner frame ('' for `none`). */
export function glyphText(glyph: Glyph, spinnerFrame: number): string {
  const frames = GLYPH_FRAMES[glyph];
  if (frames.length === 0) return '';
  const i = Math.abs(Math.trunc(spinnerFrame)) % frames.length;
  return frames[Number.isFinite(i) ? i : 0];
}
