// Every message of every plane, declared once. Field specs are checked on decode
// (src/protocol/schema.ts); payload shapes that are richer than a field spec are typed here
// and checked by the code that consumes them.
import { defineSchema, type MessageOf } from './schema.js';
import { CONTROL_OLDER_FORMS, HOLDER_STATE_OLDER_FORMS } from './olderNames.js';
import type { SurfacePatch } from '../surface/types.js';
import type { InputEvent } from '../input/events.js';
import type { HistoryPage, SearchResult } from './history.js';
import type { HolderLifecycle } from '../tabLifecycle.js';

/** Control plane: client ⇄ server. */
export const controlSchema = defineSchema({
  /** passive: a page of `a1 web`, read-only until it claims a tab (servers with the method 'passive'). */
  subscribe: { clientId: 'string', cols: 'int', rows: 'int', passive: 'boolean?' },
  /** Watch the tabs without attaching (`a1 events`): the snapshot and every change after it, and
   * nothing else; a watcher is no client of the core (never a controller, never keeps it up). */
  watch: {},
  snapshot: { rev: 'int', epoch: 'int', serverPid: 'int', tabs: 'any', notices: 'string[]', viewedTab: 'string?' },
  tab: { rev: 'int', tab: 'object' },
  tabStatus: { tab: 'object' },
  tabRemoved: { rev: 'int', id: 'string' },
  /** The whole ordered tab list at a revision (after a reorder). */
  tabs: { rev: 'int', tabs: 'any' },
  request: { id: 'int', op: 'string', args: 'object' },
  reply: { id: 'int', ok: 'boolean', result: 'any', error: 'any' },
  notice: { text: 'string' },
  hostStopping: {},
}, CONTROL_OLDER_FORMS);

/** Server ⇄ holder. */
export const holderSchema = defineSchema({
  epoch: { epoch: 'int' },
  setController: { epoch: 'int', clientId: 'string?', rev: 'int' },
  controllerSet: { rev: 'int' },
  terminate: { epoch: 'int', graceMs: 'int' },
  /** Start the child again after it exited or failed: resumed from its record, or fresh. */
  restartChild: { epoch: 'int', fresh: 'boolean', force: 'boolean?' },
  /** The validated record that resumes the tab's agent session, with its argv (ResumeAuthority of
   * src/lifecycle/records.ts); null: restarts start fresh. The holder validates it again at each
   * restart. */
  setResume: { epoch: 'int', resume: 'any' },
  ping: { n: 'int' },
  pong: { n: 'int' },
  state: { state: 'object' },
}, HOLDER_STATE_OLDER_FORMS);

/** Data plane: client ⇄ holder. */
export const dataSchema = defineSchema({
  attach: { cols: 'int', rows: 'int' },
  surface: { patch: 'object' },
  state: { state: 'object' },
  controller: { clientId: 'string?', rev: 'int' },
  /** scripted: typed all at once (`a1 send`, the page's compose line), not by a person key by
   * key; the holder gives an Enter that follows its text a write of its own (src/holder/submitPacing.ts). */
  input: { rev: 'int', events: 'any', scripted: 'boolean?' },
  resize: { rev: 'int', cols: 'int', rows: 'int' },
  inputRejected: { reason: 'string' },
  /** Copy mode (any client with a ticket, read-only): lines `from .. from + count - 1` of the model's
   * buffer, 0 = the oldest scrollback line; count is capped (src/holder/history.ts). */
  history: { reqId: 'int', from: 'int', count: 'int' },
  /** lines: Row[] with y = line number; wrapped: line numbers that continue the line before;
   * dropped: lines the full scrollback has dropped so far (a client shifts its place by the change). */
  historyPage: { reqId: 'int', total: 'int', from: 'int', lines: 'any', wrapped: 'any', alt: 'boolean', dropped: 'int' },
  /** Case-sensitive substring search; direction 'forward' | 'backward' from line `from`
   * (default: the first line forward, the last backward). */
  search: { reqId: 'int', text: 'string', from: 'int?', direction: 'string' },
  /** matches: {line, col, len}[] in scan order, in cells; truncated: more exist past the cap. */
  searchResult: { reqId: 'int', total: 'int', matches: 'any', truncated: 'boolean', dropped: 'int' },
  /** Holder → client: the child's OSC 52 clipboard write, the whole sequence (src/holder/clipboard.ts).
   * Never persisted or logged; the client writes it out only if its `allowClipboardWrite` allows. */
  clipboard: { sequence: 'string' },
  /** Holder → client (only to a client that listed the method 'promptOffer'): the restarted agent's
   * predecessor died with a prompt no reply settled; typed: it is back in the input, not sent; else
   * it could not be put back. The prompt's text is never in it. */
  promptOffer: { typed: 'boolean' },
}, HOLDER_STATE_OLDER_FORMS);

/** Child ⇄ holder: the tab bridge (`a1 status`). Status only: no text of the session. */
export const bridgeSchema = defineSchema({
  /** pid and startedAt (the process's start, wall-clock ms): the reporting process, which orders
   * reports from separate processes (src/holder/bridge.ts isLaterReport); forked: that process
   * was forked for this report (bin/a1-hook), so its pid orders it too. pid, or one of `parents`
   * (pids of the agent that ran the hook: a hook's own shell may have left the tab's session),
   * proves the report comes from a process running in the tab. sameSession: apply only when
   * sessionId is the tab's current session (Codex's notify also fires for side threads that title
   * a conversation). */
  status: { state: 'string', sessionId: 'string?', agent: 'string?', name: 'string?', pid: 'int?', startedAt: 'number?', parents: 'any?', forked: 'boolean?', sameSession: 'boolean?' },
  statusAck: { ok: 'boolean' },
});

/** What the child last reported over the bridge. */
export interface AgentReport {
  kind: string | null;
  sessionId: string | null;
  /** The agent's turn as the holder understands it (src/status/model.ts AgentPhase), null while
   * its child does not run or has never reported. */
  state: string | null;
  name: string | null;
  /** Increases with every report the holder admits, across the holder's life. */
  seq: number;
  /** The process groups of the last report's process and of the agent that ran it: when the
   *  foreground of the tab's terminal is one of them, the job there is the reporting agent, busy
   *  by its status alone (SPEC §8, §16), in a shell tab as in an agent tab. */
  groups?: number[];
}

/** What a holder reports about its tab (server and clients). */
export interface HolderState {
  tabId: string;
  holderInc: string;
  holderPid: number;
  childPid: number | null;
  childStart: string | null;
  childInc: string | null;
  lifecycle: HolderLifecycle;
  exit: { code: number | null; signal: number | null } | null;
  cols: number;
  rows: number;
  title: string;
  controller: { clientId: string | null; rev: number };
  agent: AgentReport | null;
  /** Crashes inside the restart window (SPEC §15), for the failed surface. */
  crashes: number;
  /** The chip glyph from structured status only (src/status/model.ts). */
  glyph: string;
}

/** A tab as clients see it. */
export interface TabInfo {
  id: string;
  name: string;
  nameSource: string;
  ord: number;
  cwd: string;
  lifecycle: string;
  holderPid: number | null;
  childPid: number | null;
  exit: { code: number | null; signal: number | null } | null;
  title: string;
  /** 'shell', or the agent kind the tab runs. */
  kind?: string;
  /** The agent session the tab holds. */
  sessionId?: string | null;
  /** The chip glyph the tab's holder decided from structured status. */
  glyph?: string;
  /** The agent it runs and what it last reported, as `a1 tabs --json` says (null: a shell). */
  agent?: { kind: string; state: string | null; sessionId: string | null } | null;
}

// ---- the typed wire: each plane's messages derived from its schema, split by direction ----

/** Every control-plane message; `tabs`, the tab and the reply's result are refined. */
export type ControlMessage = MessageOf<
  typeof controlSchema,
  {
    snapshot: { tabs: TabInfo[] };
    tab: { tab: TabInfo };
    tabStatus: { tab: TabInfo };
    tabs: { tabs: TabInfo[] };
    reply: { result?: unknown; error?: ReplyError | null };
  }
>;
/** What a client sends on the control plane; the server sends the rest. */
export const CONTROL_TO_SERVER = ['subscribe', 'watch', 'request'] as const;
export type ControlToServer = Extract<ControlMessage, { t: (typeof CONTROL_TO_SERVER)[number] }>;
export type ControlToClient = Exclude<ControlMessage, ControlToServer>;

/** Every server ⇄ holder message; the holder's state is refined. */
export type HolderLinkMessage = MessageOf<typeof holderSchema, { state: { state: HolderState } }>;
/** What the server sends a holder; the holder sends the rest. */
export const SERVER_TO_HOLDER = ['epoch', 'setController', 'terminate', 'restartChild', 'setResume', 'ping'] as const;
export type ToHolder = Extract<HolderLinkMessage, { t: (typeof SERVER_TO_HOLDER)[number] }>;
export type FromHolder = Exclude<HolderLinkMessage, ToHolder>;

/** Every data-plane message; the patch, the state, the input events and the pages are refined. */
export type DataMessage = MessageOf<
  typeof dataSchema,
  {
    surface: { patch: SurfacePatch };
    state: { state: HolderState };
    input: { events: InputEvent[] };
    historyPage: Pick<HistoryPage, 'lines' | 'wrapped'>;
    searchResult: { matches: SearchResult['matches'] };
  }
>;
/** What a client sends a holder on the data plane; the holder sends the rest. */
export const CLIENT_TO_HOLDER = ['attach', 'input', 'resize', 'history', 'search'] as const;
export type DataToHolder = Extract<DataMessage, { t: (typeof CLIENT_TO_HOLDER)[number] }>;
export type DataToClient = Exclude<DataMessage, DataToHolder>;

export type BridgeMessage = MessageOf<typeof bridgeSchema>;
/** What a child's `a1 status` sends its holder; the holder answers with the rest. */
export const CHILD_TO_HOLDER = ['status'] as const;
export type BridgeToHolder = Extract<BridgeMessage, { t: (typeof CHILD_TO_HOLDER)[number] }>;
export type BridgeToChild = Exclude<BridgeMessage, BridgeToHolder>;

export type HistoryPageMsg = Extract<DataMessage, { t: 'historyPage' }>;
export type SearchResultMsg = Extract<DataMessage, { t: 'searchResult' }>;

/** One row of `a1 tabs --json` (SPEC §15, listing format, plus the agent's status: issue 14). */
export interface ListingEntry {
  id: string;
  name: string;
  status: string;
  /** Where the tab's shell is now (the foreground job's directory), else where it started. */
  cwd: string;
  /** Where the tab started: where it restarts (absent from older servers). */
  startCwd?: string;
  holderPid: number | null;
  childPid: number | null;
  /** The agent the tab runs (its kind from the config or from its reports), or null for a shell. */
  agent: { kind: string; state: string | null; sessionId: string | null } | null;
  /** The chip's glyph (src/status/glyphs.ts), null when nobody knows it (no server). */
  glyph: string | null;
  /** Why the tab wants its user: needs-input (?), done (✓), error (✗), else null. */
  attention: 'needs-input' | 'done' | 'error' | null;
  /** The title its program set (absent from older servers). */
  title?: string;
  /** How its program last ended (absent from older servers). */
  exit?: { code: number | null; signal: number | null } | null;
}

/** `a1 tabs --json`: the server (null when none runs: then read from the registry) and every tab. */
export interface Listing {
  server: { pid: number; epoch: number } | null;
  tabs: ListingEntry[];
}

/** Typed errors carried in replies. */
export interface ReplyError {
  code: string;
  message: string;
}
