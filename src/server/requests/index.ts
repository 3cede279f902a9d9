// The server's control requests, one entry per op (src/protocol/requests.ts declares them): a
// missing op is a compile error here. Grouped where the ops are a line or two each:
// create.ts (create, ensureTab, openSession), tabActions.ts (sleep, restart, claim),
// topology.ts (rename, reorder), queries.ts (sessions, busy, list, hostStatus).
import type { RequestOp } from '../../protocol/requests.js';
import type { RequestHandler } from './context.js';
import { create, ensureTab, openSession } from './create.js';
import { view } from './view.js';
import { close } from './close.js';
import { sleep, restart, claim } from './tabActions.js';
import { rename, reorder } from './topology.js';
import { hostStop } from './hostStop.js';
import { sessions, busy, list, hostStatus } from './queries.js';
import { reloadConfig } from './reloadConfig.js';

export type RequestHandlers = { readonly [K in RequestOp]: RequestHandler<K> };

export const REQUEST_HANDLERS: RequestHandlers = {
  create,
  ensureTab,
  openSession,
  view,
  close,
  sleep,
  restart,
  rename,
  reorder,
  claim,
  hostStop,
  sessions,
  busy,
  list,
  hostStatus,
  reloadConfig,
};

/** The ops a server serves: all of them, less those a test has it lack (A1_TEST_SERVER_LACKS). */
export function servedOps(lacks: readonly string[] = []): RequestOp[] {
  return (Object.keys(REQUEST_HANDLERS) as RequestOp[]).filter((op) => !lacks.includes(op));
}
