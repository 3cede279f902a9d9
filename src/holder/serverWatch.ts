// A holder's part in server recovery (SPEC §10, §15 "Starting and finding the server"): when its
// server link drops and no client starts a replacement, a holder does, after a random 1–3 s so
// that the holders of a profile do not all race at once (the writer lease settles any race that
// is left). It keeps looking, backing off, until a server links to it: a lease held at that moment
// (a server starting or hung) or a replacement that died before linking is no reason to give up.
// A clean server exit removes server.sock first, so a missing socket means "leave it", for good.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import { lockHolder } from '../lockHolder.js';

/** The random wait before a holder starts a replacement server (SPEC §15). */
export const SERVER_RESTART_DELAY_MIN_MS = 1_000;
export const SERVER_RESTART_DELAY_MAX_MS = 3_000;
/** Later looks back off, doubling from the first wait, up to this: a server held up for long is
 * still replaced within half a minute of the lease coming free, at one probe per half minute. */
export const SERVER_RETRY_MAX_MS = 30_000;
/** Automatic starts (SPEC §10, §15): a holder starts at most this many servers in the window, the
 * budget a client keeps for its own; a crash-looping server is not restarted without bound. */
export const SERVER_STARTS_ALLOWED = 3;
export const SERVER_STARTS_WINDOW_MS = 60_000;
/** A connect that neither succeeds nor fails in this long counts as a live (busy) server. */
const PROBE_TIMEOUT_MS = 2_000;

/** `lease-held`: someone holds the writer lease (a server starting, or a test holding it), so a
 * start could only lose the race. */
export type ServerProbe = 'clean-exit' | 'answering' | 'lease-held' | 'dead';

/** What a holder does after a look at the server: `stop` looking (a clean exit, or the holder is
 * ending), `start` one now, or `wait` and look again (a server answers or is starting, but has not
 * linked to this holder yet, or the start budget is spent). `starts` is the budget to keep. */
export type WatchDecision = { action: 'stop' } | { action: 'start' | 'wait'; starts: number[] };

/** Only a dead server is replaced, within the budget of automatic starts; only a clean exit ends
 * the looking. `starts` are the times of this holder's earlier starts. */
export function decideServerWatch(probe: ServerProbe, starts: readonly number[], now: number, terminating: boolean): WatchDecision {
  if (terminating || probe === 'clean-exit') return { action: 'stop' };
  const recent = starts.filter((t) => now - t < SERVER_STARTS_WINDOW_MS);
  if (probe !== 'dead' || recent.length >= SERVER_STARTS_ALLOWED) return { action: 'wait', starts: recent };
  return { action: 'start', starts: [...recent, now] };
}

export function restartDelayMs(random: () => number = Math.random): number {
  return SERVER_RESTART_DELAY_MIN_MS + Math.floor(random() * (SERVER_RESTART_DELAY_MAX_MS - SERVER_RESTART_DELAY_MIN_MS));
}

/** The wait before look number `attempt` (0 for the first) after a loss: 1–3 s, doubling, capped. */
export function retryDelayMs(attempt: number, random: () => number = Math.random): number {
  return Math.min(SERVER_RETRY_MAX_MS, restartDelayMs(random) * 2 ** Math.min(attempt, 16));
}

/** No socket file: the server exited cleanly (it unlinks it). A refused connect: it died. */
export function probeServer(socketPath: string, lockPath?: string): Promise<ServerProbe> {
  if (!fs.existsSync(socketPath)) return Promise.resolve('clean-exit');
  if (lockPath && lockHolder(lockPath)) return Promise.resolve('lease-held');
  return new Promise((resolve) => {
    const sock = net.connect(socketPath);
    const done = (probe: ServerProbe) => {
      clearTimeout(timer);
      sock.destroy();
      resolve(probe);
    };
    const timer = setTimeout(() => done('answering'), PROBE_TIMEOUT_MS);
    sock.once('connect', () => done('answering'));
    sock.once('error', (err: NodeJS.ErrnoException) => done(err.code === 'ENOENT' ? 'clean-exit' : 'dead'));
  });
}

/** Starts `a1 __server` detached, as a client would, without the holder's own markers. */
export function startServerProcess(entry: string, profile: string, env: NodeJS.ProcessEnv): void {
  const clean: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(env)) if (!k.startsWith('A1_HOLDER_')) clean[k] = v;
  const child = spawn(process.execPath, [entry, '__server', '--profile', profile], { detached: true, stdio: 'ignore', env: clean });
  child.on('error', () => {
    // Nothing to report to: the next holder or client tries again.
  });
  child.unref();
}
