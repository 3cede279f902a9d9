// The pure server core: see step.ts. Adapters import from here.
//
// What it decides, simulated under faults in test/sim: topology (create, close, rename, reorder,
// revisions, the tab limit, held sessions), holder starts (pending incarnation before the spawn,
// start slots, per-start options, the restart budget), adoption and verification (verified,
// gone, alive but unverifiable), heartbeats, controller transfer, views that wait for a starting
// tab, sleep, wake, restart, idle suspension and idle exit, host stop, expired resume records,
// when resume records are written (live, sleep, quit) and spent, the child each holder runs and
// the tab's agent kind and last exit, orphans, and fencing.
//
// The server shell (../server.ts) is driven by step(): it holds one CoreState, feeds it socket,
// timer and process events, and carries out each effect with an adapter: `commit` as one registry
// transaction (a close's plan, revocations and history alongside), `putResumeRecord` under the
// same fence, `spawnHolder` (clear the way), `launchHolder`, `verifyHolder`, `sendToHolder` and
// `kill` in ../holderIO.ts, `reply` in the protocol's shape (a view's ticket). Queries (list, busy, sessions, host status) read the
// state. Left to the shell as I/O with no decision in it: the periodic refresh of running agents'
// live records, the last-viewed tab, and the reboot move to history, which happens before a
// server boots.
export { boot, step } from './step.js';
export { applyMutation, isTopology, orderedIds } from './mutations.js';
export { acceptsHolderReport, closeOutcome, sessionHolder, spawnOutcome, type TabPresence } from './guards.js';
export { awaitsVerification, HOLDER_LOSSES_ALLOWED, HOLDER_LOSS_WINDOW_MS, spendHolderRestart, startLaunches } from './holders.js';
export { freshTab } from './commits.js';
export { ownedHolders } from './reconcile.js';
export { controlHandover, controlOnRequest, nextControllerRev } from './controller.js';
export type * from './types.js';
export { afterHolderConnected, afterLinkLoss, afterPendingConnectFailed, closesOnExit, heartbeatAction, HOLDER_HEARTBEAT_MS, HOLDER_MISSED_BEATS, kindAfterAgentReport, reportChangesRow, startAction } from './supervision.js';
export { restartAction, sleepAction, wakes } from './tabActions.js';
export { createAction, isStaleRevision, reorderPlan, type ReorderPlan } from './topology.js';
export { VIEW_WAIT_MS } from './controller.js';
export { DEFAULT_TAB_SPEC } from './types.js';
