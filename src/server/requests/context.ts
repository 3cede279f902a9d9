// What a request handler sees of the server, and the shape of a handler (./index.ts lists them).
// A handler answers at once (a query, a refused argument) or hands the core a request, then puts
// the core's answer in the protocol's shape.
import type { ConfigReload, RequestArgs, RequestOp, RequestResult } from '../../protocol/requests.js';
import type { HolderState, ReplyError } from '../../protocol/messages.js';
import type { Registry } from '../../store/registry.js';
import type { Config } from '../../config.js';
import type { Paths } from '../../paths.js';
import type { ProcessRef } from '../../lifecycle/retirement.js';
import type { Counters } from '../../diag/counters.js';
import type { OrphanReport } from '../orphans.js';
import type { AgentStarts } from '../agentStarts.js';
import type { CoreState, CoreTab, Reply, Request } from '../core/index.js';

export interface RequestContext {
  state(): CoreState;
  readonly registry: Registry;
  readonly config: Config;
  readonly paths: Paths;
  readonly secret: Buffer;
  readonly epoch: number;
  readonly startedAt: number;
  readonly agents: AgentStarts;
  /** The linked holder's last state, if any (src/server/holderIO.ts). */
  holderState(tabId: string): HolderState | null;
  /** The linked holder's last state, if it is the tab's current holder's. */
  liveState(tab: CoreTab): HolderState | null;
  orphanReport(): OrphanReport;
  /** Clients that subscribed (attached), for host status. */
  attachedClients(): number;
  diag?: () => { counters: Counters };
  /** The processes a close is still ending, resolving with those it could not end. */
  closeEnding(tabId: string): Promise<ProcessRef[]> | undefined;
  /** Resolves once every process of a host stop has ended. */
  hostStopped(): Promise<void>;
  /** Reads config.json again and applies it (src/server/configReload.ts). */
  reloadConfig(): ConfigReload;
}

/** The connection asking: the client's id from its subscription (empty for the CLI), and the id
 * the core knows it by. */
export interface Asker {
  id: string;
  coreId: string | null;
}

/** Arguments as they come off the wire: the declared fields, not yet checked. */
export type WireArgs<K extends RequestOp> = { readonly [P in keyof RequestArgs<K>]?: unknown } & Readonly<Record<string, unknown>>;

/** A handler's first answer: a result, a refusal, or a request for the core (with a name kept
 * for the answer: a validated one, or a closed tab's, gone from the core by then). */
export type Outcome<K extends RequestOp> = { result: RequestResult<K> } | { error: ReplyError } | { req: Request; name?: string };

/** A request handed to the core, answered when the core replies. */
export interface OpenRequest<K extends RequestOp> {
  asker: Asker;
  args: WireArgs<K>;
  name?: string;
}

export type Accepted = Extract<Reply, { ok: true }>;

export interface RequestHandler<K extends RequestOp> {
  take(ctx: RequestContext, args: WireArgs<K>): Outcome<K>;
  /** The core's acceptance in the protocol's shape; a promise for an answer that waits (a close
   * with `wait`, a host stop). Absent for ops that never reach the core. */
  answer?(ctx: RequestContext, open: OpenRequest<K>, reply: Accepted): RequestResult<K> | Promise<RequestResult<K>>;
}

export function expectedRev(a: { expectedRev?: unknown }): number | undefined {
  return typeof a.expectedRev === 'number' ? a.expectedRev : undefined;
}
