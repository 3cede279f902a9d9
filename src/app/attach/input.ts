// The client's keyboard and mouse input (SPEC §8): bytes to events, the outer terminal's replies
// to its keyboard query, the escape and chord timers, and the routes of attach/routeEvents.ts
// carried out. Shortcuts' actions run one at a time, in the order typed.
import type { InputEvent } from '../../input/events.js';
import { InputTokenizer } from '../../input/tokenizer.js';
import { tokenToEvents } from '../../input/parse.js';
import { INITIAL_DETACH_STATE } from '../../keymap/detach.js';
import { chordTimeout, CHORD_TIMEOUT_MS, NO_CHORD } from '../../keymap/chords.js';
import type { ActionId } from '../../keymap/actions.js';
import { keyboardReply, type OuterTerminal } from '../outerTerminal.js';
import { Timer, type Disposable } from '../../disposable.js';
import { runAction, type ClientOps } from './actions.js';
import type { Painter } from './painter.js';
import type { StripMouse } from './stripMouse.js';
import type { ViewLink } from './viewLink.js';
import { routeEvents, type RouteContext, type RouterState } from './routeEvents.js';

export interface InputHost extends ClientOps {
  readonly viewLink: ViewLink;
  readonly painter: Painter;
  readonly stripMouse: StripMouse;
  readonly outer: OuterTerminal;
  readonly detachIntervalMs: number;
  /** The first-run hint's key while the hint shows, else null. */
  hintKey(): string | null;
  dismissHint(): void;
  /** A shortcut's key was used (the first-run hint drops the keys it named once used). */
  noteKeyUsed(action: ActionId): void;
  /** The screen row of the surface's first row. */
  surfaceTop(): number;
}

export class TerminalInput implements Disposable {
  private readonly tokenizer: InputTokenizer;
  private router: RouterState = { chord: NO_CHORD, detach: INITIAL_DETACH_STATE, takenKeys: new Set(), surfacePress: null };
  /** The outer terminal's answer to the keyboard query: unknown until its reply or DA1's. */
  private keyboard: 'asked' | 'kitty' | 'legacy' = 'asked';
  private readonly escTimer = new Timer();
  /** Gives up on a begun chord. */
  private readonly chordTimer = new Timer();
  private actions: Promise<void> = Promise.resolve();
  private actionsPending = 0;

  constructor(
    private readonly host: InputHost,
    escapeTimeoutMs: number,
  ) {
    this.tokenizer = new InputTokenizer(escapeTimeoutMs);
  }

  readonly onStdin = (chunk: Buffer): void => {
    this.handleTokens(this.tokenizer.push(chunk, Date.now()));
    this.armEscTimer();
  };

  /** A lone ESC resolves once the tokenizer's timeout has passed. A timer may fire a moment
   * before Date.now() says the time is up (their clocks differ), and then flush() resolves
   * nothing yet: the timer is armed again rather than leaving the ESC pending until a key. */
  private armEscTimer(): void {
    const wait = this.tokenizer.pendingTimeoutMs;
    if (wait === null) return this.escTimer.clear();
    this.escTimer.set(Math.max(1, wait), () => {
      this.handleTokens(this.tokenizer.flush(Date.now()));
      this.armEscTimer();
    });
  }

  /** A begun chord that gets no next key in time reaches the tab (or copy mode) as typed. */
  private armChordTimer(): void {
    if (this.router.chord.pending.length === 0) return this.chordTimer.clear();
    this.chordTimer.set(CHORD_TIMEOUT_MS, () => {
      const { state, flushed } = chordTimeout(this.router.chord);
      this.router = { ...this.router, chord: state };
      if (this.host.copyMode.active) for (const ev of flushed) this.host.copyMode.onEvent(ev);
      else this.host.viewLink.sendInput([...flushed]);
    });
  }

  private handleTokens(tokens: ReturnType<InputTokenizer['push']>): void {
    void this.handleEvents(tokens.flatMap((token) => (this.readKeyboardReply(token.raw) ? [] : tokenToEvents(token))));
  }

  /** The outer terminal's replies to the keyboard query are a1's, never a tab's: a kitty
   * protocol answer turns a1's keyboard flags on. */
  private readKeyboardReply(raw: string): boolean {
    const reply = keyboardReply(raw);
    if (!reply) return false;
    if (this.keyboard === 'asked') {
      this.keyboard = reply.k === 'kitty' ? 'kitty' : 'legacy';
      if (reply.k === 'kitty') this.host.outer.enhanceKeyboard();
    }
    return true;
  }

  private routeContext(): RouteContext {
    return {
      state: this.router,
      keymap: this.host.keymap,
      kitty: this.keyboard === 'kitty',
      overlayOpen: this.host.overlays.isOpen,
      copying: this.host.copyMode.active,
      stripPress: this.host.stripMouse.pressed,
      modes: this.host.painter.lastSurface?.modes ?? null,
      now: Date.now(),
      detachIntervalMs: this.host.detachIntervalMs,
      hintKey: this.host.hintKey(),
      surfaceTop: this.host.surfaceTop(),
    };
  }

  /** With the server stopped, `r` starts one now and `q` leaves; every other key is dropped,
   * since no tab can take it. */
  private onStoppedServerKeys(events: readonly InputEvent[]): void {
    for (const ev of events) {
      if (ev.k !== 'text' || ev.mods?.alt || ev.mods?.ctrl) continue;
      if (ev.s === 'q') return this.host.finish(0, 'a1 server stopped · run a1 to start it again');
      if (ev.s === 'r') return this.host.control.allowStart();
    }
  }

  /** Input after a shortcut waits for the shortcut's action, so keys typed (or pasted) right
   * after the prompt key or F2 reach the prompt or editor it opens, never the tab. */
  private handleEvents(events: InputEvent[], queued = false): void | Promise<void> {
    if (events.length === 0) return;
    if (this.host.control.serverStopped) return this.onStoppedServerKeys(events);
    if (!queued && this.actionsPending > 0) return this.chain(() => this.handleEvents(events, true));
    const forward: InputEvent[] = [];
    for (let pending = events; pending.length > 0; ) {
      const routed = routeEvents(this.routeContext(), pending);
      this.router = routed.state;
      if (routed.chordStepped) this.armChordTimer();
      pending = routed.rest;
      for (const route of routed.routes) {
        switch (route.to) {
          case 'child':
            forward.push(route.ev);
            break;
          case 'send':
            this.host.viewLink.sendInput(forward.splice(0));
            break;
          case 'overlay':
            this.host.overlays.onKey(route.ev);
            break;
          case 'copy':
            this.host.copyMode.onEvent(route.ev);
            break;
          case 'leaveCopy':
            this.host.copyMode.leave();
            break;
          case 'strip':
            this.host.stripMouse.onMouse(route.ev);
            break;
          case 'unhover':
            this.host.stripMouse.setHovered(null);
            break;
          case 'closeOverlays':
            this.host.overlays.closeAll();
            break;
          case 'dismissHint':
            this.host.dismissHint();
            break;
          case 'detach':
            this.host.noteKeyUsed('detach');
            return this.host.detachClient();
          case 'action':
            this.host.noteKeyUsed(route.action);
            return this.thenRest(queued, () => runAction(this.host, route.action), pending);
          case 'enterCopy':
            return this.thenRest(queued, () => this.host.copyMode.enter(route.scroll, route.press), pending);
        }
      }
    }
    this.host.viewLink.sendInput(forward);
  }

  /** Runs `step`, then the events after it. Already inside the queue: finish them in place,
   * ahead of anything typed later. */
  private thenRest(queued: boolean, step: () => Promise<void>, rest: InputEvent[]): void | Promise<void> {
    if (queued) return step().then(() => this.handleEvents(rest, true));
    this.chain(step);
    if (rest.length > 0) this.chain(() => this.handleEvents(rest, true));
  }

  /** Actions run one at a time, in the order typed: each sees the revision and order the one
   * before it left (the server's topology change precedes its reply on the same socket). */
  enqueueAction(action: ActionId): void {
    this.chain(() => runAction(this.host, action));
  }

  chain(step: () => void | Promise<void>): void {
    this.actionsPending++;
    this.actions = this.actions.then(async () => {
      this.actionsPending--;
      await step();
    });
  }

  dispose(): void {
    this.escTimer.dispose();
    this.chordTimer.dispose();
  }
}
