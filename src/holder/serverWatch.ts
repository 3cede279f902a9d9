// A holder's part in server recovery (SPEC §10, §15 "Starting and finding the server"): when its
// server link drops and no client starts a replacement, a holder does, after a random 1–3 s so
// that the holders of a profile do not all race at once (the writer lease settles any race that
// is left). A clean server exit removes server.sock first, so a missing socket means "leave it".
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import { lockHolder } from '../store/lockHolder.js';

/** The random wait before a holder starts a replacement server (SPEC §15). */
export const SERVER_RESTART_DELAY_MIN_MS = 1_000;
export const SERVER_RESTART_DELAY_MAX_MS = 3_000;
/** A connect that neither succeeds nor fails in this long counts as a live (busy) server. */
const PROBE_TIMEOUT_MS = 2_000;

/** `lease-held`: someone holds the writer lease (a server starting, or a test holding it), so a
 * start could only lose the race. */
export type ServerProbe = 'clean-exit' | 'answering' | 'lease-held' | 'dead';

/** What the holder should do after probing the server socket: only a dead server is replaced. */
export function shouldStartServer(probe: ServerProbe, terminating: boolean): boolean {
  return probe === 'dead' && !terminating;
}

export function restartDelayMs(random: () => number = Math.random): number {
  return SERVER_RESTART_DELAY_MIN_MS + Math.floor(random() * (SERVER_RESTART_DELAY_MAX_MS - SERVER_RESTART_DELAY_MIN_MS));
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
