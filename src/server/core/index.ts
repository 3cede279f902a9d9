// The pure server core: see step.ts. Adapters import from here.
export { boot, step } from './step.js';
export { applyMutation, isTopology, orderedIds } from './mutations.js';
export { acceptsHolderReport, closeOutcome, sessionHolder, spawnOutcome, type TabPresence } from './guards.js';
export { HOLDER_LOSSES_ALLOWED, HOLDER_LOSS_WINDOW_MS, spendHolderRestart } from './holders.js';
export { freshTab } from './commits.js';
export { ownedHolders } from './reconcile.js';
export { controlHandover, controlOnRequest, nextControllerRev } from './controller.js';
export type * from './types.js';
export { afterLinkLoss, heartbeatAction, HOLDER_HEARTBEAT_MS, HOLDER_MISSED_BEATS, recordedHolderAction, reportChangesRow, startAction } from './supervision.js';
export { restartAction, sleepAction, wakes } from './tabActions.js';
export { createAction, isStaleRevision, reorderPlan, type ReorderPlan } from './topology.js';
export { VIEW_WAIT_MS } from './controller.js';
export { DEFAULT_TAB_SPEC } from './types.js';
