// The tab's child under supervision (SPEC §10, §15): started fresh or resumed, its output fed to
// the model, its exit settled (input it never took dropped, its last screen kept), and restarted
// or not as the pure supervisor (supervisor.ts) decides. The holder owns restarts, so they work
// while no server runs.
import { newIncarnation } from '../security.js';
import { procStartTime } from '../proc.js';
import type { DataToClient, HolderState } from '../protocol/messages.js';
import { planRetirement, sessionMembers } from '../lifecycle/retirement.js';
import { executeTermination, killWithoutGrace, type TerminateIO } from '../lifecycle/terminate.js';
import { snapshotProcesses } from '../lifecycle/processSnapshot.js';
import { isCrash, type ChildExit, type InterruptKey } from '../lifecycle/restart.js';
import { parseResumeAuthority, resumeArgvAt, type ResumeAuthority } from '../lifecycle/records.js';
import type { Logger } from '../log.js';
import { errorCode } from '../log.js';
import { recoveryFile, writeRecoveryFile } from './recovery.js';
import { ParseBudget } from './parseBudget.js';
import { ChildProcess } from './childProcess.js';
import type { TerminalModel } from './terminalModel.js';
import type { ClientInput } from './clientInput.js';
import type { PromptOffer, KeyPhases } from './promptOffer.js';
import type { AgentStatus } from './agentStatus.js';
import { isShellCommand } from '../lifecycle/agents.js';
import type { PtyWriter } from './ptyWriter.js';
import type { HolderInit } from '../protocol/holderInit.js';
import { INITIAL_SUPERVISOR, reduceSupervisor, type Lifecycle, type SupervisorEffect, type SupervisorEvent, type SupervisorState } from './supervisor.js';

export interface ChildHost {
  readonly init: HolderInit;
  readonly log: Logger;
  readonly terminateIO: TerminateIO;
  readonly bridgeKey: Buffer;
  readonly model: TerminalModel;
  readonly input: ClientInput<KeyPhases>;
  readonly offer: PromptOffer;
  readonly agent: AgentStatus;
  /** To every viewing client. */
  tellAttached(msg: DataToClient): void;
  /** A frame is due. */
  frame(): void;
  broadcastState(): void;
}

export class SupervisedChild {
  private child: ChildProcess | null = null;
  private childStart: string | null = null;
  private childInc: string | null = null;
  /** The child's session id (node-pty makes the child a session leader): what a close ends. */
  private childSid: number | null = null;
  private exit: HolderState['exit'] = null;
  /** Lifecycle, crashes, restarts and the close, as supervisor.ts decides them. */
  private sup: SupervisorState = INITIAL_SUPERVISOR;
  private restartTimer: NodeJS.Timeout | null = null;
  /** When the controller last typed each interrupt key to this child outside the agent's turn
   * (Date.now()): the exit policy's facts for a death by that key's signal. */
  private interruptKeyAt: Partial<Record<InterruptKey, number>> = {};
  private resume: ResumeAuthority | null;
  /** Test-only (A1_TEST_HOLDER_CLOCK_SKEW_MS in the tab's environment): the clock a restart
   * validates its record with runs this far ahead, as after a server outage that long. */
  private readonly clockSkewMs: number;
  /** A test's clock: every restart after a crash waits at least this long. */
  private readonly testRestartDelayMs: number;
  private readonly parseBudget = new ParseBudget();
  /** When the child last printed (performance.now()). */
  outputAt = 0;
  private readonly init: HolderInit;
  private readonly log: Logger;
  private readonly model: TerminalModel;
  private readonly input: ClientInput<KeyPhases>;
  private readonly offer: PromptOffer;
  private readonly agent: AgentStatus;

  constructor(private readonly host: ChildHost) {
    ({ init: this.init, log: this.log, model: this.model, input: this.input, offer: this.offer, agent: this.agent } = host);
    this.resume = parseResumeAuthority(this.init.resume);
    this.clockSkewMs = Number(this.init.env.A1_TEST_HOLDER_CLOCK_SKEW_MS) || 0;
    this.testRestartDelayMs = Number(this.init.env.A1_TEST_RESTART_DELAY_MS) || 0;
  }

  get lifecycle(): Lifecycle {
    return this.sup.lifecycle;
  }

  get terminating(): boolean {
    return this.sup.terminating;
  }

  /** The running child's input; null while none runs. */
  get writer(): PtyWriter | null {
    return this.child?.writer ?? null;
  }

  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  /** The running child's incarnation, which its bridge token names; null while none runs. */
  runningInc(): string | null {
    return this.sup.lifecycle === 'running' ? this.childInc : null;
  }

  /** The session the child leads, once one was started. */
  get sessionId(): number | null {
    return this.childSid;
  }

  /** The child's part of the holder's state. */
  snapshot(): Pick<HolderState, 'childPid' | 'childStart' | 'childInc' | 'lifecycle' | 'exit' | 'crashes'> {
    return { childPid: this.pid, childStart: this.childStart, childInc: this.childInc, lifecycle: this.sup.lifecycle, exit: this.exit, crashes: this.sup.crashTimes.length };
  }

  /** The first child: the server validated the resume it gave this holder just now (SPEC §9). */
  start(): void {
    this.spawnChild(this.resume ? 'granted' : 'fresh');
  }

  /** The server's resume authority for later restarts (null: they start fresh). */
  setResume(resume: unknown): void {
    this.resume = parseResumeAuthority(resume);
    this.log.info('resume-set', { state: this.resume?.record.origin ?? 'none' });
  }

  resize(cols: number, rows: number): void {
    this.child?.resize(cols, rows);
  }

  /** The status clock: a child that heartbeats and then goes silent is restarted. */
  tick(now: number): void {
    const heartbeatSilence = this.agent.heartbeatSilenceMs(now);
    this.supervise({ k: 'tick', heartbeatSilenceMs: heartbeatSilence, restartAfterMs: this.init.unresponsiveRestartMs, childRunning: this.child !== null });
  }

  /** `granted`: the resume the server gave at start; `check`: the kept resume if the validator
   * still allows it (a restart, SPEC §9); `fresh`: the tab's own start argv, never a resume. */
  private spawnChild(mode: 'granted' | 'check' | 'fresh'): void {
    const allowed = mode === 'check' ? resumeArgvAt(this.resume, this.init.tabId, Date.now() + this.clockSkewMs) : null;
    if (allowed && allowed.argv === null && allowed.reason !== 'none') this.log.info('resume-refused', { reason: allowed.reason });
    const resumeArgv = mode === 'granted' ? (this.resume?.argv ?? null) : (allowed?.argv ?? null);
    // A session resumed is one its agent had saved.
    if (resumeArgv && this.resume) this.agent.resumed(this.resume.record.sessionId);
    const argv = resumeArgv ?? this.init.command;
    const childInc = (this.childInc = newIncarnation());
    this.interruptKeyAt = {};
    const { cwd, env, umask, tabId, bridgeSocketPath } = this.init;
    const spec = { argv, cwd, env, umask, tabId, bridgeSocketPath, bridgeKey: this.host.bridgeKey, childInc, cols: this.model.cols, rows: this.model.rows, shimDir: this.init.shimDir };
    let child: ChildProcess;
    try {
      child = ChildProcess.spawn(
        spec,
        {
          data: (data) => this.onData(child, data),
          exit: (exit) => this.onChildExited(child, childInc, exit),
          inputTaken: () => this.input.releaseHeld(),
        },
        this.log,
      );
    } catch (err) {
      this.log.error('spawn-failed', { code: errorCode(err) });
      this.supervise({ k: 'spawnFailed' });
      this.exit = { code: null, signal: null };
      this.model.note(`\r\na1: could not start ${JSON.stringify(argv[0])}.\r\n`);
      this.input.refuseStarting();
      this.agent.note({ k: 'process', what: 'failed', at: Date.now() });
      this.host.broadcastState();
      return;
    }
    this.child = child;
    this.childStart = child.startTime;
    this.childSid = child.pid;
    this.supervise({ k: 'started' });
    this.agent.noteQuietly({ k: 'process', what: 'starting', at: Date.now() });
    this.agent.note({ k: 'process', what: 'running', at: Date.now() });
    this.log.info('child-started', { childPid: child.pid, resumed: resumeArgv !== null });
    this.offer.childStarted(Date.now());
    this.input.awaitChildReady();
    this.host.broadcastState();
  }

  private onData(child: ChildProcess, data: Uint8Array): void {
    const started = performance.now();
    this.model.feed(data);
    this.outputAt = performance.now();
    this.parseBudget.spend(started, this.outputAt);
    this.input.childPrinted();
    this.offer.childPrinted();
    this.host.frame();
    // A tab nobody views parses at most a share of each window, so a background flood leaves
    // the CPU to the tab someone is typing in; its output is still read, only less eagerly.
    child.pauseReading(this.agent.viewed ? 0 : this.parseBudget.waitMs(performance.now()));
  }

  private onChildExited(child: ChildProcess, childInc: string, exit: ChildExit): void {
    // node-pty emits exit after the PTY reached EOF; waiting for the model to finish parsing what
    // was read makes the last screen complete before it is fixed.
    this.model.whenParsed(() => this.onExitOf(child, childInc, exit));
    // Test-only (A1_TEST_LATE_EXIT_MS in the tab's environment): the exit is delivered again
    // this much later, as a late notification of a child since replaced would arrive.
    const lateMs = Number(this.init.env.A1_TEST_LATE_EXIT_MS) || 0;
    if (lateMs > 0) setTimeout(() => this.onExitOf(child, childInc, exit), lateMs).unref();
  }

  /** Only the running child's exit counts: one of an incarnation already replaced (or already
   * handled) is discarded, so it can neither end nor restart its successor (SPEC §10). */
  private onExitOf(child: ChildProcess, childInc: string, exit: ChildExit): void {
    if (this.child === child) return this.onChildExit(child, exit);
    this.log.info('child-exit-superseded', { childPid: child.pid, childInc });
  }

  /** The holder owns restarts (SPEC §15), so they work while no server runs. */
  private onChildExit(child: ChildProcess, exit: ChildExit): void {
    this.child = null;
    const terminating = this.sup.terminating;
    // Input admitted but never taken is not replayed into the next child (SPEC §7): it is dropped
    // and the user is told its delivery is uncertain (part of it may have been read).
    const undelivered = child.writer.pendingBytes + this.input.dropHeld();
    if (undelivered > 0 && !terminating) {
      this.log.warn('input-undelivered', { bytes: undelivered });
      this.host.tellAttached({ t: 'inputRejected', reason: 'delivery-uncertain' });
    }
    child.dispose();
    // Keys still waiting for this child wait on for the next one, or are refused.
    this.input.cancelStartingWait();
    this.exit = exit;
    // Read while the lifecycle still says running: the agent's turn is the one the exit ended.
    // A tab whose own program is a shell never crashes, whatever its guests reported: the server
    // closes it when the shell ends (SPEC §15).
    const agent = this.init.agentKind !== null || (this.agent.isAgent && !isShellCommand(this.init.command));
    const crash = isCrash(exit, { agent, working: this.agent.working, interruptKeyAt: this.interruptKeyAt, now: Date.now() });
    // Its pid and incarnation tell two crashes in a row apart (their crash records carry them).
    this.log.info('child-exited', { code: exit.code, signal: exit.signal, childPid: child.pid, childInc: this.childInc, crash });
    // A crash or a forced restart of an agent child carries the prompt that had no settled reply
    // to the next incarnation; a clean exit, a close, or a shell tab's child forgets it.
    const died = !terminating && (this.sup.forcedRestart || crash);
    this.offer.childDied(died && (this.init.agentKind !== null || this.resume !== null));
    // Every death keeps its last screen (SPEC §7), a restarted one too: the restart clears the model.
    if (!terminating) this.saveRecovery();
    this.supervise({ k: 'exited', crash, now: Date.now() });
  }

  private supervise(event: SupervisorEvent): void {
    const { state, effects } = reduceSupervisor(this.sup, event);
    this.sup = state;
    for (const effect of effects) this.carryOut(effect);
  }

  private carryOut(effect: SupervisorEffect): void {
    switch (effect.k) {
      case 'process': {
        const event = { k: 'process', what: effect.what, at: Date.now() } as const;
        return effect.announce ? this.agent.note(event) : this.agent.noteQuietly(event);
      }
      case 'show':
        this.host.frame();
        return this.host.broadcastState();
      case 'respawn':
        return this.respawn(effect.mode);
      case 'waitRestart':
        this.log.warn('child-respawn', { attempt: effect.attempt });
        this.restartTimer = setTimeout(
          () => {
            this.restartTimer = null;
            this.supervise({ k: 'restartDue' });
          },
          Math.max(effect.delayMs, this.testRestartDelayMs),
        );
        return;
      case 'cancelRestart':
        if (this.restartTimer) clearTimeout(this.restartTimer);
        this.restartTimer = null;
        return;
      case 'kill':
        return this.killChild(effect.reason);
      case 'abandonSession':
        // Nothing this holder keeps may resume it, not even a crash of the new agent before it
        // reports a session of its own (SPEC §9).
        this.resume = null;
        this.agent.forgetSession();
        this.log.info('resume-set', { state: 'none' });
        return;
      case 'refuseStartingInput':
        return this.input.refuseStarting();
    }
  }

  /** A new child sees exactly what a fresh tab's child sees (SPEC §15): a clean model at the
   * tab's current size. The dead child's last screen is in its recovery file. */
  private respawn(mode: 'check' | 'fresh'): void {
    this.model.reset();
    this.exit = null;
    this.spawnChild(mode);
  }

  private saveRecovery(): void {
    if (!this.childInc) return;
    try {
      writeRecoveryFile(recoveryFile(this.init.recoveryDir, this.init.tabId, this.childInc), this.model.recoveryText());
    } catch (err) {
      this.log.warn('recovery-write-failed', { code: errorCode(err) });
    }
  }

  /** The controller typed an interrupt key: a death by its signal soon after is the person's doing,
   * unless the agent's turn ran when they typed it (then it is a death mid-turn). */
  interruptTyped(key: InterruptKey): void {
    if (this.agent.working) delete this.interruptKeyAt[key];
    else this.interruptKeyAt[key] = Date.now();
  }

  /** `r` (resume when possible) or `f` (fresh) on an exited or failed tab; with `force`, a
   * running child is ended and resumed (a stalled agent's restart action). */
  restart(fresh: boolean, force: boolean): void {
    this.supervise({ k: 'restartRequested', fresh, force, childRunning: this.child !== null });
  }

  /** Ends the child's whole session at once, so that its exit starts it again, resumed. */
  private killChild(reason: string): void {
    if (this.childSid === null) return;
    this.log.warn('child-restart', { reason });
    const leader = { pid: this.childSid, startTime: this.childStart };
    const members = sessionMembers(snapshotProcesses(), leader, this.init.tabId, new Set([process.pid]));
    killWithoutGrace(
      members.filter((p) => p.pid !== process.pid),
      this.host.terminateIO,
    );
  }

  /** The tab closes: nothing starts again, and keys waiting for a child are refused. */
  beginTermination(): void {
    this.supervise({ k: 'terminate' });
  }

  /** Ends every process in the child's session: SIGHUP and SIGCONT to each process group,
   * a grace window, then SIGKILL, each signal preceded by a start-time check (SPEC §15). */
  async endSession(graceMs: number): Promise<void> {
    if (this.childSid === null) return;
    // The same verified plan a server close makes: only the child's session, led by the child
    // this holder started (never a session that got its pid since).
    const self = procStartTime(process.pid);
    const tab = {
      tabId: this.init.tabId,
      agent: false,
      bound: self === null ? [] : [{ pid: process.pid, startTime: self }],
      sessions: [{ pid: this.childSid, startTime: this.childStart }],
    };
    const plan = planRetirement({ tab, otherTabs: [], processes: snapshotProcesses(), records: [], protectedPids: [process.pid, 1] }, 'cleanup');
    await executeTermination(plan, { graceMs, io: this.host.terminateIO });
  }
}
