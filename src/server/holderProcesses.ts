// The profile's holder processes as /proc shows them, by the markers the server puts in every
// holder's environment (SPEC §15: processes are counted by marker, never by terminal). The holder
// strips these markers from its child's environment and from a server it starts.
import fs from 'node:fs';
import { listProcesses } from '../proc.js';
import type { HolderProcess } from './orphans.js';

/** Which profile spawned the holder: its state directory, unique per A1_HOME and profile. */
export const HOLDER_PROFILE_ENV = 'A1_HOLDER_PROFILE';
export const HOLDER_TAB_ENV = 'A1_HOLDER_TAB';
export const HOLDER_INC_ENV = 'A1_HOLDER_INC';

/** Every live holder of the profile whose marker is `profileMarker` (this process excluded). */
export function profileHolders(profileMarker: string): HolderProcess[] {
  const out: HolderProcess[] = [];
  for (const stat of listProcesses()) {
    if (stat.pid === process.pid || stat.state === 'Z') continue;
    const env = readEnviron(stat.pid);
    if (env === null || env.get(HOLDER_PROFILE_ENV) !== profileMarker) continue;
    const tabId = env.get(HOLDER_TAB_ENV);
    const inc = env.get(HOLDER_INC_ENV);
    if (tabId && inc) out.push({ pid: stat.pid, startTime: stat.startTime, tabId, inc });
  }
  return out;
}

/** The process's environment, or null when it vanished or is not ours to read. */
function readEnviron(pid: number): Map<string, string> | null {
  let raw: string;
  try {
    raw = fs.readFileSync(`/proc/${pid}/environ`, 'utf8');
  } catch {
    return null;
  }
  const env = new Map<string, string>();
  for (const entry of raw.split('\0')) {
    const eq = entry.indexOf('=');
    if (eq > 0) env.set(entry.slice(0, eq), entry.slice(eq + 1));
  }
  return env;
}
