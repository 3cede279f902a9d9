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
import type { ActionQueue } from './actionQueue.js';
import { routeEvents, type RouteContext, type RouterState } from './routeEvents.js';

export interface InputDeps {
  /** What a shortcut's action acts on. */
  readonly ops: ClientOps;
  /** Where actions wait for the ones typed before them. */
  readonly queue: ActionQueue;
  readonly viewLink: Pick<ViewLink, 'sendInput'>;
  readonly painter: Pick<Painter, 'lastSurface'>;
  readonly stripMouse: Pick<StripMouse, 'pressed' | 'onMouse' | 'setHovered'>;
  readonly outer: Pick<OuterTerminal, 'enhanceKeyboard'>;
  readonly detachIntervalMs: number;
  /** A lone ESC is a key once this long passed with nothing after it. */
  readonly escapeTimeoutMs: number;
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

  constructor(private readonly deps: InputDeps) {
    this.tokenizer = new InputTokenizer(deps.escapeTimeoutMs);
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
      if (this.deps.ops.copyMode.active) for (const ev of flushed) this.deps.ops.copyMode.onEvent(ev);
      else this.deps.viewLink.sendInput([...flushed]);
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
      if (reply.k === 'kitty') this.deps.outer.enhanceKeyboard();
    }
    return true;
  }

  private routeContext(): RouteContext {
    return {
      state: this.router,
      keymap: this.deps.ops.keymap,
      kitty: this.keyboard === 'kitty',
      overlayOpen: this.deps.ops.overlays.isOpen,
      copying: this.deps.ops.copyMode.active,
      stripPress: this.deps.stripMouse.pressed,
      modes: this.deps.painter.lastSurface?.modes ?? null,
      now: Date.now(),
      detachIntervalMs: this.deps.detachIntervalMs,
      hintKey: this.deps.hintKey(),
      surfaceTop: this.deps.surfaceTop(),
    };
  }

  /** With the server stopped, `r` starts one now and `q` leaves; every other key is dropped,
   * since no tab can take it. */
  private onStoppedServerKeys(events: readonly InputEvent[]): void {
    for (const ev of events) {
      if (ev.k !== 'text' || ev.mods?.alt || ev.mods?.ctrl) continue;
      if (ev.s === 'q') return this.deps.ops.finish(0, 'a1 server stopped · run a1 to start it again');
      if (ev.s === 'r') return this.deps.ops.control.allowStart();
    }
  }

  /** Input after a shortcut waits for the shortcut's action, so keys typed (or pasted) right
   * after the prompt key or F2 reach the prompt or editor it opens, never the tab. */
  private handleEvents(events: InputEvent[], queued = false): void | Promise<void> {
    if (events.length === 0) return;
    if (this.deps.ops.control.serverStopped) return this.onStoppedServerKeys(events);
    if (!queued && this.deps.queue.busy) return this.deps.queue.chain(() => this.handleEvents(events, true));
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
            this.deps.viewLink.sendInput(forward.splice(0));
            break;
          case 'overlay':
            this.deps.ops.overlays.onKey(route.ev);
            break;
          case 'copy':
            this.deps.ops.copyMode.onEvent(route.ev);
            break;
          case 'leaveCopy':
            this.deps.ops.copyMode.leave();
            break;
          case 'strip':
            this.deps.stripMouse.onMouse(route.ev);
            break;
          case 'unhover':
            this.deps.stripMouse.setHovered(null);
            break;
          case 'closeOverlays':
            this.deps.ops.overlays.closeAll();
            break;
          case 'dismissHint':
            this.deps.dismissHint();
            break;
          case 'detach':
            this.deps.noteKeyUsed('detach');
            return this.deps.ops.detachClient();
          case 'action':
            this.deps.noteKeyUsed(route.action);
            return this.thenRest(queued, () => runAction(this.deps.ops, route.action), pending);
          case 'enterCopy':
            return this.thenRest(queued, () => this.deps.ops.copyMode.enter(route.scroll, route.press), pending);
        }
      }
    }
    this.deps.viewLink.sendInput(forward);
  }

  /** Runs `step`, then the events after it. Already inside the queue: finish them in place,
   * ahead of anything typed later. */
  private thenRest(queued: boolean, step: () => Promise<void>, rest: InputEvent[]): void | Promise<void> {
    if (queued) return step().then(() => this.handleEvents(rest, true));
    this.deps.queue.chain(step);
    if (rest.length > 0) this.deps.queue.chain(() => this.handleEvents(rest, true));
  }

  /** Runs `action` after the actions typed before it. */
  enqueueAction(action: ActionId): void {
    this.deps.queue.chain(() => runAction(this.deps.ops, action));
  }

  dispose(): void {
    this.escTimer.dispose();
    this.chordTimer.dispose();
  }
}
