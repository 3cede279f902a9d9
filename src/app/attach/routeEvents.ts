// What each input event does, as a pure function of the client's state (xterm.js's
// evaluateKeyboardEvent): to the tab, to an a1 action, to an open overlay, to copy mode, to the
// strip, or a detach. The client applies the routes in order; it owns the effects.
import type { InputEvent } from '../../input/events.js';
import { isChildOnly, isKeyInput, keyIdentity } from '../../input/kittyKeys.js';
import type { ActionId } from '../../keymap/actions.js';
import { chordStep, NO_CHORD, type ChordResult, type ChordState } from '../../keymap/chords.js';
import { onCtrlC, type DetachState } from '../../keymap/detach.js';
import { eventKey, type Keymap } from '../../keymap/keys.js';
import type { Modes } from '../../surface/types.js';
import { WHEEL_LINES } from './geometry.js';

type MouseEvent = Extract<InputEvent, { k: 'mouse' }>;

/** What routing remembers from one event to the next. */
export interface RouterState {
  /** A chord begun and waiting for its next key. */
  readonly chord: ChordState;
  readonly detach: DetachState;
  /** Keys whose press a1 took for itself: their release never reaches the tab either (a child
   * that asked for event types would see a release without its press). */
  readonly takenKeys: ReadonlySet<string>;
  /** A left press on the live surface of a tab that does not own the mouse: a drag from it
   * selects in copy mode. Surface coordinates. */
  readonly surfacePress: { x: number; y: number } | null;
}

/** The client as routing sees it. */
export interface RouteContext {
  readonly state: RouterState;
  readonly keymap: Keymap;
  /** The outer terminal speaks the kitty keyboard protocol (releases arrive). */
  readonly kitty: boolean;
  /** An overlay or the rename editor is open. */
  readonly overlayOpen: boolean;
  readonly copying: boolean;
  /** A left press on a chip is held (it may become a drag). */
  readonly stripPress: boolean;
  /** The viewed surface's input modes; null before its first frame. */
  readonly modes: Modes | null;
  readonly now: number;
  readonly detachIntervalMs: number;
  /** The first-run hint's own key while the hint shows (attach/firstRunHint.ts); else absent. */
  readonly hintKey?: string | null;
  /** The screen row of the surface's first row: the strip's rows, and the first-run hint's own
   *  row while it has one (attach/hintPlacement.ts), are above it. */
  readonly surfaceTop: number;
}

export type Route =
  /** Goes to the tab with the other child routes, at the next `send` or once every event is
   * routed. */
  | { to: 'child'; ev: InputEvent }
  /** What went to the tab so far is sent now, ahead of what follows. */
  | { to: 'send' }
  | { to: 'overlay'; ev: InputEvent }
  | { to: 'copy'; ev: InputEvent }
  | { to: 'leaveCopy' }
  | { to: 'strip'; ev: MouseEvent }
  /** The pointer left the strip: no chip is hovered. */
  | { to: 'unhover' }
  /** A press outside an open overlay or editor closes it. */
  | { to: 'closeOverlays' }
  | { to: 'action'; action: ActionId }
  | { to: 'enterCopy'; scroll: number; press?: { x: number; y: number } }
  /** The first-run hint's key: the hint goes for good; the key reaches nothing else. */
  | { to: 'dismissHint' }
  | { to: 'detach' };

export interface RouteResult {
  readonly state: RouterState;
  readonly routes: Route[];
  /** Events not routed yet: after an action, a copy-mode entry or a route that changes the
   * context (overlay, copy mode, strip), route them again with the context as it is then. */
  readonly rest: InputEvent[];
  /** A chord step was taken: the chord's timer starts again. */
  readonly chordStepped: boolean;
}

/** Routes `events` in order until one ends the batch or may change the context. */
export function routeEvents(ctx: RouteContext, events: readonly InputEvent[]): RouteResult {
  let { chord, detach, surfacePress } = ctx.state;
  const taken = new Set(ctx.state.takenKeys);
  let copying = ctx.copying;
  let overlayOpen = ctx.overlayOpen;
  let chordStepped = false;
  const routes: Route[] = [];
  const done = (rest: readonly InputEvent[], final: Route[] = []): RouteResult => ({
    state: { chord, detach, takenKeys: taken, surfacePress },
    routes: [...routes, ...final],
    rest: [...rest],
    chordStepped,
  });
  /** Remembers a key press a1 takes (an overlay's, copy mode's, a binding's or a begun chord's;
   * Ctrl+C, counting toward a detach, still goes to the tab), so its release stays a1's too. */
  const noteTaken = (ev: InputEvent, result: ChordResult | null): void => {
    if (!ctx.kitty || !isKeyInput(ev)) return;
    if (overlayOpen || copying || result?.kind === 'pending' || (result?.kind === 'action' && result.action !== 'detachTwice')) taken.add(keyIdentity(ev));
  };
  const toTabOrCopy = (ev: InputEvent): void => {
    routes.push(copying ? { to: 'copy', ev } : { to: 'child', ev });
  };
  const ctrlC = () => {
    const step = onCtrlC(detach, ctx.now, ctx.detachIntervalMs);
    detach = step.state;
    return step.action;
  };

  for (let i = 0; i < events.length; i++) {
    const ev = events[i];
    // The release of a key a1 took. (A held key's repeats count as presses, as with a legacy
    // terminal's autorepeat.)
    if (isKeyInput(ev) && ev.type === 'release' && taken.delete(keyIdentity(ev))) continue;
    if (isChildOnly(ev)) {
      // A release (or a modifier alone) is never a1's key; the tab gets it when nothing of a1's is
      // open, and the holder sends it only to a child that asked for it.
      if (!overlayOpen && !copying) routes.push({ to: 'child', ev });
      continue;
    }
    if (overlayOpen && ev.k !== 'mouse') {
      noteTaken(ev, null);
      routes.push({ to: 'send' }, { to: 'overlay', ev });
      return done(events.slice(i + 1));
    }
    if (ctx.hintKey && !copying && chord.pending.length === 0 && eventKey(ev) === ctx.hintKey) {
      if (ctx.kitty && isKeyInput(ev)) taken.add(keyIdentity(ev));
      return done(events.slice(i + 1), [{ to: 'send' }, { to: 'dismissHint' }]);
    }
    const step = chordStep(chord, ev, ctx.keymap);
    chord = step.state;
    chordStepped = true;
    noteTaken(ev, step.result);
    step.flushed.forEach(toTabOrCopy);
    if (copying && step.flushed.length > 0) {
      // Keys that waited went to copy mode and may have ended it: this one is looked at again
      // with the context as it is then (from no chord, where the waiting keys left it).
      chord = NO_CHORD;
      return done(events.slice(i));
    }
    if (step.result.kind === 'pending') continue;
    const action = step.result.kind === 'action' ? step.result.action : null;
    if (step.result.kind === 'action' && action === 'sendPrefix') {
      // The prefix pressed twice: the tab gets one, as tmux's send-prefix does.
      toTabOrCopy(step.result.events[0]);
      if (copying) return done(events.slice(i + 1));
      continue;
    }
    const onStrip = ev.k === 'mouse' && (ev.y < ctx.surfaceTop || ctx.stripPress);
    if (copying && !onStrip) {
      // Copy mode has the keys: nothing reaches the tab. copyMode's key leaves it, as do Ctrl+C
      // (still counting toward a detach) and any other shortcut, which then runs.
      if (action === 'copyMode' || action === 'detachTwice') {
        const detaching = action === 'detachTwice' && ctrlC() === 'detach';
        routes.push({ to: 'leaveCopy' });
        copying = false;
        if (detaching) return done([], [{ to: 'detach' }]);
        continue;
      }
      if (!action) {
        routes.push({ to: 'copy', ev });
        return done(events.slice(i + 1));
      }
      routes.push({ to: 'leaveCopy' });
      copying = false;
    }
    // Leaves at once, ahead of any queued action: the key itself never reaches the tab.
    if (action === 'detach') return done([], [{ to: 'send' }, { to: 'detach' }]);
    if (action === 'detachTwice') {
      if (ctrlC() === 'detach') return done([], [{ to: 'send' }, { to: 'detach' }]);
      routes.push({ to: 'child', ev });
      continue;
    }
    // A matched shortcut is consumed; what came before it goes first.
    if (action) return done(events.slice(i + 1), [{ to: 'send' }, { to: 'action', action }]);
    if (ev.k !== 'mouse') {
      routes.push({ to: 'child', ev });
      continue;
    }
    if (onStrip) {
      routes.push({ to: 'strip', ev });
      return done(events.slice(i + 1));
    }
    routes.push({ to: 'unhover' });
    if (ev.action === 'press' && overlayOpen) {
      routes.push({ to: 'closeOverlays' });
      overlayOpen = false;
      continue;
    }
    const modes = ctx.modes;
    if (!modes) continue;
    const wheel = ev.action === 'press' && (ev.button === 'wheelUp' || ev.button === 'wheelDown');
    if (modes.mouse === 'none' && wheel && modes.altScreen) {
      // As common terminals do: a full-screen program without the mouse scrolls by keys.
      const key = ev.button === 'wheelUp' ? 'up' : 'down';
      for (let n = 0; n < WHEEL_LINES; n++) routes.push({ to: 'child', ev: { k: 'key', key } });
      continue;
    }
    if (modes.mouse === 'none' && !modes.altScreen && ev.button === 'left' && ev.action === 'press') {
      surfacePress = { x: ev.x, y: ev.y - ctx.surfaceTop };
      continue;
    }
    if (modes.mouse === 'none' && ev.action === 'move' && ev.button === 'left' && surfacePress) {
      // A drag selects: copy mode opens with the cursor at the press, then takes this motion
      // and what follows as its own.
      const press = surfacePress;
      surfacePress = null;
      return done(events.slice(i), [{ to: 'send' }, { to: 'enterCopy', scroll: 0, press }]);
    }
    if (ev.action === 'release') surfacePress = null;
    // The wheel scrolls this client's view of the history: copy mode, scrolled back.
    if (modes.mouse === 'none' && wheel && ev.button === 'wheelUp') return done(events.slice(i + 1), [{ to: 'send' }, { to: 'enterCopy', scroll: -WHEEL_LINES }]);
    if (modes.mouse === 'none') continue;
    routes.push({ to: 'child', ev: { ...ev, y: ev.y - ctx.surfaceTop } });
  }
  return done([]);
}
