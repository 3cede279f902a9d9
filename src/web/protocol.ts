// The browser's wire (issue 20): JSON text frames on the page's one WebSocket, between the page and
// the `a1 web` process. The web process is one more client of the server (control plane) and of
// the viewed tab's holder (data plane, by ticket); the page sees what a terminal client sees: the
// tab list, and the viewed tab's surface as the holder's snapshot and patches (never a byte replay).
import type { SurfacePatch } from '../surface/types.js';
import type { InputEvent } from '../input/events.js';

/** Why a tab wants its user, as `a1 tabs --json` says (src/status/model.ts attentionOf). */
export type WebAttention = 'needs-input' | 'done' | 'error' | null;

/** One tab as the page shows it: a chip on the strip and a row in the inbox. */
export interface WebTab {
  id: string;
  name: string;
  /** The chip glyph's name (src/status/glyphs.ts GLYPHS: none, working, needs-input, …). */
  glyph: string;
  attention: WebAttention;
  /** src/tabLifecycle.ts LIFECYCLES: running, exited, failed, asleep, … */
  lifecycle: string;
  /** 'shell', or the agent kind. */
  kind: string;
  title: string;
}

/** Who controls the viewed tab, from this page's side. */
export type WebControl = 'you' | 'other' | 'none';

/** The web process → the page. */
export type WebToPage =
  /** Once, first: this page's client id, and whether the server lets pages resize. */
  | { t: 'hello'; clientId: string }
  /** The whole ordered tab list, after every change (tabs, names, glyphs). */
  | { t: 'tabs'; tabs: WebTab[] }
  /** The tab this page views now (null: none); its surface follows as a full patch. */
  | { t: 'viewing'; tabId: string | null }
  /** The viewed tab's surface: the first is full, the rest change only the rows they list. A
   * page whose socket backs up gets a full one again instead of the patches it missed. */
  | { t: 'surface'; tabId: string; patch: SurfacePatch }
  | { t: 'control'; tabId: string; control: WebControl }
  /** One sentence for the person (read-only refusal, a tab that ended, a lost server); '' clears it. */
  | { t: 'notice'; text: string };

/** The page → the web process. */
export type PageToWeb =
  | { t: 'view'; tabId: string }
  /** Take control of the viewed tab (SPEC §15 `claim`: from anyone). */
  | { t: 'claim' }
  /** Keys and pastes for the viewed tab; refused with a notice unless this page controls it.
   * scripted: the compose line's text and Enter, typed at once rather than key by key. */
  | { t: 'input'; events: InputEvent[]; scripted?: boolean }
  /** Only when this page controls the tab and the person asked to fit it to this screen. */
  | { t: 'resize'; cols: number; rows: number };

/** WebSocket close codes the page acts on. */
export const WS_CLOSE = {
  /** The session was revoked or expired: the page says so and stops reconnecting. */
  sessionEnded: 4401,
  /** The a1 web process is stopping. */
  stopping: 4001,
} as const;

/** Path of the page's WebSocket. */
export const WS_PATH = '/ws';
