// Scripted input's Enter after text (issue 28): `a1 send TAB 'text' Enter` and the page's compose
// line hand over their text and Enter at once, and the agents read a burst of characters as a
// paste. Codex 0.169 (codex-rs/tui/src/bottom_pane/paste_burst.rs) takes an Enter read within
// 120 ms of the burst's last character (PASTE_ENTER_SUPPRESS_WINDOW) as a newline in it, so the
// text waits in the input box unsent. A person's Enter comes after a pause; a scripted one is
// written on its own once the program has taken the text: it printed after the text was written
// and then stayed quiet for longer than that window, or, for a program that echoes nothing or
// never stops drawing, once a person's pause has passed. Pure: the holder gives the times.
import type { InputEvent } from '../input/events.js';

/** Quiet after the program's answer to the text: more than Codex's 120 ms window after the last
 * character it read (it read them before it answered). */
export const SUBMIT_QUIET_MS = 200;
/** The longest an Enter waits after its text: a person's pause. */
export const SUBMIT_WAIT_MS = 1_000;

/** Printable text with no modifier: what an agent counts into a paste burst. */
export function isPlainText(ev: InputEvent): boolean {
  return ev.k === 'text' && !(ev.mods && Object.values(ev.mods).some(Boolean)) && ev.type === undefined;
}

function isEnterPress(ev: InputEvent): boolean {
  return ev.k === 'key' && ev.key === 'enter' && ev.type === undefined;
}

/** The index of the first Enter in `events` that follows text (text before it in `events`, or,
 * for the first event, `afterText`: the last input written was text); -1 when there is none. */
export function submitAfterText(events: readonly InputEvent[], afterText: boolean): number {
  let text = afterText;
  for (const [i, ev] of events.entries()) {
    if (isEnterPress(ev) && text) return i;
    text = isPlainText(ev);
  }
  return -1;
}

export interface SubmitTimes {
  now: number;
  /** When the text before the Enter was written. */
  textAt: number;
  /** When the program last printed. */
  outputAt: number;
  /** Input written that the PTY has not taken yet. */
  pendingBytes: number;
}

/** Whether the Enter after text may be written now. */
export function submitDue(t: SubmitTimes): boolean {
  const answered = t.pendingBytes === 0 && t.outputAt > t.textAt && t.now - t.outputAt >= SUBMIT_QUIET_MS;
  return answered || t.now - t.textAt >= SUBMIT_WAIT_MS;
}
