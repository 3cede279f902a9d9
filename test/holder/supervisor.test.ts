import { describe, it, expect } from 'vitest';
import { INITIAL_SUPERVISOR, reduceSupervisor, type SupervisorEffect, type SupervisorEvent, type SupervisorState } from '../../src/holder/supervisor.js';
import { CRASH_WINDOW_MS, RESTART_BACKOFF_STEP_MS } from '../../src/lifecycle/restart.js';

// A fake clock: every event carries the time it happens at, so a case reads as a timeline.
const T0 = 1_000_000;
const RESTART_AFTER_MS = 30_000;
// The exit policy's verdicts (src/lifecycle/restart.ts isCrash): the supervisor acts on them.
/** An exit that is no crash: exit 0, any end of a plain tab's program, an agent's person's key. */
const clean = false;
/** An agent's exit with a non-zero status. */
const crash = true;
/** An agent killed by a signal from elsewhere. */
const killed = true;

const started: SupervisorEvent = { k: 'started' };
const exited = (isCrash: boolean, at: number): SupervisorEvent => ({ k: 'exited', crash: isCrash, now: at });
const due: SupervisorEvent = { k: 'restartDue' };
const request = (fresh: boolean, childRunning: boolean, force = false): SupervisorEvent => ({ k: 'restartRequested', fresh, force, childRunning });
const tick = (heartbeatSilenceMs: number | null, childRunning = true): SupervisorEvent => ({ k: 'tick', heartbeatSilenceMs, restartAfterMs: RESTART_AFTER_MS, childRunning });
const terminate: SupervisorEvent = { k: 'terminate' };

/** Folds the events from the initial state; the effects of the last event, and the state after. */
function run(events: SupervisorEvent[]): { state: SupervisorState; effects: SupervisorEffect[]; all: SupervisorEffect[][] } {
  let state = INITIAL_SUPERVISOR;
  const all: SupervisorEffect[][] = [];
  for (const ev of events) {
    const next = reduceSupervisor(state, ev);
    state = next.state;
    all.push(next.effects);
  }
  return { state, effects: all[all.length - 1] ?? [], all };
}

const kinds = (effects: SupervisorEffect[]) => effects.map((e) => e.k);

describe('reduceSupervisor', () => {
  const cases: Array<[name: string, events: SupervisorEvent[], lifecycle: SupervisorState['lifecycle'], effects: SupervisorEffect[]]> = [
    ['a child that starts runs', [started], 'running', []],
    ['a child that cannot start fails the tab', [{ k: 'spawnFailed' }], 'failed', []],
    [
      'a natural exit stays exited and refuses keys typed for a next child',
      [started, exited(clean, T0)],
      'exited',
      [{ k: 'process', what: 'exited', announce: false }, { k: 'refuseStartingInput' }, { k: 'show' }],
    ],
    [
      'a first crash restarts at once (no backoff)',
      [started, exited(crash, T0)],
      'starting',
      [{ k: 'process', what: 'crashed', announce: false }, { k: 'waitRestart', delayMs: 0, attempt: 1 }, { k: 'show' }],
    ],
    [
      'a second crash inside the window backs off one step',
      [started, exited(crash, T0), due, started, exited(killed, T0 + 5_000)],
      'starting',
      [{ k: 'process', what: 'crashed', announce: false }, { k: 'waitRestart', delayMs: RESTART_BACKOFF_STEP_MS, attempt: 2 }, { k: 'show' }],
    ],
    [
      'the third crash inside the window fails the tab',
      [started, exited(crash, T0), due, started, exited(crash, T0 + 1_000), due, started, exited(crash, T0 + 2_000)],
      'failed',
      [{ k: 'process', what: 'failed', announce: false }, { k: 'refuseStartingInput' }, { k: 'show' }],
    ],
    [
      'crashes older than the window no longer count',
      [started, exited(crash, T0), due, started, exited(crash, T0 + 1_000), due, started, exited(crash, T0 + 1_000 + CRASH_WINDOW_MS)],
      'starting',
      [{ k: 'process', what: 'crashed', announce: false }, { k: 'waitRestart', delayMs: 0, attempt: 1 }, { k: 'show' }],
    ],
    ['the backoff over, the crashed child restarts resumed when it may', [started, exited(crash, T0), due], 'starting', [{ k: 'respawn', mode: 'check' }]],
    ['r on an exited tab restarts resumed when it may', [started, exited(clean, T0), request(false, false)], 'exited', [{ k: 'respawn', mode: 'check' }]],
    [
      'f on an exited tab abandons the session and starts fresh',
      [started, exited(clean, T0), request(true, false)],
      'exited',
      [{ k: 'abandonSession' }, { k: 'respawn', mode: 'fresh' }],
    ],
    ['r on a running child does nothing without force', [started, request(false, true)], 'running', []],
    ['a forced restart ends the running child', [started, request(false, true, true)], 'running', [{ k: 'kill', reason: 'requested' }]],
    [
      'the child ended on purpose starts again at once, resumed, not as a crash',
      [started, request(false, true, true), exited(killed, T0)],
      'starting',
      [
        { k: 'process', what: 'starting', announce: true },
        { k: 'respawn', mode: 'check' },
      ],
    ],
    ['a restart request while a crash waits out its backoff is ignored', [started, exited(crash, T0), request(true, false)], 'starting', []],
    ['a heartbeat silence past the limit restarts the child', [started, tick(RESTART_AFTER_MS)], 'running', [{ k: 'kill', reason: 'unresponsive' }]],
    ['a heartbeat silence under the limit does nothing', [started, tick(RESTART_AFTER_MS - 1)], 'running', []],
    ['a child that never heartbeats (hook-only) is never restarted for silence', [started, tick(null)], 'running', []],
    ['a silence with no child running restarts nothing', [started, exited(clean, T0), tick(RESTART_AFTER_MS * 10, false)], 'exited', []],
    ['one kill per incarnation: a second tick while it dies does nothing', [started, tick(RESTART_AFTER_MS), tick(RESTART_AFTER_MS + 1_000)], 'running', []],
    ['terminating refuses keys waiting for a child', [started, terminate], 'running', [{ k: 'refuseStartingInput' }]],
    [
      'terminating during the restart wait cancels the restart',
      [started, exited(crash, T0), terminate],
      'starting',
      [{ k: 'cancelRestart' }, { k: 'refuseStartingInput' }],
    ],
    ['a restart timer that fires after the close starts nothing', [started, exited(crash, T0), terminate, due], 'starting', []],
    [
      'a crash while the tab closes is no restart',
      [started, terminate, exited(crash, T0)],
      'exited',
      [{ k: 'process', what: 'exited', announce: false }, { k: 'refuseStartingInput' }, { k: 'show' }],
    ],
    [
      'a child killed for a restart while the tab closes just ends',
      [started, request(false, true, true), terminate, exited(killed, T0)],
      'exited',
      [{ k: 'process', what: 'exited', announce: false }, { k: 'refuseStartingInput' }, { k: 'show' }],
    ],
    [
      'exits that are no crash, however many, never restart and never fail the tab',
      [started, exited(clean, T0), request(false, false), started, exited(clean, T0 + 1), request(false, false), started, exited(clean, T0 + 2)],
      'exited',
      [{ k: 'process', what: 'exited', announce: false }, { k: 'refuseStartingInput' }, { k: 'show' }],
    ],
    ['nothing restarts once the tab closes', [started, exited(clean, T0), terminate, request(false, false)], 'exited', []],
    ['no forced restart once the tab closes', [started, terminate, request(false, true, true), tick(RESTART_AFTER_MS)], 'running', []],
    ['terminating twice does nothing the second time', [started, terminate, terminate], 'running', []],
  ];

  it.each(cases)('%s', (_name, events, lifecycle, effects) => {
    const { state, effects: last } = run(events);
    expect(state.lifecycle).toBe(lifecycle);
    expect(last).toEqual(effects);
  });

  it('counts crashes for the failed surface, and r after a failure starts the count again', () => {
    const failed = run([started, exited(crash, T0), due, started, exited(crash, T0 + 1), due, started, exited(crash, T0 + 2)]);
    expect(failed.state.crashTimes).toEqual([T0, T0 + 1, T0 + 2]);
    const again = reduceSupervisor(failed.state, request(false, false));
    expect(again.state.crashTimes).toEqual([]);
    expect(kinds(again.effects)).toEqual(['respawn']);
  });

  it('a forced restart is no crash: the crash count stays and the next start clears the flag', () => {
    const { state, all } = run([started, exited(crash, T0), due, started, request(false, true, true), exited(killed, T0 + 10), started]);
    expect(state.crashTimes).toEqual([T0]);
    expect(state.forcedRestart).toBe(false);
    expect(all.flat().filter((e) => e.k === 'waitRestart')).toHaveLength(1);
  });

  it('the backoff grows by one step per earlier crash in the window', () => {
    const { all } = run([started, exited(crash, T0), due, started, exited(crash, T0 + 1_000)]);
    const waits = all.flat().filter((e): e is Extract<SupervisorEffect, { k: 'waitRestart' }> => e.k === 'waitRestart');
    expect(waits.map((w) => w.delayMs)).toEqual([0, RESTART_BACKOFF_STEP_MS]);
  });

  it('never mutates the state it is given', () => {
    const before = structuredClone(INITIAL_SUPERVISOR);
    run([started, exited(crash, T0), due, started, request(false, true, true), exited(killed, T0 + 1), terminate]);
    expect(INITIAL_SUPERVISOR).toEqual(before);
  });
});
