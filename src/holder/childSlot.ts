// The tab's child as the rest of the holder sees it: the running process (its input, its pid),
// its incarnation and session, its lifecycle as the supervisor decided it, and when it last
// printed. SupervisedChild is its one writer; the model, the input, the prompt offer, the agent's
// status, the bridge and the server link read it, so none of them needs the supervisor itself.
import type { HolderState } from '../protocol/messages.js';
import type { InterruptKey } from '../lifecycle/restart.js';
import type { ChildProcess } from './childProcess.js';
import type { PtyWriter } from './ptyWriter.js';
import { INITIAL_SUPERVISOR, type SupervisorState } from './supervisor.js';
import type { HolderLifecycle } from '../tabLifecycle.js';

/** What readers may see of the child; only SupervisedChild holds the ChildSlot itself. */
export interface ChildView {
  readonly lifecycle: HolderLifecycle;
  /** The tab is closing: nothing starts again and nothing waits for a child. */
  readonly terminating: boolean;
  /** The running child's input; null while none runs. */
  readonly writer: PtyWriter | null;
  readonly pid: number | null;
  /** The session the child leads, once one was started: what a close ends. */
  readonly sessionId: number | null;
  /** When the child last printed (performance.now()). */
  readonly outputAt: number;
  /** A child runs and takes input. */
  readonly running: boolean;
  /** The running child's incarnation, which its bridge token names; null while none runs. */
  runningInc(): string | null;
  /** Writes to the running child's input; false when none runs. */
  write(data: string | Uint8Array): boolean;
  /** The controller typed an interrupt key; `working`: the agent's turn ran when they did. */
  interruptTyped(key: InterruptKey, working: boolean, now: number): void;
  snapshot(): Pick<HolderState, 'childPid' | 'childStart' | 'childInc' | 'lifecycle' | 'exit' | 'crashes'>;
}

export class ChildSlot implements ChildView {
  process: ChildProcess | null = null;
  inc: string | null = null;
  start: string | null = null;
  sessionId: number | null = null;
  exit: HolderState['exit'] = null;
  /** Lifecycle, crashes, restarts and the close, as supervisor.ts decides them. */
  sup: SupervisorState = INITIAL_SUPERVISOR;
  outputAt = 0;
  /** When the controller last typed each interrupt key to this child outside the agent's turn
   * (Date.now()): the exit policy's facts for a death by that key's signal. */
  interruptKeyAt: Partial<Record<InterruptKey, number>> = {};

  get lifecycle(): HolderLifecycle {
    return this.sup.lifecycle;
  }

  get terminating(): boolean {
    return this.sup.terminating;
  }

  get writer(): PtyWriter | null {
    return this.process?.writer ?? null;
  }

  get pid(): number | null {
    return this.process?.pid ?? null;
  }

  get running(): boolean {
    return this.sup.lifecycle === 'running' && this.process !== null;
  }

  runningInc(): string | null {
    return this.sup.lifecycle === 'running' ? this.inc : null;
  }

  write(data: string | Uint8Array): boolean {
    if (!this.process) return false;
    this.process.writer.write(data);
    return true;
  }

  /** A death by the key's signal soon after is the person's doing, unless the agent's turn ran
   * when they typed it (then it is a death mid-turn). */
  interruptTyped(key: InterruptKey, working: boolean, now: number): void {
    if (working) delete this.interruptKeyAt[key];
    else this.interruptKeyAt[key] = now;
  }

  snapshot(): Pick<HolderState, 'childPid' | 'childStart' | 'childInc' | 'lifecycle' | 'exit' | 'crashes'> {
    return { childPid: this.pid, childStart: this.start, childInc: this.inc, lifecycle: this.sup.lifecycle, exit: this.exit, crashes: this.sup.crashTimes.length };
  }
}
