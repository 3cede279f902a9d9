// The page's state and its elements (the DOM contract of issue 20 names them).
import type { WebControl, WebTab } from '../protocol.js';

/** Below this width (CSS px) the page is a phone: one screen at a time. */
export const PHONE_MAX_WIDTH = 700;
export const ENDED_TEXT = 'This session ended; run a1 web for a new link.';

function $(id: string): HTMLElement {
  const el = document.getElementById(id);
  if (!el) throw new Error(`a1 web: the page has no #${id}`);
  return el;
}

export const el = {
  strip: $('strip'),
  inbox: $('inbox'),
  back: $('back'),
  conn: $('conn'),
  tabName: $('tab-name'),
  control: $('control') as HTMLButtonElement,
  fit: $('fit') as HTMLButtonElement,
  readonly: $('readonly'),
  termWrap: $('term-wrap'),
  term: $('term'),
  empty: $('empty'),
  notice: $('notice'),
  keys: $('keys'),
  composeRow: $('compose-row') as HTMLFormElement,
  compose: $('compose') as HTMLInputElement,
};

export const state = {
  tabs: [] as WebTab[],
  viewing: null as string | null,
  /** The tab the person last chose: asked for again after a reconnect. */
  wanted: null as string | null,
  control: new Map<string, WebControl>(),
  screen: 'inbox' as 'inbox' | 'tab',
  spinnerFrame: 0,
  /** The viewed tab's size, as its last patch said. */
  surfaceSize: null as { cols: number; rows: number } | null,
  /** The session was revoked or expired: the page stops. */
  ended: false,
};

export function controlOfViewed(): WebControl {
  return state.viewing === null ? 'none' : (state.control.get(state.viewing) ?? 'none');
}

export function isPhone(): boolean {
  return window.innerWidth < PHONE_MAX_WIDTH;
}

/** What `window.a1web.state()` gives tests. */
export function pageState(): { viewing: string | null; control: WebControl; tabs: WebTab[] } {
  return { viewing: state.viewing, control: controlOfViewed(), tabs: state.tabs };
}
