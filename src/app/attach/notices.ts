// What the client tells the person, top right under the strip: transient notices, one that
// stays (the server link's state), and what the viewed tab's state means for their keys.
import os from 'node:os';
import type { HolderState, TabInfo } from '../../protocol/messages.js';
import { GLYPH_STATES, TAB_STATES } from '../../status/vocabulary.js';
import type { LinkState } from '../../client/controlLink.js';
import { Emitter } from '../../emitter.js';
import type { Disposable } from '../../disposable.js';
import type { Keymap } from '../../keymap/keys.js';
import { chordLabel } from '../overlays/hotkeys.js';

/** How long a transient notice stays up. */
const NOTICE_MS = 8_000;
/** The notice that stays while the server link is not connected; the stopped one names the keys
 * of TerminalInput's stopped-server mode. */
const LINK_NOTICES: Readonly<Record<LinkState, string | null>> = {
  connected: null,
  reconnecting: 'reconnecting…',
  stopped: 'a1 server stopped · [r] restart it  [q] quit',
};

export class Notices implements Disposable {
  private transient: { text: string; until: number }[] = [];
  /** Stays until replaced: the server link's state. */
  private persistent: string | null = null;
  /** Each transient notice's expiry, which draws the UI again without it. */
  private readonly expiries = new Set<NodeJS.Timeout>();
  private readonly changed = new Emitter();
  /** The notices changed: at once, and when a notice expires. */
  readonly onChange = this.changed.event;

  add(text: string): void {
    this.transient.push({ text, until: Date.now() + NOTICE_MS });
    this.changed.fire();
    const expiry = setTimeout(() => {
      this.expiries.delete(expiry);
      this.changed.fire();
    }, NOTICE_MS + 10);
    expiry.unref();
    this.expiries.add(expiry);
  }

  setLink(state: LinkState): void {
    this.persistent = LINK_NOTICES[state];
    this.changed.fire();
  }

  /** The notices up now, the one that stays first. */
  current(now = Date.now()): string[] {
    this.transient = this.transient.filter((n) => n.until > now);
    return [...(this.persistent ? [this.persistent] : []), ...this.transient.map((n) => n.text)];
  }

  dispose(): void {
    for (const expiry of this.expiries) clearTimeout(expiry);
    this.expiries.clear();
    this.changed.dispose();
  }
}

/** What the viewed tab's state asks of the person: wake it, restart it, or close it. */
export function tabStateNotice(viewed: TabInfo | undefined, state: HolderState | null, closeKey: string): string[] {
  if (viewed?.lifecycle === 'asleep') return [`${TAB_STATES.asleep.glyph} ${TAB_STATES.asleep.word} · press any key to wake it`];
  if (!state) return [];
  // Shown, never acted on by a1 itself: a stalled agent is never killed automatically (SPEC §10).
  if (state.glyph === 'stalled') return [`${GLYPH_STATES.stalled.glyph} ${GLYPH_STATES.stalled.word}: no progress for a while · Esc interrupts it · /restart restarts it`];
  if (state.glyph === 'unresponsive') return [`${GLYPH_STATES.unresponsive.glyph} ${GLYPH_STATES.unresponsive.word}: not answering its heartbeat · /restart restarts it`];
  if (state.lifecycle === 'failed') {
    const crashes = state.crashes > 0 ? `crashed ${state.crashes} times` : 'could not start';
    return [`${TAB_STATES.failed.word}: ${crashes} · read-only`, `[r] retry  [f] start fresh  [${closeKey}] close`];
  }
  if (state.lifecycle !== 'exited' || !state.exit) return [];
  const { code, signal } = state.exit;
  const how = signal ? `: ended by signal ${signalName(signal)}` : ` with status ${code}`;
  // An agent is restarted (its session resumed); a command is run again as it was given.
  const again = state.agent ? 'restart' : 'run again';
  return [`${TAB_STATES.exited.word}${how} · read-only`, `[r] ${again}  [${closeKey}] close`];
}

/** The tab is read-only here: another terminal controls it, and this key takes control. */
export function readOnlyNotice(keymap: Keymap): string {
  const keys = keymap.byAction.get('takeControl') ?? [];
  return keys.length > 0 ? `read-only: another terminal controls this tab · ${chordLabel(keys[0])} takes control` : 'read-only: another terminal controls this tab';
}

/** SIGINT for 2: the name people know a signal by; its number when the platform has no name. */
function signalName(signal: number): string {
  return Object.entries(os.constants.signals).find(([, n]) => n === signal)?.[0] ?? `${signal}`;
}
