// When a host's link tries again (issue 30, memo §4). Full jitter (each delay drawn uniformly up
// to an exponential ceiling) keeps the local processes that all lost one host at once from
// dialling it again in step.

/** The ceiling of the first retry: a refused or reset connection often heals within a second. */
export const BACKOFF_BASE_MS = 250;
/** The ceiling never passes 15 s: a host that comes back is seen again within that. */
export const BACKOFF_CAP_MS = 15_000;
/** No retry sooner than this: a failing ssh is not started again in a tight loop. */
export const BACKOFF_MIN_MS = 100;
/** A link that stayed up this long was healthy: its next drop starts the backoff afresh. */
export const BACKOFF_RESET_AFTER_MS = 30_000;
/** A host that needs a person (a host key, a key to load) is tried again this often, so it comes
 * back by itself once they have acted, without ssh being run in vain every few seconds. */
export const ATTENTION_RETRY_MS = 60_000;
/** Two a1s that cannot talk stay so until one is updated; a config change retries at once. */
export const INCOMPATIBLE_RETRY_MS = 10 * 60_000;

/** The delay before retry number `failures` (1 for the first), given `random` in [0, 1). */
export function backoffDelay(failures: number, random: number): number {
  const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, failures - 1));
  return Math.max(BACKOFF_MIN_MS, Math.floor(random * ceiling));
}
