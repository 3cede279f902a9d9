// Which timers code under `root` armed and has not yet cleared or seen fire: wraps the global
// timer functions for one test, so a shutdown can be checked to leave none behind.
import { fileURLToPath } from 'node:url';
import path from 'node:path';

/** The repository's src/, as stack frames name it. */
export const SRC_ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'src') + path.sep;

type Handle = ReturnType<typeof setTimeout>;

export function probeTimers(root: string = SRC_ROOT) {
  const live = new Map<Handle, string>();
  const real = { setTimeout, setInterval, clearTimeout, clearInterval };
  /** The first frame under `root` that armed the timer, or null for anyone else's timer. */
  const armedBy = (): string | null => new Error().stack?.split('\n').slice(2).find((l) => l.includes(root))?.trim() ?? null;
  const arm = (repeat: boolean) =>
    ((fn: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => {
      const where = armedBy();
      const handle: Handle = (repeat ? real.setInterval : real.setTimeout)(
        (...a: unknown[]) => {
          if (!repeat) live.delete(handle);
          fn(...a);
        },
        ms,
        ...args,
      );
      if (where) live.set(handle, where);
      return handle;
    }) as unknown as typeof setTimeout;
  const clear = (realClear: (h: Handle | undefined) => void) => (h: Handle | undefined) => {
    if (h !== undefined) live.delete(h);
    realClear(h);
  };
  globalThis.setTimeout = arm(false);
  globalThis.setInterval = arm(true) as unknown as typeof setInterval;
  globalThis.clearTimeout = clear(real.clearTimeout) as typeof clearTimeout;
  globalThis.clearInterval = clear(real.clearInterval) as typeof clearInterval;
  return {
    /** Where each live timer was armed. */
    live: () => [...live.values()],
    restore() {
      Object.assign(globalThis, real);
    },
  };
}

/** The event loop's resources other than timers (sockets, servers, the PTY), by type. */
export function handleCounts(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const type of process.getActiveResourcesInfo()) if (type !== 'Timeout' && type !== 'Immediate') counts[type] = (counts[type] ?? 0) + 1;
  return counts;
}
