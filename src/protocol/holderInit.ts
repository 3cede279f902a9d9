// What the server gives a holder it starts (on fd 3, src/holder/main.ts): the tab, its child's
// command and environment, the model's size, the sockets and the keys.
import type { ResumeAuthority } from './resume.js';

export interface HolderInit {
  tabId: string;
  holderInc: string;
  epoch: number;
  /** The tab's own start argv; the first child runs `resume.argv` instead when `resume` is given. */
  command: string[];
  cwd: string;
  env: Record<string, string>;
  cols: number;
  rows: number;
  scrollback: number;
  umask: number;
  socketPath: string;
  holderKey: string; // base64
  ticketKey: string; // base64
  inputQueueBytes: number;
  /** The record (validated by the server) a restart resumes the agent session from, and its
   * argv; null restarts with `command`. Validated again at each restart. */
  resume: ResumeAuthority | null;
  /** Where last screens of exited and failed children go (owner-only). */
  recoveryDir: string;
  bridgeKey: string; // base64
  bridgeSocketPath: string;
  /** The tab's agent kind, or null for a plain shell tab. */
  agentKind: string | null;
  /** a1's command shims (bin/shims), first on the child's PATH (src/holder/childEnvironment.ts);
   * absent from a server that has none. */
  shimDir?: string;
  /** A working agent with no progress this long shows stalled (SPEC §10). */
  stallNoticeMs: number;
  /** Missed heartbeats this long show unresponsive: 30 s (SPEC §10), shorter only in tests. */
  unresponsiveMs?: number;
  /** A child that heartbeats and then goes silent this long is restarted (SPEC §10). */
  unresponsiveRestartMs: number;
  /** The profile's server socket, writer lock and profile: a holder replaces a server that
   * died (SPEC §10). */
  serverSocketPath?: string;
  writerLockPath?: string;
  profile?: string;
}
