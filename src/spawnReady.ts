// Starting a detached process that reports once, as one line on an inherited pipe (fd 3): the
// server a client starts (ready, lost or error) and the holder the server starts (ready with its
// pids). At src/ root since both sides use it.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import type { Readable, Writable } from 'node:stream';

/** How a start ended: its one line, or why there is none. */
export type ReadyLine = { t: 'line'; line: string } | { t: 'timeout' } | { t: 'end' } | { t: 'error'; err: Error };

export interface SpawnReadyOptions {
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  /** Written to the child's fd 3 once it is spawned (a holder's init). */
  input?: string;
  /** A child that misses its deadline is SIGKILLed (a holder past its PTY deadline, SPEC §10). */
  killOnTimeout?: boolean;
}

/** Spawns `node <args>` detached (own session, no terminal) and waits for the first line it
 * writes on fd 3. Never rejects; the pipe is closed once the line (or its absence) is known. */
export function spawnReady(args: readonly string[], opts: SpawnReadyOptions): Promise<ReadyLine> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { detached: true, stdio: ['ignore', 'ignore', 'ignore', 'pipe'], env: opts.env });
    child.unref();
    const pipe = child.stdio[3] as unknown as Readable & Writable;
    let buf = '';
    let done = false;
    const finish = (outcome: ReadyLine) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      pipe.destroy();
      resolve(outcome);
    };
    const timer = setTimeout(() => {
      if (opts.killOnTimeout) {
        try {
          // ChildProcess.kill signals only a child not yet reaped: never a reused pid.
          child.kill('SIGKILL');
        } catch {
          // Already gone.
        }
      }
      finish({ t: 'timeout' });
    }, opts.timeoutMs);
    child.once('error', (err) => finish({ t: 'error', err }));
    pipe.on('error', () => {
      // Reported as the missing line.
    });
    pipe.on('data', (chunk: Buffer) => {
      buf += chunk.toString('utf8');
      const nl = buf.indexOf('\n');
      if (nl >= 0) finish({ t: 'line', line: buf.slice(0, nl) });
    });
    pipe.once('end', () => finish({ t: 'end' }));
    if (opts.input !== undefined) pipe.write(opts.input);
  });
}

/** The started process's side: fd 3, when the launching process passed a pipe there. */
export function openStatusPipe(): net.Socket | null {
  try {
    fs.fstatSync(3);
    const s = new net.Socket({ fd: 3, readable: false, writable: true });
    s.on('error', () => {
      // Ignored: the launching process may have gone.
    });
    return s;
  } catch {
    return null;
  }
}
