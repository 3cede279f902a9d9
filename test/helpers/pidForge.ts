// Starts a process at a chosen pid, as a recycled pid would be (Linux, root: ns_last_pid), so a
// test can put an unrelated session where a1 remembers one of its own.
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import fs from 'node:fs';
import { once } from 'node:events';

const NS_LAST_PID = '/proc/sys/kernel/ns_last_pid';
/** Other processes on the machine may take the pid first: a few tries are enough. */
const TRIES = 50;

/** Whether this process may choose the next pid (root with CAP_SYS_ADMIN or CAP_CHECKPOINT_RESTORE). */
export function canChoosePids(): boolean {
  try {
    fs.writeFileSync(NS_LAST_PID, fs.readFileSync(NS_LAST_PID, 'utf8').trim());
    return true;
  } catch {
    return false;
  }
}

/** Spawns `file args` as a session leader (detached) with exactly `pid`; the pid must be free. */
export async function spawnAtPid(pid: number, file: string, args: string[], opts: SpawnOptions): Promise<ChildProcess> {
  for (let i = 0; i < TRIES; i++) {
    fs.writeFileSync(NS_LAST_PID, String(pid - 1));
    const child = spawn(file, args, { ...opts, detached: true, stdio: 'ignore' });
    if (child.pid === pid) return child;
    // Our own unreaped child: its pid cannot have been recycled yet.
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
  }
  throw new Error(`could not start a process at pid ${pid} in ${TRIES} tries`);
}
