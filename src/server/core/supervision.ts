// Holder supervision (SPEC §4, §10): what the server does about a holder that went quiet or whose
// link closed, and what a starting server does with each recorded holder. Pure decisions on
// facts the shell gathers (liveness from /proc, the link, the restart budget); the shell carries
// them out with sockets, signals and registry writes.

/** Holders are pinged this often; one silent for HOLDER_MISSED_BEATS beats is hung (SPEC §10). */
export const HOLDER_HEARTBEAT_MS = 5_000;
export const HOLDER_MISSED_BEATS = 3;

/** A bound holder on a heartbeat tick: pinged, or, when the last HOLDER_MISSED_BEATS pings went
 * unanswered (anything the holder says answers them), timed out. Beats are counted, not timed: a
 * server that was itself stopped a while does not find every holder late at once. */
export function heartbeatAction(unansweredPings: number): 'ping' | 'timeout' {
  return unansweredPings >= HOLDER_MISSED_BEATS ? 'timeout' : 'ping';
}

export interface LinkLossFacts {
  /** This server still holds the writer lease (a fenced one touches nothing). */
  writer: boolean;
  /** The tab is still this server's, running, and wanted: not closing, sleeping or stopping. */
  wanted: boolean;
  /** A link was bound again meanwhile. */
  linked: boolean;
  /** The recorded holder process (pid and start time) still runs. */
  holderAlive: boolean;
  /** Reconnection attempts made so far. */
  attempts: number;
  maxAttempts: number;
}

/**
 * After a holder's link closed, one step at a time: a live holder is reconnected (the link broke,
 * not the holder), up to `maxAttempts`, then left untouched and reported as unverifiable; a dead
 * one is replaced, which spends the restart budget.
 */
export function afterLinkLoss(f: LinkLossFacts): 'nothing' | 'reconnect' | 'unverifiable' | 'replace' {
  if (!f.writer || !f.wanted || f.linked) return 'nothing';
  if (f.holderAlive) return f.attempts >= f.maxAttempts ? 'unverifiable' : 'reconnect';
  return 'replace';
}

export interface ConnectedFacts {
  /** The core still waits for this verification (src/server/core/holders.ts awaitsVerification). */
  awaited: boolean;
  /** The peer proved the incarnation's credential and names the expected tab, incarnation and pid. */
  sameHolder: boolean;
  /** The incarnation was committed pending: its pid was never recorded. */
  pending: boolean;
}

/**
 * A verification whose connection and first state came back, after the awaits that got them: the
 * holder is bound; one the core no longer waits for (closed, slept or stopped meanwhile) is
 * dropped; one that does not prove itself is left untouched and reported unverifiable (SPEC §4),
 * or, when its pid was never recorded, counted gone (the orphan sweep ends it if it lives).
 */
export function afterHolderConnected(f: ConnectedFacts): 'bind' | 'drop' | 'unverifiable' | 'gone' {
  if (!f.awaited) return 'drop';
  if (!f.sameHolder) return f.pending ? 'gone' : 'unverifiable';
  return 'bind';
}

export interface PendingConnectFacts {
  awaited: boolean;
  /** A holder process of the incarnation lives (found by its markers): it may still be starting. */
  holderStarting: boolean;
  /** The holder start deadline has not passed since the verification began. */
  beforeDeadline: boolean;
}

/** A pending incarnation's socket did not answer: one still starting is waited for, up to a
 * holder's start deadline (adopting it beats starting the tab twice); otherwise it is gone. */
export function afterPendingConnectFailed(f: PendingConnectFacts): 'wait' | 'gone' | 'nothing' {
  if (!f.awaited) return 'nothing';
  return f.beforeDeadline && f.holderStarting ? 'wait' : 'gone';
}

export interface StartFacts {
  desired: 'running' | 'stopped';
  /** The tab resumes an agent session (it has a resume spec and a session id) from suspension. */
  resumesSession: boolean;
  /** The session's resume record has expired (SPEC §9). */
  recordExpired: boolean;
}

/** Whether a tab whose holder is gone starts: not if it should not run; an agent session whose
 * record expired moves to history instead of starting. */
export function startAction(f: StartFacts): 'leave' | 'toHistory' | 'start' {
  if (f.desired !== 'running') return 'leave';
  if (f.resumesSession && f.recordExpired) return 'toHistory';
  return 'start';
}

/** The tab's kind once its child reported an agent session: a tab whose program is an interactive
 * shell stays a shell (the agent is the shell's guest: resuming it would replace the shell);
 * otherwise the reported kind when the config names it; a shell-kind tab running another program
 * that reports an unknown agent becomes `generic`; otherwise unchanged. */
export function kindAfterAgentReport(current: string, reported: string | null, configured: readonly string[], runsShell: boolean): string {
  if (current === 'shell' && runsShell) return current;
  if (reported && configured.includes(reported)) return reported;
  return current === 'shell' ? 'generic' : current;
}

export interface RowReport {
  lifecycle: string;
  childPid: number | null;
  childInc: string | null;
}

/** A holder's report is written to the registry only when it changes what the row says. */
export function reportChangesRow(row: RowReport, report: RowReport): boolean {
  return row.lifecycle !== report.lifecycle || row.childPid !== report.childPid || row.childInc !== report.childInc;
}

export interface ExitFacts {
  /** `shell`, or an agent kind. */
  kind: string;
  /** The tab's program is an interactive shell (the tab command, or `a1 new -- bash`), not a
   * command given with `a1 new -- CMD`. */
  runsShell: boolean;
  /** The child's lifecycle as the bound holder last reported it. */
  lifecycle: string;
}

/** A shell tab (no agent kind, running a shell) closes when its shell ends, whatever its status or
 * signal, as in tmux and zellij (SPEC §15, issue 28), also after an agent typed at that shell
 * reported over the bridge: the agent was the shell's guest, and `exit` is the user's word for
 * closing the tab. Its holder never restarts it. Any other tab is kept: a command tab stays
 * `exited` as it ended (`[r]` runs it again), an agent tab stays `exited`, or its crash is
 * restarted or fails the tab. */
export function closesOnExit(f: ExitFacts): boolean {
  return f.kind === 'shell' && f.runsShell && f.lifecycle === 'exited';
}
