// Double Ctrl+C detaches: the first press reaches the tab unchanged, a second one within the
// interval is consumed as detach and never forwarded.

export interface DetachState {
  /** When the last forwarded Ctrl+C was pressed, or null when none counts any more. */
  readonly lastCtrlCMs: number | null;
}

export const INITIAL_DETACH_STATE: DetachState = { lastCtrlCMs: null };

export function onCtrlC(
  state: DetachState,
  nowMs: number,
  intervalMs: number,
): { state: DetachState; action: 'forward' | 'detach' } {
  const last = state.lastCtrlCMs;
  // A clock that went backwards proves nothing about the interval: treat it as a first press.
  if (last !== null && nowMs >= last && nowMs - last <= intervalMs) {
    return { state: INITIAL_DETACH_STATE, action: 'detach' };
  }
  return { state: { lastCtrlCMs: nowMs }, action: 'forward' };
}
