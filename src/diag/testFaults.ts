// Test-only fault injection (never set outside tests): A1_TEST_FAULT_SIGUSR2 names what a
// resident process does on SIGUSR2, per role, so a test can crash or hang the real thing:
//   A1_TEST_FAULT_SIGUSR2="server=block,holder=crash"
//   crash       throw an uncaught Error whose message is A1_TEST_FAULT_TEXT (a test plants a
//               secret there to prove messages never reach a log or crash record)
//   block       block the event loop for good (the watchdog's case)
//   block:<ms>  block it for that long, then carry on (a stall)
//   drop-resize (holder) the next resize from the controller is dropped, as if lost in transit
// Each SIGUSR2 arms a one-shot fault once more, and logs `test-fault-armed` when it is armed.
// A role key matches the role itself or its family: `holder` matches `holder-<tabId>`.
// A1_TEST_SIGNAL_REFUSED=<argv0> makes every signal a1 sends to a process whose argv[0] is exactly
// that fail, as for a process a1 may not signal: a close that cannot end one of its processes.
//
// A1_TEST_SERVER_START_BARRIER=<path> holds a starting server before it asks for the writer
// lease until <path> exists; it first creates <path>.<pid> to say it arrived. A test releases
// two servers at once into the lease race (SPEC §15: races are forced, never timed).
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { realTerminateIO, refusingSignals, type TerminateIO } from '../lifecycle/terminate.js';
import type { Logger } from '../log.js';

/** Faults that act once, at the next occasion the process meets after SIGUSR2. */
const ONE_SHOT = ['drop-resize'] as const;
export type OneShotFault = (typeof ONE_SHOT)[number];

export type TestFault = { kind: 'crash' } | { kind: 'block'; ms: number | null } | { kind: OneShotFault };

/** One-shot faults armed and not yet taken, by kind. */
const armed = new Map<OneShotFault, number>();

/** Takes one arming of a one-shot fault: true when the caller must now misbehave. */
export function takeArmedFault(kind: OneShotFault): boolean {
  const n = armed.get(kind) ?? 0;
  if (n === 0) return false;
  armed.set(kind, n - 1);
  return true;
}

/** The fault `spec` assigns to `role`, or null. Malformed entries are ignored. */
export function faultFor(spec: string | undefined, role: string): TestFault | null {
  if (!spec) return null;
  for (const item of spec.split(',')) {
    const [key, action] = item.split('=').map((s) => s.trim());
    if (!key || !action || (role !== key && !role.startsWith(`${key}-`))) continue;
    if (action === 'crash') return { kind: 'crash' };
    if (action === 'block') return { kind: 'block', ms: null };
    const oneShot = ONE_SHOT.find((k) => k === action);
    if (oneShot) return { kind: oneShot };
    const m = /^block:(\d+)$/.exec(action);
    if (m) return { kind: 'block', ms: Number(m[1]) };
  }
  return null;
}

/** Arms the fault for `role`, if the environment names one. */
export function installTestFaults(env: NodeJS.ProcessEnv, role: string, log?: Logger): void {
  const fault = faultFor(env.A1_TEST_FAULT_SIGUSR2, role);
  if (!fault) return;
  const text = env.A1_TEST_FAULT_TEXT ?? 'injected fault';
  process.on('SIGUSR2', () => {
    if (fault.kind !== 'crash' && fault.kind !== 'block') {
      armed.set(fault.kind, (armed.get(fault.kind) ?? 0) + 1);
      log?.warn('test-fault-armed', { kind: fault.kind });
      return;
    }
    if (fault.kind === 'crash') {
      setImmediate(() => {
        throw new Error(text);
      });
      return;
    }
    const until = fault.ms === null ? Infinity : performance.now() + fault.ms;
    while (performance.now() < until) {
      // Busy on purpose: nothing else may run.
    }
  });
}

/** The terminator a resident process uses: the real one, or with A1_TEST_SIGNAL_REFUSED set, one
 * whose signals to that program fail. */
export function terminateIOFor(env: NodeJS.ProcessEnv): TerminateIO {
  const refused = env.A1_TEST_SIGNAL_REFUSED;
  if (!refused) return realTerminateIO;
  return refusingSignals(realTerminateIO, (pid) => argv0Of(pid) === refused);
}

function argv0Of(pid: number): string | null {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0];
  } catch {
    return null;
  }
}

/** How often a server held at the start barrier looks for its release. */
const BARRIER_POLL_MS = 5;

/** Waits at the start barrier the environment names, if any (see the header). */
export async function passStartBarrier(env: NodeJS.ProcessEnv): Promise<void> {
  const barrier = env.A1_TEST_SERVER_START_BARRIER;
  if (!barrier) return;
  fs.writeFileSync(`${barrier}.${process.pid}`, '');
  while (!fs.existsSync(barrier)) await new Promise((r) => setTimeout(r, BARRIER_POLL_MS));
}
