// The tab's child under supervision (SPEC §10, §15): started fresh or resumed, its output fed to
// the model, its exit settled (input it never took dropped, its last screen kept), and restarted
// or not as the pure supervisor (supervisor.ts) decides. The holder owns restarts, so they work
// while no server runs.
import { newIncarnation } from '../security.js';
import { procStartTime } from '../proc.js';
import { planRetirement, sessionMembers } from '../lifecycle/retirement.js';
import { executeTermination, killWithoutGrace, type TerminateIO } from '../lifecycle/terminate.js';
import { snapshotProcesses } from '../lifecycle/processSnapshot.js';
import { isCrash, type ChildExit } from '../lifecycle/restart.js';
import { parseResumeAuthority, resumeArgvAt, type ResumeAuthority } from '../lifecycle/records.js';
import type { Logger } from '../log.js';
import { errorCode } from '../log.js';
import { recoveryFile, writeRecoveryFile } from './recovery.js';
import { ParseBudget, readPauseMs } from './parseBudget.js';
import { ChildProcess } from './childProcess.js';
import type { TerminalModel } from './terminalModel.js';
import type { ClientInput } from './clientInput.js';
import type { PromptOffer, KeyPhases } from './promptOffer.js';
import type { AgentStatus } from './agentStatus.js';
import { isShellCommand } from '../lifecycle/agents.js';
import type { HolderInit } from '../protocol/holderInit.js';
import { reduceSupervisor, type SupervisorEffect, type SupervisorEvent } from './supervisor.js';
import type { ChildSlot } from './childSlot.js';
import type { DataClients } from './dataClients.js';
import type { FrameClock } from './frameClock.js';
import { Emitter } from '../emitter.js';
import { Timer, type Disposable } from '../disposable.js';

/** What the supervised child needs, each built before it. */
export interface ChildDeps {
  readonly init: HolderInit;
  readonly log: Logger;
  readonly terminateIO: TerminateIO;
  readonly bridgeKey: Buffer;
  /** Where the child's process, incarnation and lifecycle are kept for the rest of the holder. */
  readonly slot: ChildSlot;
  readonly model: TerminalModel;
  readonly input: ClientInput<KeyPhases>;
  readonly offer: PromptOffer;
  readonly agent: AgentStatus;
  /** Flow control reads whether anyone views the tab; viewers hear of input a death lost. */
  readonly viewers: Pick<DataClients, 'anyAttached' | 'sendToAttached'>;
  readonly frames: Pick<FrameClock, 'request'>;
}

export class SupervisedChild implements Disposable {
  private readonly restartTimer = new Timer();
  /** Test-only late exits (A1_TEST_LATE_EXIT_MS) still to be delivered. */
  private readonly lateExits = new Set<NodeJS.Timeout>();
  private resume: ResumeAuthority | null;
  /** Test-only (A1_TEST_HOLDER_CLOCK_SKEW_MS in the tab's environment): the clock a restart
   * validates its record with runs this far ahead, as after a server outage that long. */
  private readonly clockSkewMs: number;
  /** A test's clock: every restart after a crash waits at least this long. */
  private readonly testRestartDelayMs: number;
  private readonly parseBudget = new ParseBudget();
  private readonly changed = new Emitter();
  /** The child's part of the state changed: the server and the viewers should hear of it. */
  readonly onChange = this.changed.event;
  private disposed = false;
  private readonly init: HolderInit;
  private readonly log: Logger;
  private readonly slot: ChildSlot;
  private readonly model: TerminalModel;
  private readonly input: ClientInput<KeyPhases>;
  private readonly offer: PromptOffer;
  private readonly agent: AgentStatus;

  constructor(private readonly deps: ChildDeps) {
    ({ init: this.init, log: this.log, slot: this.slot, model: this.model, input: this.input, offer: this.offer, agent: this.agent } = deps);
    this.resume = parseResumeAuthority(this.init.resume);
    this.clockSkewMs = Number(this.init.env.A1_TEST_HOLDER_CLOCK_SKEW_MS) || 0;
    this.testRestartDelayMs = Number(this.init.env.A1_TEST_RESTART_DELAY_MS) || 0;
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

  /** The status clock: a child that heartbeats and then goes silent is restarted. */
  tick(now: number): void {
    const heartbeatSilence = this.agent.heartbeatSilenceMs(now);
    this.supervise({ k: 'tick', heartbeatSilenceMs: heartbeatSilence, restartAfterMs: this.init.unresponsiveRestartMs, childRunning: this.slot.process !== null });
  }

  /** The child's PTY, not the child: resize is desired state, re-applied until observed (SPEC §7). */
  resize(cols: number, rows: number): void {
    this.slot.process?.resize(cols, rows);
  }

  /** `granted`: the resume the server gave at start; `check`: the kept resume if the validator
   * still allows it (a restart, SPEC §9); `fresh`: the tab's own start argv, never a resume. */
  private spawnChild(mode: 'granted' | 'check' | 'fresh'): void {
    if (this.disposed) return;
    const allowed = mode === 'check' ? resumeArgvAt(this.resume, this.init.tabId, Date.now() + this.clockSkewMs) : null;
    if (allowed && allowed.argv === null && allowed.reason !== 'none') this.log.info('resume-refused', { reason: allowed.reason });
    const resumeArgv = mode === 'granted' ? (this.resume?.argv ?? null) : (allowed?.argv ?? null);
    // A session resumed is one its agent had saved.
    if (resumeArgv && this.resume) this.agent.resumed(this.resume.record.sessionId);
    const argv = resumeArgv ?? this.init.command;
    const childInc = (this.slot.inc = newIncarnation());
    this.slot.interruptKeyAt = {};
    const { cwd, env, umask, tabId, bridgeSocketPath } = this.init;
    const spec = { argv, cwd, env, umask, tabId, bridgeSocketPath, bridgeKey: this.deps.bridgeKey, childInc, cols: this.model.cols, rows: this.model.rows, shimDir: this.init.shimDir };
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
      this.slot.exit = { code: null, signal: null };
      this.model.note(`\r\na1: could not start ${JSON.stringify(argv[0])}.\r\n`);
      this.input.refuseStarting();
      this.agent.note({ k: 'process', what: 'failed', at: Date.now() });
      this.changed.fire();
      return;
    }
    this.slot.process = child;
    this.slot.start = child.startTime;
    this.slot.sessionId = child.pid;
    this.supervise({ k: 'started' });
    this.agent.noteQuietly({ k: 'process', what: 'starting', at: Date.now() });
    this.agent.note({ k: 'process', what: 'running', at: Date.now() });
    this.log.info('child-started', { childPid: child.pid, resumed: resumeArgv !== null });
    this.offer.childStarted(Date.now());
    this.input.awaitChildReady();
    this.changed.fire();
  }

  private onData(child: ChildProcess, data: Uint8Array): void {
    const started = performance.now();
    this.model.feed(data);
    const parsed = (this.slot.outputAt = performance.now());
    this.parseBudget.spend(started, parsed);
    this.input.childPrinted();
    this.offer.childPrinted();
    this.deps.frames.request();
    // A tab nobody views parses at most a share of each window, so a background flood leaves
    // the CPU to the tab someone is typing in; its output is still read, only less eagerly.
    child.pauseReading(readPauseMs(this.deps.viewers.anyAttached(), this.parseBudget, performance.now()));
  }

  private onChildExited(child: ChildProcess, childInc: string, exit: ChildExit): void {
    // node-pty emits exit after the PTY reached EOF; waiting for the model to finish parsing what
    // was read makes the last screen complete before it is fixed.
    this.model.whenParsed(() => this.onExitOf(child, childInc, exit));
    // Test-only (A1_TEST_LATE_EXIT_MS in the tab's environment): the exit is delivered again
    // this much later, as a late notification of a child since replaced would arrive.
    const lateMs = Number(this.init.env.A1_TEST_LATE_EXIT_MS) || 0;
    if (lateMs <= 0) return;
    const late = setTimeout(() => {
      this.lateExits.delete(late);
      this.onExitOf(child, childInc, exit);
    }, lateMs);
    late.unref();
    this.lateExits.add(late);
  }

  /** Only the running child's exit counts: one of an incarnation already replaced (or already
   * handled) is discarded, so it can neither end nor restart its successor (SPEC §10). */
  private onExitOf(child: ChildProcess, childInc: string, exit: ChildExit): void {
    // After shutdown nothing is settled: no recovery file, no restart, no state to tell.
    if (this.disposed) return;
    if (this.slot.process === child) return this.onChildExit(child, exit);
    this.log.info('child-exit-superseded', { childPid: child.pid, childInc });
  }

  /** The holder owns restarts (SPEC §15), so they work while no server runs. */
  private onChildExit(child: ChildProcess, exit: ChildExit): void {
    this.slot.process = null;
    const terminating = this.slot.terminating;
    // Input admitted but never taken is not replayed into the next child (SPEC §7): it is dropped
    // and the user is told its delivery is uncertain (part of it may have been read).
    const undelivered = child.writer.pendingBytes + this.input.dropHeld();
    if (undelivered > 0 && !terminating) {
      this.log.warn('input-undelivered', { bytes: undelivered });
      this.deps.viewers.sendToAttached({ t: 'inputRejected', reason: 'delivery-uncertain' });
    }
    child.dispose();
    // Keys still waiting for this child wait on for the next one, or are refused.
    this.input.cancelStartingWait();
    this.slot.exit = exit;
    // Read while the lifecycle still says running: the agent's turn is the one the exit ended.
    // A tab whose own program is a shell never crashes, whatever its guests reported: the server
    // closes it when the shell ends (SPEC §15).
    const agent = this.init.agentKind !== null || (this.agent.isAgent && !isShellCommand(this.init.command));
    const crash = isCrash(exit, { agent, working: this.agent.working, interruptKeyAt: this.slot.interruptKeyAt, now: Date.now() });
    // Its pid and incarnation tell two crashes in a row apart (their crash records carry them).
    this.log.info('child-exited', { code: exit.code, signal: exit.signal, childPid: child.pid, childInc: this.slot.inc, crash });
    // A crash or a forced restart of an agent child carries the prompt that had no settled reply
    // to the next incarnation; a clean exit, a close, or a shell tab's child forgets it.
    const died = !terminating && (this.slot.sup.forcedRestart || crash);
    this.offer.childDied(died && (this.init.agentKind !== null || this.resume !== null));
    // Every death keeps its last screen (SPEC §7), a restarted one too: the restart clears the model.
    if (!terminating) this.saveRecovery();
    this.supervise({ k: 'exited', crash, now: Date.now() });
  }

  private supervise(event: SupervisorEvent): void {
    const { state, effects } = reduceSupervisor(this.slot.sup, event);
    this.slot.sup = state;
    for (const effect of effects) this.carryOut(effect);
  }

  private carryOut(effect: SupervisorEffect): void {
    switch (effect.k) {
      case 'process': {
        const event = { k: 'process', what: effect.what, at: Date.now() } as const;
        return effect.announce ? this.agent.note(event) : this.agent.noteQuietly(event);
      }
      case 'show':
        this.deps.frames.request();
        return this.changed.fire();
      case 'respawn':
        return this.respawn(effect.mode);
      case 'waitRestart':
        this.log.warn('child-respawn', { attempt: effect.attempt });
        return this.restartTimer.set(Math.max(effect.delayMs, this.testRestartDelayMs), () => this.supervise({ k: 'restartDue' }));
      case 'cancelRestart':
        return this.restartTimer.clear();
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
    this.slot.exit = null;
    this.spawnChild(mode);
  }

  private saveRecovery(): void {
    if (!this.slot.inc) return;
    try {
      writeRecoveryFile(recoveryFile(this.init.recoveryDir, this.init.tabId, this.slot.inc), this.model.recoveryText());
    } catch (err) {
      this.log.warn('recovery-write-failed', { code: errorCode(err) });
    }
  }

  /** `r` (resume when possible) or `f` (fresh) on an exited or failed tab; with `force`, a
   * running child is ended and resumed (a stalled agent's restart action). */
  restart(fresh: boolean, force: boolean): void {
    this.supervise({ k: 'restartRequested', fresh, force, childRunning: this.slot.process !== null });
  }

  /** Ends the child's whole session at once, so that its exit starts it again, resumed. */
  private killChild(reason: string): void {
    if (this.slot.sessionId === null) return;
    this.log.warn('child-restart', { reason });
    const leader = { pid: this.slot.sessionId, startTime: this.slot.start };
    const members = sessionMembers(snapshotProcesses(), leader, this.init.tabId, new Set([process.pid]));
    killWithoutGrace(
      members.filter((p) => p.pid !== process.pid),
      this.deps.terminateIO,
    );
  }

  /** The tab closes: nothing starts again, and keys waiting for a child are refused. */
  beginTermination(): void {
    this.supervise({ k: 'terminate' });
  }

  /** Ends every process in the child's session: SIGHUP and SIGCONT to each process group,
   * a grace window, then SIGKILL, each signal preceded by a start-time check (SPEC §15). */
  async endSession(graceMs: number): Promise<void> {
    if (this.slot.sessionId === null) return;
    // The same verified plan a server close makes: only the child's session, led by the child
    // this holder started (never a session that got its pid since).
    const self = procStartTime(process.pid);
    const tab = {
      tabId: this.init.tabId,
      agent: false,
      bound: self === null ? [] : [{ pid: process.pid, startTime: self }],
      sessions: [{ pid: this.slot.sessionId, startTime: this.slot.start }],
    };
    const plan = planRetirement({ tab, otherTabs: [], processes: snapshotProcesses(), records: [], protectedPids: [process.pid, 1] }, 'cleanup');
    await executeTermination(plan, { graceMs, io: this.deps.terminateIO });
  }

  /** The holder shuts down: the child's events are no longer heard (a late exit restarts
   * nothing), no restart is pending, and its PTY is let go. */
  dispose(): void {
    this.disposed = true;
    this.restartTimer.dispose();
    for (const late of this.lateExits) clearTimeout(late);
    this.lateExits.clear();
    this.slot.process?.dispose();
    this.changed.dispose();
  }
}
