// The holder's supervision of its child (SPEC §10, §15 "Exit, crash, restart"): what an exit, a
// restart request, a heartbeat silence or a close does to the tab's lifecycle. Pure: the holder
// feeds events with the clock's reading and carries out the effects it gets back.
import { decideAfterExit } from '../lifecycle/restart.js';
import type { HolderLifecycle } from '../tabLifecycle.js';

export interface SupervisorState {
  lifecycle: HolderLifecycle;
  /** Crash times inside the restart window (SPEC §15). */
  crashTimes: number[];
  /** The child is being killed to be started again (unresponsive, or a restart on request). */
  forcedRestart: boolean;
  /** A restart after a crash waits out its backoff. */
  restartWaiting: boolean;
  /** The tab is closing: nothing starts again. */
  terminating: boolean;
}

export const INITIAL_SUPERVISOR: SupervisorState = {
  lifecycle: 'starting',
  crashTimes: [],
  forcedRestart: false,
  restartWaiting: false,
  terminating: false,
};

export type SupervisorEvent =
  | { k: 'started' }
  | { k: 'spawnFailed' }
  /** `crash` as the exit policy judged it (src/lifecycle/restart.ts isCrash). */
  | { k: 'exited'; crash: boolean; now: number }
  /** The backoff after a crash has passed. */
  | { k: 'restartDue' }
  /** `r` (resume when possible) or `f` (fresh); with `force`, a running child is ended and resumed. */
  | { k: 'restartRequested'; fresh: boolean; force: boolean; childRunning: boolean }
  /** The status clock: how long a child that heartbeats has been silent (null: it never did). */
  | { k: 'tick'; heartbeatSilenceMs: number | null; restartAfterMs: number; childRunning: boolean }
  | { k: 'terminate' };

/** `process` reaches the agent's status; `announce` tells the viewers at once, else with the
 * state the holder sends after the effects. */
export type SupervisorEffect =
  | { k: 'process'; what: 'starting' | 'crashed' | 'exited' | 'failed'; announce: boolean }
  /** Start the child: `check` resumes when the kept record still passes the validator. */
  | { k: 'respawn'; mode: 'check' | 'fresh' }
  | { k: 'waitRestart'; delayMs: number; attempt: number }
  | { k: 'cancelRestart' }
  | { k: 'kill'; reason: 'requested' | 'unresponsive' }
  /** `f`: nothing this holder keeps may resume the agent session (SPEC §9). */
  | { k: 'abandonSession' }
  | { k: 'refuseStartingInput' }
  /** The exit is settled: a frame and the state go out. */
  | { k: 'show' };

export interface Supervised {
  state: SupervisorState;
  effects: SupervisorEffect[];
}

export function reduceSupervisor(s: SupervisorState, ev: SupervisorEvent): Supervised {
  switch (ev.k) {
    case 'started':
      return { state: { ...s, lifecycle: 'running', forcedRestart: false }, effects: [] };
    case 'spawnFailed':
      return { state: { ...s, lifecycle: 'failed' }, effects: [] };
    case 'exited':
      return onExit(s, ev.crash, ev.now);
    case 'restartDue':
      // A close clears restartWaiting: a timer that fires after it starts nothing.
      if (!s.restartWaiting) return { state: s, effects: [] };
      return { state: { ...s, restartWaiting: false }, effects: [{ k: 'respawn', mode: 'check' }] };
    case 'restartRequested':
      if (s.terminating || s.restartWaiting) return { state: s, effects: [] };
      if (ev.childRunning) return ev.force ? kill(s, 'requested') : { state: s, effects: [] };
      return {
        state: { ...s, crashTimes: [] },
        effects: ev.fresh ? [{ k: 'abandonSession' }, { k: 'respawn', mode: 'fresh' }] : [{ k: 'respawn', mode: 'check' }],
      };
    case 'tick':
      // Only a child that heartbeats at least once: hook-only agents are never restarted for silence.
      if (ev.childRunning && ev.heartbeatSilenceMs !== null && ev.heartbeatSilenceMs >= ev.restartAfterMs) return kill(s, 'unresponsive');
      return { state: s, effects: [] };
    case 'terminate':
      if (s.terminating) return { state: s, effects: [] };
      return {
        state: { ...s, terminating: true, restartWaiting: false },
        effects: [...(s.restartWaiting ? [{ k: 'cancelRestart' } as const] : []), { k: 'refuseStartingInput' }],
      };
  }
}

/** An exit that is no crash stays exited, a crash restarts with backoff, the third crash in the
 * window fails the tab; a child killed on purpose starts again at once, and a closing tab's child
 * just ends. */
function onExit(s: SupervisorState, crash: boolean, now: number): Supervised {
  if (s.forcedRestart && !s.terminating) {
    // Killed on purpose to start again: not a crash, and no backoff.
    return {
      state: { ...s, lifecycle: 'starting' },
      effects: [
        { k: 'process', what: 'starting', announce: true },
        { k: 'respawn', mode: 'check' },
      ],
    };
  }
  const decision = decideAfterExit(crash && !s.terminating, s.crashTimes, now);
  if (decision.action === 'restart') {
    return {
      state: { ...s, lifecycle: 'starting', crashTimes: decision.crashTimes, restartWaiting: true },
      effects: [
        { k: 'process', what: 'crashed', announce: false },
        { k: 'waitRestart', delayMs: decision.delayMs, attempt: decision.crashTimes.length },
        { k: 'show' },
      ],
    };
  }
  const failed = decision.action === 'fail';
  return {
    state: { ...s, lifecycle: failed ? 'failed' : 'exited', crashTimes: failed ? decision.crashTimes : s.crashTimes },
    effects: [
      { k: 'process', what: failed ? 'failed' : 'exited', announce: false },
      { k: 'refuseStartingInput' },
      { k: 'show' },
    ],
  };
}

/** Ends the running child so that its exit starts it again, resumed; once per incarnation. */
function kill(s: SupervisorState, reason: 'requested' | 'unresponsive'): Supervised {
  if (s.forcedRestart || s.terminating) return { state: s, effects: [] };
  return { state: { ...s, forcedRestart: true }, effects: [{ k: 'kill', reason }] };
}
