// Counters (SPEC §13) are counts of structured log events by kind, so a counter moves exactly
// when something was logged and there is one record of each occurrence, in the logs. The server
// counts its own events live (ProcessLogger.counts); holders' events are counted from their
// logs, which `a1 tabs host status` and `a1 tabs doctor` read.

/** The event names each counter counts. An event a role does not log leaves its counter at 0. */
export const COUNTER_EVENTS = {
  /** A holder that died without a1 ending it (killed, or it crashed); the server replaced it. */
  holderDeaths: ['holder-died'],
  /** A tab's program started again after it ended by itself with a non-zero status or a signal:
   * the program's own doing (a user's command that exits 1 counts here), not a crash of a1. */
  programRestarts: ['child-respawn'],
  /** A tab's running program ended by a1 to start it again (`/restart` on it, or unresponsive). */
  forcedRestarts: ['child-restart'],
  /** An event loop that was late (watchdog), or a holder that missed its heartbeats. */
  stalls: ['loop-stall', 'holder-timeout', 'watchdog-kill'],
  /** A client sent the full surface again instead of a patch (it fell behind). */
  resyncs: ['client-resync'],
  /** Input refused: a full input queue, a stale epoch or revision, a refused handshake. */
  rejectedInputs: ['input-rejected', 'stale-epoch-refused', 'handshake-refused', 'client-handshake-refused', 'bridge-refused'],
  /** Something left working worse than it should: unverifiable holders, failed starts, lost backups. */
  degraded: [
    'adopt-unverifiable', 'adopt-mismatch', 'holder-start-failed', 'registry-blocked', 'recovery-blocked', 'backup-failed', 'capture-failed',
    'recovery-write-failed', 'spawn-failed', 'slave-open-failed', 'pty-write-failed', 'watchdog-failed', 'start-refused',
  ],
} as const satisfies Record<string, readonly string[]>;

export type CounterName = keyof typeof COUNTER_EVENTS;
export type Counters = Record<CounterName, number>;
export const COUNTER_NAMES = Object.keys(COUNTER_EVENTS) as CounterName[];

/** How people read each counter (host status). */
export const COUNTER_LABELS: Record<CounterName, string> = {
  holderDeaths: 'holder deaths',
  programRestarts: 'program restarts',
  forcedRestarts: 'forced restarts',
  stalls: 'stalls',
  resyncs: 'resyncs',
  rejectedInputs: 'rejected inputs',
  degraded: 'degraded',
};

/** Counters from counts per event name. */
export function countersOf(eventCounts: Readonly<Record<string, number>>): Counters {
  const out = {} as Counters;
  for (const name of COUNTER_NAMES) {
    out[name] = COUNTER_EVENTS[name].reduce((sum, event) => sum + (eventCounts[event] ?? 0), 0);
  }
  return out;
}

/** Adds counters up (server live counts plus holders' logged ones). */
export function addCounters(a: Counters, b: Counters): Counters {
  const out = {} as Counters;
  for (const name of COUNTER_NAMES) out[name] = a[name] + b[name];
  return out;
}

/** "holder deaths 1 · program restarts 0 · …" */
export function formatCounters(c: Counters): string {
  return COUNTER_NAMES.map((n) => `${COUNTER_LABELS[n]} ${c[n]}`).join(' · ');
}
