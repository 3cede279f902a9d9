// What the holder does with a child's OSC 52 (clipboard) request: writes are passed on to
// attached clients (each decides by its own `allowClipboardWrite`), reads are refused by never
// answering, so a program in a tab cannot read the user's clipboard.

/**
 * Base64 payloads longer than this are dropped: 100,000 characters is what common terminals
 * accept in one OSC 52 sequence (hterm and Windows Terminal stop there), the same bound copy
 * mode keeps (src/app/copyMode/osc52.ts).
 */
export const CLIPBOARD_MAX_PAYLOAD_CHARS = 100_000;

/** Selection targets xterm defines: clipboard, primary, secondary, select, cut buffers 0–7. */
const SELECTIONS = /^[cpqs0-7]*$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export type ClipboardRequest =
  | { kind: 'write'; sequence: string }
  | { kind: 'read' }
  | { kind: 'invalid' };

/** Classifies an OSC 52 payload (`<selections>;<base64 | ?>`, what follows `ESC ] 52 ;`).
 * A write comes back as the whole sequence to send, BEL-terminated. */
export function parseOsc52(data: string): ClipboardRequest {
  const semi = data.indexOf(';');
  if (semi < 0) return { kind: 'invalid' };
  const selections = data.slice(0, semi);
  const payload = data.slice(semi + 1);
  if (!SELECTIONS.test(selections)) return { kind: 'invalid' };
  if (payload === '?') return { kind: 'read' };
  if (payload.length > CLIPBOARD_MAX_PAYLOAD_CHARS || !BASE64.test(payload)) return { kind: 'invalid' };
  return { kind: 'write', sequence: `\x1b]52;${selections};${payload}\x07` };
}
