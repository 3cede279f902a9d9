// The control plane's requests (SPEC §6, §15), declared once as VS Code's IPtyService and tmux's
// command entries do it: each op's arguments, its result, and the error codes it may be refused
// with. The client's `request` is typed by this table and the server's handler table must cover
// every op in it (src/server/requests/index.ts).
import type { Ticket } from '../security.js';
import type { Counters } from '../diag/counters.js';
import type { Listing } from './messages.js';
import type { Applies } from '../config/applies.js';

/** What a new tab runs and where; every field is optional (the server's defaults stand in). */
export interface CreateArgs {
  /** An agent kind from the config; none is the tab command (a shell). */
  agent?: string | null;
  /** The program and its arguments, for a generic agent or a plain command. */
  command?: readonly string[] | null;
  name?: string;
  cwd?: string | null;
  /** Open where this tab's shell is now (src/proc.ts currentDirOf); `cwd` when that is unknown. */
  cwdOfTab?: string | null;
  /** The starting client's environment, sanitized by the server (src/server/childEnv.ts). */
  env?: NodeJS.ProcessEnv;
  umask?: number;
  cols?: number;
  rows?: number;
  expectedRev?: number;
}

/** A tab named by id, with the revision the asker saw for topology changes (conflict if stale). */
interface TabArgs {
  tabId: string;
}

/** The tab a new or found tab is; `focused` when a live tab already held the session. */
export interface OpenedTab {
  tabId: string;
  focused?: true;
}

/** A view's ticket for the tab's holder (SPEC §15). */
export interface ViewGrant {
  ticket: Ticket;
  proofKey: string;
  socketPath: string;
  holderInc: string;
  /** The asker controls the tab once the transfer lands (SPEC §15: a view takes control only from
   * nobody); false: another client controls it and the asker may only watch. */
  controller?: boolean;
}

/** A close's answer: `incomplete` when some of the tab's processes outlived their SIGKILL. */
export interface Closed {
  closed: boolean;
  incomplete?: { pids: number[]; message: string };
}

/** A session no live tab holds, as the picker lists it. */
export interface PastSession {
  sessionId: string;
  agent: string;
  name: string;
  cwd: string;
  /** closed, reboot, expired, or a record origin. */
  state: string;
}

/** `a1 tabs host status`: the server's identity and what it counts. */
export interface HostStatus {
  pid: number;
  version: string;
  epoch: number;
  uptimeMs: number;
  tabCount: number;
  /** Attached (subscribed) clients. */
  clients: number;
  profile: string;
  socket: string;
  logs: string;
  crashRecords: string;
  registry: string;
  /** Holders no tab owns (SPEC §10). */
  orphans: { count: number; oldestAgeMs: number | null };
  /** The server's counters since it started (src/diag/counters.ts), when it keeps them. */
  counters?: Counters;
}

/** `a1 tabs host reload`: what changed and when each change applies (src/config/applies.ts). */
export interface ConfigReload {
  /** The file could not be parsed at all: the server kept its config as it was. */
  kept: boolean;
  changed: { key: string; applies: Applies }[];
  /** Each problem with the file, as "file:line:column: what". */
  problems: string[];
}

/** Each op: what it takes and what it answers. */
export interface RequestTable {
  create: { args: CreateArgs; result: OpenedTab };
  /** The last viewed tab, or a new one when there is none (bare `a1`). */
  ensureTab: { args: CreateArgs; result: OpenedTab };
  /** `a1 --session`: the live tab that holds the session, or a new tab resuming it. */
  openSession: { args: CreateArgs & { sessionId: string }; result: OpenedTab };
  /** `peek`: the view does not become the last viewed tab (`a1 send`). */
  view: { args: TabArgs & { peek?: boolean }; result: ViewGrant };
  /** `wait`: answered once the tab's processes have ended (`a1 tabs stop`). */
  close: { args: TabArgs & { expectedRev?: number; wait?: boolean }; result: Closed };
  sleep: { args: TabArgs; result: { asleep: true } };
  restart: { args: TabArgs & { fresh?: boolean; force?: boolean }; result: { restarted: boolean } };
  rename: { args: TabArgs & { name: string; expectedRev?: number }; result: { name: string; rev?: number } };
  reorder: { args: TabArgs & { toIndex: number; expectedRev?: number }; result: { rev?: number } };
  claim: { args: TabArgs & { force?: boolean }; result: { controller: boolean } };
  /** Answered once every process of the stopped tabs has ended. */
  hostStop: { args: Record<string, never>; result: { stopped?: number } };
  sessions: { args: Record<string, never>; result: { sessions: PastSession[] } };
  busy: { args: TabArgs; result: { busy: boolean } };
  list: { args: Record<string, never>; result: Listing & { server: { pid: number; epoch: number } } };
  hostStatus: { args: Record<string, never>; result: HostStatus };
  reloadConfig: { args: Record<string, never>; result: ConfigReload };
}

export type RequestOp = keyof RequestTable;
export type RequestArgs<K extends RequestOp> = RequestTable[K]['args'];
export type RequestResult<K extends RequestOp> = RequestTable[K]['result'];

/** The core's refusals of a tab change (src/server/answers.ts `refusal`). */
const TOPOLOGY = ['conflict', 'no-tab', 'write-failed'] as const;

/** The codes each op may be refused with, besides those of every op (`CommonRequestError`). */
export const REQUEST_ERRORS = {
  create: ['unknown-agent', 'invalid-name', 'tabs-max', ...TOPOLOGY],
  ensureTab: ['unknown-agent', 'invalid-name', 'tabs-max', ...TOPOLOGY],
  openSession: ['bad-session', 'unknown-session', 'not-resumable', 'unknown-program', 'invalid-name', 'tabs-max', ...TOPOLOGY],
  view: ['no-tab', 'holder-unavailable'],
  close: TOPOLOGY,
  sleep: ['not-resumable', 'no-tab', 'write-failed'],
  restart: ['no-tab', 'holder-unavailable', 'write-failed'],
  rename: ['invalid-name', ...TOPOLOGY],
  reorder: ['bad-index', ...TOPOLOGY],
  claim: ['no-tab'],
  hostStop: [],
  sessions: [],
  busy: [],
  list: [],
  hostStatus: [],
  reloadConfig: [],
} as const satisfies { readonly [K in RequestOp]: readonly string[] };

/** Codes any request may end with: an op the server lacks (refused by the client, or by the
 * server), a lost connection, a replaced (fenced) or stopping server. An unexpected failure on
 * the server carries its error's own code. */
export type CommonRequestError = 'unsupported' | 'unknown-op' | 'disconnected' | 'fenced' | 'unavailable';

export type RequestErrorCode<K extends RequestOp> = (typeof REQUEST_ERRORS)[K][number] | CommonRequestError;
