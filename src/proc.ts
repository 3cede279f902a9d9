// Process identity from the OS (SPEC §4): a pid alone can be recycled, so a1 names a process by
// pid plus native start time and re-checks both before it signals anything. Linux reads /proc;
// macOS answers the start time and boot id through ps/sysctl and nothing else yet.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

export interface ProcessIdentity {
  pid: number;
  /** Opaque: compare for equality only (clock ticks since boot on Linux, `ps lstart` on macOS). */
  startTime: string;
}

export interface ProcStat {
  pid: number;
  ppid: number;
  pgid: number;
  sid: number;
  startTime: string;
  /** One letter: R running, S sleeping, Z zombie (dead, not yet reaped), ... */
  state: string;
  /** The foreground process group of the process's controlling terminal, or -1 without one. */
  tpgid: number;
}

const IS_LINUX = process.platform === 'linux';
const IS_MACOS = process.platform === 'darwin';
/** Processes that vanish or hide while we look are simply not there. */
const GONE_OR_HIDDEN = new Set(['ENOENT', 'ESRCH', 'EACCES', 'EPERM']);

/**
 * Parses /proc/<pid>/stat. Field 2 (comm) is parenthesised and may contain spaces and ')',
 * so fields are counted from the last ')'; field 3 is the first after it.
 */
export function parseProcStat(text: string): ProcStat | null {
  const close = text.lastIndexOf(')');
  const open = text.indexOf(' (');
  if (close < 0 || open < 0) return null;
  const fields = text.slice(close + 2).trim().split(' ');
  const field = (n: number) => fields[n - 3];
  const pid = Number(text.slice(0, open));
  const ppid = Number(field(4));
  const pgid = Number(field(5));
  const sid = Number(field(6));
  const startTime = field(22);
  if (![pid, ppid, pgid, sid].every(Number.isSafeInteger) || startTime === undefined || !/^\d+$/.test(startTime)) {
    return null;
  }
  return { pid, ppid, pgid, sid, startTime, state: field(3) ?? '', tpgid: Number(field(8)) };
}

function readStat(pid: number): ProcStat | null {
  if (!Number.isSafeInteger(pid) || pid <= 0) return null;
  try {
    return parseProcStat(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch (error) {
    if (GONE_OR_HIDDEN.has((error as NodeJS.ErrnoException).code ?? '')) return null;
    throw error;
  }
}

/** The process's start time, or null when no process has this pid. A zombie still has one:
 * its pid cannot be reused until it is reaped. */
export function procStartTime(pid: number): string | null {
  if (IS_LINUX) return readStat(pid)?.startTime ?? null;
  if (IS_MACOS) return psStartTime(pid);
  return null;
}

function psStartTime(pid: number): string | null {
  if (!Number.isSafeInteger(pid) || pid <= 0) return null;
  const ps = spawnSync('ps', ['-o', 'lstart=', '-p', String(pid)], { encoding: 'utf8' });
  const out = ps.status === 0 ? ps.stdout.trim() : '';
  return out === '' ? null : out;
}

/** The process's state letter (R, S, D, T stopped, Z zombie, ...), or null when it is gone or
 * where /proc is not there to say. */
export function processState(pid: number): string | null {
  return IS_LINUX ? (readStat(pid)?.state ?? null) : null;
}

/** True while `id.pid` is still the process that started at `id.startTime`. */
export function isSameProcess(id: ProcessIdentity): boolean {
  return procStartTime(id.pid) === id.startTime;
}

/** The foreground process group of `pid`'s terminal (field 8 of /proc/<pid>/stat). */
export function foregroundGroupOf(pid: number): number | null {
  if (!IS_LINUX) return null;
  const tpgid = readStat(pid)?.tpgid;
  return tpgid === undefined || !Number.isSafeInteger(tpgid) ? null : tpgid;
}

/** Like isSameProcess, but a zombie counts as dead: it runs no code and holds no socket, it
 * only waits for its parent to reap it. */
export function isLiveProcess(id: ProcessIdentity): boolean {
  if (!IS_LINUX) return isSameProcess(id);
  const stat = readStat(id.pid);
  return stat !== null && stat.startTime === id.startTime && stat.state !== 'Z';
}

/** Changes at every boot: start times (and so identities) from another boot mean nothing. */
export function bootId(): string {
  if (IS_MACOS) {
    const sysctl = spawnSync('sysctl', ['-n', 'kern.boottime'], { encoding: 'utf8' });
    if (sysctl.status === 0) return sysctl.stdout.trim();
    throw new Error('sysctl kern.boottime failed.');
  }
  return fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
}

/** Whether the process was started with `key=value` in its environment (the A1_TAB_ID marker).
 * False when it is gone or belongs to another user. */
export function procEnvironHas(pid: number, key: string, value: string): boolean {
  if (!IS_LINUX || !Number.isSafeInteger(pid) || pid <= 0) return false;
  let environ: Buffer;
  try {
    environ = fs.readFileSync(`/proc/${pid}/environ`);
  } catch (error) {
    if (GONE_OR_HIDDEN.has((error as NodeJS.ErrnoException).code ?? '')) return false;
    throw error;
  }
  return environ.toString('utf8').split('\0').includes(`${key}=${value}`);
}

export function processGroupOf(pid: number): number | null {
  return IS_LINUX ? (readStat(pid)?.pgid ?? null) : null;
}

export function sessionOf(pid: number): number | null {
  return IS_LINUX ? (readStat(pid)?.sid ?? null) : null;
}

/** Ancestors are followed at most this far: far beyond any real hook's depth (agent, shell, a1). */
const MAX_ANCESTRY_HOPS = 32;

/**
 * Whether `pid` or one of its ancestors is in session `sid`: a process the tab's child started,
 * however it was detached since, as long as its parents live. A daemon that left the session and
 * was reparented to init is not; nor is anything run by a process that left the session and
 * `servesOthers` names (a shared agent server: whatever it runs, it runs for every client it
 * has, whichever tab started it). True where processes cannot be read (not Linux).
 */
export function descendsFromSession(pid: number, sid: number, servesOthers: (pid: number) => boolean = () => false): boolean {
  if (!IS_LINUX) return true;
  let next = pid;
  for (let hop = 0; hop < MAX_ANCESTRY_HOPS && next > 1; hop++) {
    const stat = readStat(next);
    if (stat === null) return false;
    if (stat.sid === sid) return true;
    if (servesOthers(next)) return false;
    next = stat.ppid;
  }
  return false;
}

/** The process's argv; null when it is gone or cannot be read. */
export function procArgv(pid: number): string[] | null {
  if (!IS_LINUX || !Number.isSafeInteger(pid) || pid <= 0) return null;
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return null;
  }
}

/** Pids wrap at this value; null where it cannot be read. */
export function pidMax(): number | null {
  try {
    const n = Number(fs.readFileSync('/proc/sys/kernel/pid_max', 'utf8').trim());
    return Number.isSafeInteger(n) && n > 1 ? n : null;
  } catch {
    return null;
  }
}

/** Every process visible in /proc, for session sweeps and ancestry snapshots. */
export function listProcesses(): ProcStat[] {
  if (!IS_LINUX) return [];
  const out: ProcStat[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readStat(Number(entry));
    if (stat !== null) out.push(stat);
  }
  return out;
}

/**
 * Sends `signal` only if `id` still names the same process; false if it does not (or is gone
 * by the time the signal lands). The check and the kill are two steps, so a pid recycled in
 * between could still be hit; the window is microseconds against a pid space that takes far
 * longer to wrap.
 */
export function signalVerified(id: ProcessIdentity, signal: NodeJS.Signals | number): boolean {
  if (!isSameProcess(id)) return false;
  try {
    process.kill(id.pid, signal);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw error;
  }
}

function readCwd(pid: number): string | null {
  try {
    const dir = fs.readlinkSync(`/proc/${pid}/cwd`);
    // A directory removed under the process: it has no path to go to.
    return dir.endsWith(' (deleted)') ? null : dir;
  } catch (error) {
    if (GONE_OR_HIDDEN.has((error as NodeJS.ErrnoException).code ?? '')) return null;
    throw error;
  }
}

/**
 * Where a tab's shell is now (tmux's pane_current_path): the working directory of the job in the
 * foreground of the terminal `child` leads, else the child's own. Null while `child` is not the
 * process it names, or where /proc is not there to say (macOS).
 */
export function currentDirOf(child: ProcessIdentity): string | null {
  if (!IS_LINUX) return null;
  const stat = readStat(child.pid);
  if (stat === null || stat.startTime !== child.startTime) return null;
  // The foreground group's leader, if it is still there and runs in the tab's session.
  const fg = stat.tpgid > 0 && stat.tpgid !== child.pid ? readStat(stat.tpgid) : null;
  const dir = (fg !== null && fg.sid === stat.sid ? readCwd(fg.pid) : null) ?? readCwd(child.pid);
  // The pid was not handed to another process while it was read.
  return dir !== null && isSameProcess(child) ? dir : null;
}
