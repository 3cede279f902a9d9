// What each input event does, table-tested as xterm.js tests evaluateKeyboardEvent: a context
// and a batch of events in, the routes (and what is left to route) out.
import { describe, expect, it } from 'vitest';
import type { InputEvent } from '../../../src/input/events.js';
import type { Keymap } from '../../../src/keymap/keys.js';
import { resolveKeymap } from '../../../src/keymap/resolve.js';
import { NO_CHORD } from '../../../src/keymap/chords.js';
import { INITIAL_DETACH_STATE } from '../../../src/keymap/detach.js';
import type { Modes } from '../../../src/surface/types.js';
import { routeEvents, type Route, type RouteContext, type RouterState } from '../../../src/app/attach/routeEvents.js';

function keymap(overrides: Record<string, string | string[]> = {}): Keymap {
  const r = resolveKeymap(overrides);
  if (!('keymap' in r)) throw new Error(r.error.message);
  return r.keymap;
}

const DEFAULT_KEYMAP = keymap();
const PREFIX_KEYMAP = keymap({ prefix: 'ctrl+b' });
const ch = (s: string): InputEvent => ({ k: 'text', s });
const alt = (s: string, type?: 'release'): InputEvent => ({ k: 'text', s, mods: { alt: true }, ...(type ? { type } : {}) });
const ctrl = (s: string): InputEvent => ({ k: 'text', s, mods: { ctrl: true } });
const release = (s: string): InputEvent => ({ k: 'text', s, type: 'release' });
const mouse = (action: 'press' | 'release' | 'move', button: 'left' | 'right' | 'wheelUp' | 'wheelDown', x: number, y: number): Extract<InputEvent, { k: 'mouse' }> => ({
  k: 'mouse',
  action,
  button,
  x,
  y,
});
const NO_MOUSE: Modes = { appCursor: false, appKeypad: false, bracketedPaste: false, mouse: 'none', mouseEncoding: 'default', focus: false, altScreen: false, kittyFlags: 0 };
const MOUSE: Modes = { ...NO_MOUSE, mouse: 'any', mouseEncoding: 'sgr' };
const ALT_SCREEN: Modes = { ...NO_MOUSE, altScreen: true };
const INITIAL: RouterState = { chord: NO_CHORD, detach: INITIAL_DETACH_STATE, takenKeys: new Set(), surfacePress: null };
const NOW = 1_000_000;

function context(over: Partial<RouteContext> = {}): RouteContext {
  return {
    state: INITIAL,
    keymap: DEFAULT_KEYMAP,
    kitty: false,
    overlayOpen: false,
    copying: false,
    stripPress: false,
    modes: NO_MOUSE,
    now: NOW,
    detachIntervalMs: 500,
    surfaceTop: 1,
    ...over,
  };
}

interface Case {
  name: string;
  ctx?: Partial<RouteContext>;
  events: InputEvent[];
  routes: Route[];
  rest?: InputEvent[];
}

const CASES: Case[] = [
  { name: 'typed text goes to the tab', events: [ch('a'), ch('b')], routes: [{ to: 'child', ev: ch('a') }, { to: 'child', ev: ch('b') }] },
  {
    name: 'a shortcut is consumed; what came before goes first and what follows waits for its action',
    events: [ch('a'), alt('a'), ch('b')],
    routes: [{ to: 'child', ev: ch('a') }, { to: 'send' }, { to: 'action', action: 'newTab' }],
    rest: [ch('b')],
  },
  { name: 'the detach key leaves at once and drops the rest', events: [ch('a'), alt('e'), ch('b')], routes: [{ to: 'child', ev: ch('a') }, { to: 'send' }, { to: 'detach' }] },
  { name: 'a first Ctrl+C reaches the tab', events: [ctrl('c')], routes: [{ to: 'child', ev: ctrl('c') }] },
  {
    name: 'a second Ctrl+C within the interval detaches, and never reaches the tab',
    events: [ctrl('c'), ctrl('c')],
    routes: [{ to: 'child', ev: ctrl('c') }, { to: 'send' }, { to: 'detach' }],
  },
  {
    name: 'a Ctrl+C after the interval counts as a first one again',
    ctx: { state: { ...INITIAL, detach: { lastCtrlCMs: NOW - 501 } } },
    events: [ctrl('c')],
    routes: [{ to: 'child', ev: ctrl('c') }],
  },
  { name: 'an open overlay takes a key and is looked at again after it', ctx: { overlayOpen: true }, events: [ch('x'), ch('y')], routes: [{ to: 'send' }, { to: 'overlay', ev: ch('x') }], rest: [ch('y')] },
  { name: 'a release with an overlay open reaches nobody', ctx: { overlayOpen: true }, events: [release('x')], routes: [] },
  { name: "a release of a key a1 did not take reaches the tab", events: [release('x')], routes: [{ to: 'child', ev: release('x') }] },
  {
    name: "a release of a key a1 took stays a1's",
    ctx: { kitty: true, state: { ...INITIAL, takenKeys: new Set(['120']) } },
    events: [release('x')],
    routes: [],
  },
  { name: 'a begun chord waits for its next key', ctx: { keymap: PREFIX_KEYMAP }, events: [ctrl('b')], routes: [] },
  {
    name: 'a chord completed runs its action',
    ctx: { keymap: PREFIX_KEYMAP },
    events: [ctrl('b'), ch('c'), ch('z')],
    routes: [{ to: 'send' }, { to: 'action', action: 'newTab' }],
    rest: [ch('z')],
  },
  {
    name: 'a begun chord that continues no binding reaches the tab as typed',
    ctx: { keymap: PREFIX_KEYMAP },
    events: [ctrl('b'), ch('z')],
    routes: [{ to: 'child', ev: ctrl('b') }, { to: 'child', ev: ch('z') }],
  },
  { name: 'the prefix twice sends one prefix', ctx: { keymap: PREFIX_KEYMAP }, events: [ctrl('b'), ctrl('b')], routes: [{ to: 'child', ev: ctrl('b') }] },
  { name: 'copy mode has the keys', ctx: { copying: true }, events: [ch('k'), ch('j')], routes: [{ to: 'copy', ev: ch('k') }], rest: [ch('j')] },
  { name: "copy mode's own key leaves it", ctx: { copying: true }, events: [alt('k'), ch('a')], routes: [{ to: 'leaveCopy' }, { to: 'child', ev: ch('a') }] },
  {
    name: 'another shortcut in copy mode leaves it and runs',
    ctx: { copying: true },
    events: [alt('.')],
    routes: [{ to: 'leaveCopy' }, { to: 'send' }, { to: 'action', action: 'nextTab' }],
  },
  { name: 'Ctrl+C in copy mode leaves it without reaching the tab', ctx: { copying: true }, events: [ctrl('c')], routes: [{ to: 'leaveCopy' }] },
  {
    name: 'a second Ctrl+C in copy mode detaches',
    ctx: { copying: true, state: { ...INITIAL, detach: { lastCtrlCMs: NOW - 100 } } },
    events: [ctrl('c'), ch('a')],
    routes: [{ to: 'leaveCopy' }, { to: 'detach' }],
  },
  {
    name: 'keys that waited for a chord go to copy mode, and the next key is looked at again',
    ctx: { keymap: PREFIX_KEYMAP, copying: true, state: { ...INITIAL, chord: { pending: [ctrl('b')] } } },
    events: [ch('z')],
    routes: [{ to: 'copy', ev: ctrl('b') }],
    rest: [ch('z')],
  },
  { name: 'the mouse on the strip is the strip’s', events: [mouse('press', 'left', 3, 0), ch('a')], routes: [{ to: 'strip', ev: mouse('press', 'left', 3, 0) }], rest: [ch('a')] },
  {
    name: 'a held chip press keeps the mouse on the strip',
    ctx: { stripPress: true },
    events: [mouse('move', 'left', 9, 5)],
    routes: [{ to: 'strip', ev: mouse('move', 'left', 9, 5) }],
  },
  {
    name: 'the mouse on a tab that asked for it reaches the tab, in surface rows',
    ctx: { modes: MOUSE },
    events: [mouse('press', 'left', 4, 6)],
    routes: [{ to: 'unhover' }, { to: 'child', ev: mouse('press', 'left', 4, 5) }],
  },
  {
    name: 'a press outside an open overlay closes it',
    ctx: { overlayOpen: true, modes: MOUSE },
    events: [mouse('press', 'left', 4, 6), mouse('press', 'left', 4, 6)],
    routes: [{ to: 'unhover' }, { to: 'closeOverlays' }, { to: 'unhover' }, { to: 'child', ev: mouse('press', 'left', 4, 5) }],
  },
  { name: 'no mouse reaches a tab before its first frame', ctx: { modes: null }, events: [mouse('press', 'left', 4, 6)], routes: [{ to: 'unhover' }] },
  {
    name: 'the wheel on a full-screen program without the mouse sends arrow keys',
    ctx: { modes: ALT_SCREEN },
    events: [mouse('press', 'wheelDown', 4, 6)],
    routes: [{ to: 'unhover' }, ...Array.from({ length: 3 }, (): Route => ({ to: 'child', ev: { k: 'key', key: 'down' } }))],
  },
  {
    name: 'the wheel up on the main screen scrolls back in copy mode',
    events: [ch('a'), mouse('press', 'wheelUp', 4, 6), ch('b')],
    routes: [{ to: 'child', ev: ch('a') }, { to: 'unhover' }, { to: 'send' }, { to: 'enterCopy', scroll: -3 }],
    rest: [ch('b')],
  },
  {
    name: 'a drag from the surface selects in copy mode, which then takes the motion',
    events: [mouse('press', 'left', 4, 6), mouse('move', 'left', 6, 6)],
    routes: [{ to: 'unhover' }, { to: 'unhover' }, { to: 'send' }, { to: 'enterCopy', scroll: 0, press: { x: 4, y: 5 } }],
    rest: [mouse('move', 'left', 6, 6)],
  },
  {
    name: 'a click on the surface that does not move selects nothing',
    events: [mouse('press', 'left', 4, 6), mouse('release', 'left', 4, 6), mouse('move', 'left', 6, 6)],
    routes: [{ to: 'unhover' }, { to: 'unhover' }, { to: 'unhover' }],
  },
  {
    name: 'the first-run hint\'s key dismisses it while it shows and reaches nothing else',
    ctx: { hintKey: 'f12' },
    events: [ch('a'), { k: 'key', key: 'f12' }, ch('b')],
    routes: [{ to: 'child', ev: ch('a') }, { to: 'send' }, { to: 'dismissHint' }],
    rest: [ch('b')],
  },
  {
    name: 'once the hint is gone its key is the tab\'s again',
    ctx: { hintKey: null },
    events: [{ k: 'key', key: 'f12' }],
    routes: [{ to: 'child', ev: { k: 'key', key: 'f12' } }],
  },
  {
    name: 'an open overlay still has the keys while the hint shows',
    ctx: { hintKey: 'f12', overlayOpen: true },
    events: [{ k: 'key', key: 'f12' }],
    routes: [{ to: 'send' }, { to: 'overlay', ev: { k: 'key', key: 'f12' } }],
  },
  {
    name: 'while the hint has its own row the surface starts under it: a click there is the strip\'s, and the tab gets its own rows',
    ctx: { modes: MOUSE, surfaceTop: 2 },
    events: [mouse('press', 'left', 4, 1), mouse('press', 'left', 4, 2)],
    routes: [{ to: 'strip', ev: mouse('press', 'left', 4, 1) }],
    rest: [mouse('press', 'left', 4, 2)],
  },
  {
    name: 'under the hint\'s own row the tab\'s first row is its row 0',
    ctx: { modes: MOUSE, surfaceTop: 2 },
    events: [mouse('press', 'left', 4, 2)],
    routes: [{ to: 'unhover' }, { to: 'child', ev: mouse('press', 'left', 4, 0) }],
  },
  {
    name: 'under the hint\'s own row a drag selects from the press in surface rows',
    ctx: { surfaceTop: 2 },
    events: [mouse('press', 'left', 4, 6), mouse('move', 'left', 6, 6)],
    routes: [{ to: 'unhover' }, { to: 'unhover' }, { to: 'send' }, { to: 'enterCopy', scroll: 0, press: { x: 4, y: 4 } }],
    rest: [mouse('move', 'left', 6, 6)],
  },
];

describe('routeEvents', () => {
  for (const c of CASES) {
    it(c.name, () => {
      const result = routeEvents(context(c.ctx), c.events);
      expect(result.routes).toEqual(c.routes);
      expect(result.rest).toEqual(c.rest ?? []);
    });
  }

  it('remembers a key a1 took with the kitty protocol, so its release is not sent', () => {
    const first = routeEvents(context({ kitty: true }), [alt('a')]);
    expect([...first.state.takenKeys]).toHaveLength(1);
    const second = routeEvents(context({ kitty: true, state: first.state }), [alt('a', 'release')]);
    expect(second.routes).toEqual([]);
    expect(second.state.takenKeys.size).toBe(0);
  });

  it('a Ctrl+C that reaches the tab is not taken, so its release reaches the tab too', () => {
    const first = routeEvents(context({ kitty: true }), [ctrl('c')]);
    expect(first.state.takenKeys.size).toBe(0);
  });

  it('asks for the chord timer whenever a chord step was taken', () => {
    expect(routeEvents(context({ keymap: PREFIX_KEYMAP }), [ctrl('b')]).chordStepped).toBe(true);
    expect(routeEvents(context({ overlayOpen: true }), [ch('x')]).chordStepped).toBe(false);
  });

  it('does not change the state it is given', () => {
    const state: RouterState = { ...INITIAL, takenKeys: new Set(['120']) };
    routeEvents(context({ kitty: true, state }), [release('x'), alt('a')]);
    expect([...state.takenKeys]).toEqual(['120']);
  });
});
