// The profile's holder processes as /proc shows them, by the markers the server puts in every
// holder's environment (SPEC §15: processes are counted by marker, never by terminal). The holder
// strips these markers from its child's environment and from a server it starts.
import fs from 'node:fs';
import { parseProcStat } from '../proc.js';
import type { HolderProcess } from './orphans.js';

/** Which profile spawned the holder: its state directory, unique per A1_HOME and profile. */
export const HOLDER_PROFILE_ENV = 'A1_HOLDER_PROFILE';
export const HOLDER_TAB_ENV = 'A1_HOLDER_TAB';
export const HOLDER_INC_ENV = 'A1_HOLDER_INC';

/** A holder's markers: its tab and incarnation. */
type Marks = { tabId: string; inc: string };

/** What a look reads of /proc; tests give a machine of their own. */
export interface ProcReader {
  pids(): number[];
  /** Start time, state letter and session, or null when the process is gone or hidden. */
  stat(pid: number): { startTime: string; state: string; sid: number } | null;
  /** The holder markers of the profile `marker`, or null when the process is no such holder
   * (also when its environment cannot be read: gone, or another user's). */
  marks(pid: number, marker: string): Marks | null;
}

/** Every live holder of the profile whose marker is `profileMarker` (this process excluded): a
 * full look, every process's environment read. */
export function profileHolders(profileMarker: string, proc: ProcReader = LINUX_PROC): HolderProcess[] {
  return new HolderScanner(profileMarker, proc).look();
}

/** How many looks share one full reading: in between, a look reads /proc's listing, the stat of
 * each holder, and a process not seen before once it has lasted from one look to the next. */
export const FULL_LOOK_EVERY = 15;

/** What a look remembers of a process: `marks` undefined until it is read. */
interface Known {
  startTime: string | null;
  marks: Marks | null | undefined;
}

const FIRST_SEEN: Known = { startTime: null, marks: undefined };

/**
 * The orphan sweep's eyes (every 2 s). Reading every process's stat and environment each time
 * cost the server more than all else it does with many tabs on a busy machine, where most
 * processes are old, and most new ones (a tab's `date`, `sleep`) are gone by the next look. So:
 * a process is read once it has lasted from one look to the next, and its environment only if
 * it leads its own session, as every holder does (it is spawned detached); and it is read once,
 * since an environment is set when a process execs. What that cannot see (a pid reused between
 * two looks, a process read between its fork and its exec, a holder that is no session leader)
 * every FULL_LOOK_EVERY-th look, which reads every process afresh, does.
 */
export class HolderScanner {
  private known = new Map<number, Known>();
  private looks = 0;

  constructor(
    private readonly profileMarker: string,
    private readonly proc: ProcReader = LINUX_PROC,
    private readonly selfPid: number = process.pid,
  ) {}

  /** `full`: every process read now, as on every FULL_LOOK_EVERY-th look. */
  look(full = false): HolderProcess[] {
    full = this.looks++ % FULL_LOOK_EVERY === 0 || full;
    const known = new Map<number, Known>();
    const out: HolderProcess[] = [];
    for (const pid of this.proc.pids()) {
      if (pid === this.selfPid) continue;
      const before = full ? undefined : (this.known.get(pid) ?? null);
      if (before === null) {
        known.set(pid, FIRST_SEEN);
        continue;
      }
      if (before && before.marks === null) {
        known.set(pid, before);
        continue;
      }
      const stat = this.proc.stat(pid);
      // A zombie is no holder, and neither is what vanished meanwhile; either is looked at again.
      if (stat === null || stat.state === 'Z') continue;
      let marks = before && before.startTime === stat.startTime ? before.marks : undefined;
      if (marks === undefined) marks = full || stat.sid === pid ? this.proc.marks(pid, this.profileMarker) : null;
      known.set(pid, { startTime: stat.startTime, marks });
      if (marks) out.push({ pid, startTime: stat.startTime, ...marks });
    }
    this.known = known;
    return out;
  }
}

const GONE_OR_HIDDEN = new Set(['ENOENT', 'ESRCH', 'EACCES', 'EPERM']);

function readProc(pid: number, file: string): string | null {
  try {
    return fs.readFileSync(`/proc/${pid}/${file}`, 'latin1');
  } catch (error) {
    if (GONE_OR_HIDDEN.has((error as NodeJS.ErrnoException).code ?? '')) return null;
    throw error;
  }
}

/** The value of `key` in a NUL-separated environment, without splitting the whole of it. */
function environValue(raw: string, key: string): string | undefined {
  const entry = `${key}=`;
  // The last one counts, as it would in the process (and in a Map built from the whole).
  const later = raw.lastIndexOf(`\0${entry}`);
  if (later < 0 && !raw.startsWith(entry)) return undefined;
  const at = (later < 0 ? 0 : later + 1) + entry.length;
  const end = raw.indexOf('\0', at);
  return raw.slice(at, end < 0 ? raw.length : end);
}

export const LINUX_PROC: ProcReader = {
  pids() {
    if (process.platform !== 'linux') return [];
    const out: number[] = [];
    for (const entry of fs.readdirSync('/proc')) {
      const c = entry.charCodeAt(0);
      if (c >= 48 && c <= 57 && /^\d+$/.test(entry)) out.push(Number(entry));
    }
    return out;
  },
  stat(pid) {
    const text = readProc(pid, 'stat');
    return text === null ? null : parseProcStat(text);
  },
  marks(pid, marker) {
    let raw: string;
    try {
      raw = fs.readFileSync(`/proc/${pid}/environ`, 'latin1');
    } catch {
      return null; // gone, or not ours to read
    }
    // Read as latin1, compared as UTF-8 bytes: a marker with non-ASCII characters still matches.
    if (environValue(raw, HOLDER_PROFILE_ENV) !== Buffer.from(marker, 'utf8').toString('latin1')) return null;
    const tabId = environValue(raw, HOLDER_TAB_ENV);
    const inc = environValue(raw, HOLDER_INC_ENV);
    return tabId && inc ? { tabId, inc } : null;
  },
};
