// Polling instead of fixed sleeps: a test waits exactly as long as the condition takes, and a
// timeout names what it waited for and what it last saw.

import { setTimeout as delay } from 'node:timers/promises';
import { inspect } from 'node:util';

/** Generous, because CI machines stall: a slow pass is fine, a flaky failure is not. */
export const DEFAULT_WAIT_TIMEOUT_MS = 20_000;
/** Short enough to add little latency, long enough not to busy-spin the event loop. */
export const DEFAULT_WAIT_INTERVAL_MS = 25;
/** Keeps a timeout message readable when the last value is a whole screen or a big object. */
const MAX_DESCRIBED_CHARS = 2_000;

export interface WaitOptions {
  timeoutMs?: number;
  intervalMs?: number;
  /** Names the condition in the timeout message. */
  what?: string;
}

export class WaitTimeoutError extends Error {
  readonly code = 'WAIT_TIMEOUT';
  constructor(message: string, readonly lastValue: unknown) {
    super(message);
    this.name = 'WaitTimeoutError';
  }
}

/** What a successful wait can return: the falsy values are what "not yet" looks like. */
export type Truthy<T> = Exclude<T, null | undefined | false | 0 | ''>;

/**
 * Calls `fn` until it returns a truthy value and resolves with that value. A throw counts as
 * "not yet" (the condition may read something that does not exist yet); the last throw or value
 * is reported if the deadline passes.
 */
export async function waitFor<T>(fn: () => T | Promise<T>, opts: WaitOptions = {}): Promise<Truthy<T>> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_WAIT_TIMEOUT_MS;
  const intervalMs = opts.intervalMs ?? DEFAULT_WAIT_INTERVAL_MS;
  const deadline = Date.now() + timeoutMs;
  let last: { value: unknown } | { error: unknown } = { value: undefined };
  for (;;) {
    try {
      const value = await fn();
      if (value) return value as Truthy<T>;
      last = { value };
    } catch (error) {
      last = { error };
    }
    if (Date.now() >= deadline) {
      const seen = 'error' in last ? `last error: ${describe(last.error)}` : `last value: ${describe(last.value)}`;
      throw new WaitTimeoutError(
        `timed out after ${timeoutMs} ms waiting for ${opts.what ?? 'condition'}; ${seen}`,
        'error' in last ? last.error : last.value,
      );
    }
    await delay(Math.min(intervalMs, Math.max(0, deadline - Date.now())));
  }
}

/** Polls `broken` until `ms` have passed, failing at once with what it finds: the only way to
 * see that something does not happen within a window. */
export async function holdsFor(ms: number, what: string, broken: () => string | null | Promise<string | null>): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const why = await broken();
    if (why) throw new Error(`${what}: ${why}`);
    await delay(HOLD_POLL_MS);
  }
}

/** How often holdsFor looks: often enough to catch a brief violation, rarely enough to stay cheap. */
const HOLD_POLL_MS = 100;

function describe(value: unknown): string {
  const text = value instanceof Error ? value.message : inspect(value, { depth: 4, breakLength: Infinity });
  return text.length > MAX_DESCRIBED_CHARS ? `${text.slice(0, MAX_DESCRIBED_CHARS)}…` : text;
}
