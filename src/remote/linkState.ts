// A host's link as a pure reducer (issue 30, memo §4): stepLink(state, event, now, random) →
// {state, effects}. The shell starts ssh on `dial`, sets one timer on `retryIn`, and feeds back
// how each attempt ended; attempts and timers carry the attempt number, so a late event from an
// attempt already given up (a killed ssh exiting, an old timer) changes nothing.
import { ATTENTION_RETRY_MS, BACKOFF_RESET_AFTER_MS, backoffDelay, INCOMPATIBLE_RETRY_MS } from './backoff.js';
import type { FailureCode, LinkFailure } from './sshFailure.js';

/** What a host shows (`a1 hosts`, the strip, `a1 tabs --json`). */
export type HostStatus =
  | { state: 'connecting' }
  | { state: 'connected'; since: number }
  /** since: the first failure after the link was last connected. */
  | { state: 'unreachable'; code: FailureCode; reason: string; since: number }
  | { state: 'attention'; code: FailureCode; reason: string; command: string | null }
  | { state: 'incompatible'; code: FailureCode; reason: string };

export interface LinkState {
  status: HostStatus;
  /** The current attempt; events of earlier ones are stale. */
  attempt: number;
  /** Failures since the link was last healthy: the backoff's exponent. */
  failures: number;
  /** The first failure since the link was last connected, null while none. */
  failingSince: number | null;
}

export type LinkEvent =
  /** The attempt's entry answered hello: the link is up. */
  | { t: 'connected'; attempt: number }
  /** The attempt failed, or its link (once connected) ended. */
  | { t: 'failed'; attempt: number; failure: LinkFailure }
  /** The timer of a retryIn fired. */
  | { t: 'retry'; attempt: number }
  /** The host's definition changed: whatever this link was doing, it dials anew at once. */
  | { t: 'configChanged' };

export type LinkEffect =
  /** End whatever ssh this host's link has and any pending timer; start attempt `attempt`. */
  | { t: 'dial'; attempt: number }
  /** Set the host's one timer: a `retry` for `attempt` in `ms`. */
  | { t: 'retryIn'; attempt: number; ms: number };

export interface LinkStep {
  state: LinkState;
  effects: LinkEffect[];
}

/** A new host's link: connecting, its first attempt dialled. */
export function startLink(): LinkStep {
  return dial({ status: { state: 'connecting' }, attempt: 0, failures: 0, failingSince: null });
}

/** `random` is a number in [0, 1), drawn by the shell, for the backoff's jitter. */
export function stepLink(state: LinkState, event: LinkEvent, now: number, random: number): LinkStep {
  if (event.t === 'configChanged') return dial({ ...state, failures: 0 });
  if (event.attempt !== state.attempt) return { state, effects: [] };
  const { status } = state;
  switch (event.t) {
    case 'connected':
      if (status.state !== 'connecting') return { state, effects: [] };
      return { state: { ...state, status: { state: 'connected', since: now }, failingSince: null }, effects: [] };
    case 'retry':
      if (status.state === 'connecting' || status.state === 'connected') return { state, effects: [] };
      return dial(state);
    case 'failed':
      if (status.state === 'connected') return dropped(state, status.since, event.failure, now, random);
      if (status.state !== 'connecting') return { state, effects: [] };
      return failed(state, event.failure, now, random);
  }
}

/** A connected link ended. The master usually outlives a killed ssh or entry, so the first drop
 * after a healthy spell dials again at once; a link that keeps dropping backs off as failures do. */
function dropped(state: LinkState, connectedSince: number, failure: LinkFailure, now: number, random: number): LinkStep {
  const healthy = now - connectedSince >= BACKOFF_RESET_AFTER_MS;
  const next = { ...state, failures: healthy ? 0 : state.failures };
  if (next.failures === 0) return dial({ ...next, failures: 1, failingSince: now });
  return failed(next, failure, now, random);
}

function failed(state: LinkState, failure: LinkFailure, now: number, random: number): LinkStep {
  const failures = state.failures + 1;
  const since = state.failingSince ?? now;
  const { code, sentence: reason } = failure;
  const next = { ...state, failures, failingSince: since };
  if (failure.state === 'attention') return waitFor({ ...next, status: { state: 'attention', code, reason, command: failure.command } }, ATTENTION_RETRY_MS);
  if (failure.state === 'incompatible') return waitFor({ ...next, status: { state: 'incompatible', code, reason } }, INCOMPATIBLE_RETRY_MS);
  return waitFor({ ...next, status: { state: 'unreachable', code, reason, since } }, backoffDelay(failures, random));
}

function waitFor(state: LinkState, ms: number): LinkStep {
  return { state, effects: [{ t: 'retryIn', attempt: state.attempt, ms }] };
}

function dial(state: LinkState): LinkStep {
  const attempt = state.attempt + 1;
  return { state: { ...state, status: { state: 'connecting' }, attempt }, effects: [{ t: 'dial', attempt }] };
}
