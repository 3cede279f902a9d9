// What holder IO is given by the server, and the init a spawned holder receives from it
// (HolderInit, SPEC §4): keys derived per tab and incarnation, paths, and the config's limits.
import type { Paths } from '../paths.js';
import type { HolderInit } from '../protocol/holderInit.js';
import { shimDirOf } from '../paths.js';
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import type { Registry } from '../store/registry.js';
import { deriveKey } from '../security.js';
import type { ResumeAuthority } from '../lifecycle/records.js';
import type { TerminateIO } from '../lifecycle/terminate.js';
import { writerLockPath } from '../store/layout.js';
import type { CoreEvent, CoreState } from './core/index.js';

export interface HolderIODeps {
  paths: Paths;
  config: Config;
  registry: Registry;
  secret: Buffer;
  epoch: number;
  entry: string;
  log: Logger;
  holderEnv: NodeJS.ProcessEnv;
  testBindDelayMs?: number;
  testUnresponsiveMs?: number;
  /** How processes are signalled: the real terminator, or a test's faulty one (src/diag/testFaults.ts). */
  terminateIO: TerminateIO;
  /** Test-only (A1_TEST_EARLIER_SIGNALS_LOST): signals meant for a tab's earlier processes are
   * not sent, so a test can keep one alive that a1 must not start beside. */
  testEarlierSignalsLost?: boolean;
  core: HolderCore;
}

/** What holder IO needs of the server's core: its state to read, and where events go. */
export interface HolderCore {
  state(): CoreState;
  /** Feeds the core an event; a no-op once the server stopped. */
  feed(e: CoreEvent): void;
  /** Whether this server still holds the lease at its epoch; false also stops it (fenced). */
  stillWriter(): boolean;
}

/** What one spawn runs: decided by the server (the resume validator), carried here. */
export interface SpawnPlan {
  command: string[];
  /** The validated record a crash restart may resume from, and its argv. */
  resume: ResumeAuthority | null;
  agentKind: string | null;
  cwd: string;
  env: Record<string, string>;
  umask: number;
  cols: number;
  rows: number;
}

/** The init of the holder of `tabId`'s incarnation `inc`, which runs `plan`. */
export function holderInitOf(d: HolderIODeps, holderKey: Buffer, tabId: string, inc: string, plan: SpawnPlan): HolderInit {
  return {
    tabId,
    holderInc: inc,
    epoch: d.epoch,
    command: plan.command,
    resume: plan.resume,
    recoveryDir: d.paths.recoveryDir,
    bridgeKey: deriveKey(d.secret, 'bridge', tabId, inc).toString('base64'),
    bridgeSocketPath: d.paths.bridgeSock(tabId, inc),
    agentKind: plan.agentKind,
    shimDir: shimDirOf(d.entry),
    stallNoticeMs: d.config.tabsStallNoticeSeconds * 1000,
    unresponsiveRestartMs: d.testUnresponsiveMs ? d.testUnresponsiveMs * 4 : d.config.tabsUnresponsiveRestartSeconds * 1000,
    unresponsiveMs: d.testUnresponsiveMs,
    cwd: plan.cwd,
    env: plan.env,
    cols: plan.cols,
    rows: plan.rows,
    scrollback: d.config.scrollbackLines,
    umask: plan.umask,
    socketPath: d.paths.holderSock(tabId, inc),
    holderKey: holderKey.toString('base64'),
    ticketKey: deriveKey(d.secret, 'ticket', tabId, inc).toString('base64'),
    inputQueueBytes: d.config.inputQueueBytes,
    logDir: d.paths.logsDir,
    serverSocketPath: d.paths.serverSock,
    writerLockPath: writerLockPath(d.paths.stateDir),
    profile: d.paths.profile,
  };
}
