// OSC 52: copy text to the outer terminal's clipboard (`ESC ] 52 ; c ; <base64> BEL`). Works over
// SSH and inside tmux (with set-clipboard on), which is why copy mode uses it and not a local tool.

/**
 * Copied text above this many UTF-8 bytes is refused whole: its base64 (at most 100,000
 * characters) is what common terminals accept in one sequence (hterm and Windows Terminal
 * stop there; others silently drop or cut longer ones). Refusing says so; a cut clipboard would not.
 */
export const OSC52_MAX_TEXT_BYTES = 75_000;

export type Osc52Result =
  | { ok: true; sequence: string }
  | { ok: false; error: { code: 'too-large'; message: string } };

/** The sequence that puts `text` on the clipboard ('c' selection), or why it cannot. */
export function osc52(text: string): Osc52Result {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length > OSC52_MAX_TEXT_BYTES) {
    return { ok: false, error: { code: 'too-large', message: `Selection too large to copy (${bytes.length} bytes, at most ${OSC52_MAX_TEXT_BYTES}).` } };
  }
  return { ok: true, sequence: `\x1b]52;c;${bytes.toString('base64')}\x07` };
}
