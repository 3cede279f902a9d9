// Test-only failure injection (SPEC §14 "Crash-point tests"): the server calls crashPoint(name)
// right before and right after each persistence and IPC step, and a test that sets
// A1_TEST_CRASH_AT=<name> (or <name>#<n> for the n-th time that point is reached) gets the
// process SIGKILLed exactly there, as a power cut or an OOM kill would. Unset, every point is a
// no-op. The environment is read once, at the first point reached.
//
// The points, each with `.before` and `.after`:
//   lease.acquire              taking the writer lease (the OS lock and its lock-file row)
//   registry.startServer       the epoch commit: epoch + 1, lease row, boot id (one transaction)
//   registry.<mutation>        every other registry transaction, named for the Registry method
//                              (updateTab with a topology change is registry.updateTopology)
//   backup.generation          writing a verified backup generation
//   holder.spawn               spawning a holder and waiting for its ready line
//   holder.bind                connecting to a freshly spawned holder and binding its link
//   holder.adopt               connecting to a recorded holder after a restart and binding it
//   holder.setController       sending a controller transfer to a holder
//   holder.terminate           sending a holder its terminate command (close, sleep, host stop)
//   server.ready               reporting ready to the launching client (status pipe, fd 3)
//   atomicWrite.rename         renaming a complete, synced temp file over the file it replaces
//                              (src/atomicWrite.ts), in whichever process writes it
// Resume-record writes are registry.putResumeRecord.

const MUTATIONS = [
  'insertTab',
  'updateTab',
  'updateTopology',
  'reorderTabs',
  'deleteTab',
  'putResumeRecord',
  'deleteResumeRecords',
  'retireTab',
  'moveAllTabsToHistory',
  'addHistory',
  'setMeta',
] as const;

export type RegistryMutation = (typeof MUTATIONS)[number];

const STEPS = [
  'lease.acquire',
  'registry.startServer',
  ...MUTATIONS.map((m) => `registry.${m}` as const),
  'backup.generation',
  'holder.spawn',
  'holder.bind',
  'holder.adopt',
  'holder.setController',
  'holder.terminate',
  'server.ready',
  'atomicWrite.rename',
] as const;

export type CrashStep = (typeof STEPS)[number];
export type CrashPointName = `${CrashStep}.${'before' | 'after'}`;

/** Every crash point, in the order a server meets them on a start followed by a mutation; last,
 * the atomic write's, which any process may meet at any time. */
export const CRASH_POINTS: readonly CrashPointName[] = STEPS.flatMap((s) => [`${s}.before`, `${s}.after`] as CrashPointName[]);

/** The environment variable a test sets to `<point>` or `<point>#<n>`. */
export const CRASH_AT_ENV = 'A1_TEST_CRASH_AT';

export interface CrashTarget {
  name: string;
  /** The hit to crash at, counted from 1. */
  hit: number;
}

/** Parses `<point>` or `<point>#<n>`; null for an unset, malformed or unknown value. */
export function parseCrashTarget(raw: string | undefined): CrashTarget | null {
  if (!raw) return null;
  const match = /^([a-zA-Z.]+)(?:#([1-9]\d*))?$/.exec(raw);
  if (!match || !(CRASH_POINTS as readonly string[]).includes(match[1])) return null;
  return { name: match[1], hit: match[2] ? Number(match[2]) : 1 };
}

let target: CrashTarget | null | undefined;
let hits = 0;

/** SIGKILLs this process when `name` is the configured point at its configured hit. */
export function crashPoint(name: CrashPointName): void {
  if (target === undefined) target = parseCrashTarget(process.env[CRASH_AT_ENV]);
  if (target === null || target.name !== name) return;
  hits++;
  if (hits === target.hit) process.kill(process.pid, 'SIGKILL');
}
