// The browser's wire (issue 20): JSON text frames on the page's one WebSocket, between the page and
// the `a1 web` process. The web process is one more client of the server (control plane) and of
// the viewed tab's holder (data plane, by ticket); the page sees what a terminal client sees: the
// tab list, and the viewed tab's surface as the holder's snapshot and patches (never a byte replay).
// Both directions are declared here with the wire vocabulary of src/protocol/schema.ts, and each
// side checks what it receives: the page with readWebMessage, the web process with
// readPageMessage (src/web/inputCheck.ts).
import { ProtocolError } from '../protocol/errors.js';
import { readJsonMessage } from '../protocol/jsonWire.js';
import { defineSchema, validateFields, type MessageOf, type ShapeOf } from '../protocol/schema.js';
import type { SurfacePatch } from '../surface/types.js';
import type { InputEvent } from '../input/events.js';

/** Why a tab wants its user, as `a1 tabs --json` says (src/status/model.ts attentionOf); a value
 * this page does not know sorts with the rest. */
export type WebAttention = 'needs-input' | 'done' | 'error' | null;

/** Who controls the viewed tab, from this page's side. */
export type WebControl = 'you' | 'other' | 'none';

/** One tab as the page shows it: a chip on the strip and a row in the inbox. */
export const webTabSchema = defineSchema({
  tab: {
    id: 'string',
    name: 'string',
    /** The chip glyph's name (src/status/glyphs.ts GLYPHS: none, working, needs-input, …). */
    glyph: 'string',
    /** WebAttention; present, null when the tab wants nothing. */
    attention: 'string?',
    /** src/tabLifecycle.ts LIFECYCLES: running, exited, failed, asleep, … */
    lifecycle: 'string',
    /** 'shell', or the agent kind. */
    kind: 'string',
    title: 'string',
  },
});
export type WebTab = ShapeOf<(typeof webTabSchema)['tab'], { attention: WebAttention }>;

/** The web process → the page. */
export const webToPageSchema = defineSchema({
  /** Once, first: this page's client id. */
  hello: { clientId: 'string' },
  /** The whole ordered tab list (WebTab[]), after every change (tabs, names, glyphs). */
  tabs: { tabs: 'any' },
  /** The tab this page views now (null: none, and present); its surface follows as a full patch. */
  viewing: { tabId: 'string?' },
  /** The viewed tab's surface: the first is full, the rest change only the rows they list. A
   * page whose socket backs up gets a full one again instead of the patches it missed. */
  surface: { tabId: 'string', patch: 'object' },
  /** control: a WebControl. */
  control: { tabId: 'string', control: 'string' },
  /** One sentence for the person (read-only refusal, a tab that ended, a lost server); '' clears it. */
  notice: { text: 'string' },
});
export type WebToPage = MessageOf<
  typeof webToPageSchema,
  { tabs: { tabs: WebTab[] }; viewing: { tabId: string | null }; surface: { patch: SurfacePatch }; control: { control: WebControl } }
>;

/** The page → the web process. */
export const pageToWebSchema = defineSchema({
  view: { tabId: 'string' },
  /** Take control of the viewed tab (SPEC §15 `claim`: from anyone). */
  claim: {},
  /** Keys and pastes for the viewed tab (InputEvent[], src/web/inputCheck.ts); refused with a
   * notice unless this page controls it. scripted: the compose line's text and Enter, typed at
   * once rather than key by key. */
  input: { events: 'any', scripted: 'boolean?' },
  /** Only when this page controls the tab and the person asked to fit it to this screen. */
  resize: { cols: 'int', rows: 'int' },
});
export type PageToWeb = MessageOf<typeof pageToWebSchema, { input: { events: InputEvent[] } }>;

/** A text frame from the web process as its message, or why the page refuses it: the schema's
 * fields, every tab of a tab list, and a `viewing` that says its tab or null. Never quotes it. */
export function readWebMessage(text: string): WebToPage | ProtocolError {
  const m = readJsonMessage(webToPageSchema, text);
  if (m instanceof ProtocolError) return m;
  if (m.t === 'tabs') {
    if (!Array.isArray(m.tabs)) return new ProtocolError('bad-field', 'Field "tabs" of "tabs" must be a list.');
    for (const tab of m.tabs) {
      const checked = validateFields(webTabSchema, 'tab', tab);
      if (checked instanceof ProtocolError) return checked;
    }
  }
  if (m.t === 'viewing' && m.tabId === undefined) return new ProtocolError('bad-field', 'Field "tabId" of "viewing" must be string or null.');
  return m as WebToPage;
}

/** WebSocket close codes the page acts on. */
export const WS_CLOSE = {
  /** The session was revoked or expired: the page says so and stops reconnecting. */
  sessionEnded: 4401,
  /** The a1 web process is stopping. */
  stopping: 4001,
} as const;

/** Path of the page's WebSocket. */
export const WS_PATH = '/ws';
