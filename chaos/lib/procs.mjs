// The chaos run's view of /proc: a profile's processes by the A1_HOME marker every one of them
// carries (SPEC §15: counted by marker, never by /dev/pts), with the tab markers that say what
// each one is, and start times so a recycled pid never passes for a survivor.

import fs from 'node:fs';
import { isAlive } from '../../bench/lib/procs.mjs';

/** Field 22 of /proc/<pid>/stat (start time in clock ticks since boot), or null when gone. */
export function startTimeOf(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is parenthesised and may itself hold spaces or parentheses.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

function readEnviron(pid) {
  try {
    return fs.readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0');
  } catch {
    return null; // exited meanwhile, or not ours
  }
}

function argvOf(pid) {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter((a) => a !== '');
  } catch {
    return [];
  }
}

function markerOf(environ, key) {
  const entry = environ.find((e) => e.startsWith(`${key}=`));
  return entry === undefined ? null : entry.slice(key.length + 1);
}

/** Every live process (not this one) whose environment has `A1_HOME=home`: `{ pid, argv, tabId,
 * holderTab }`, the two tab markers null when absent. */
export function profileProcesses(home) {
  const wanted = `A1_HOME=${home}`;
  const out = [];
  for (const entry of fs.readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    const environ = readEnviron(pid);
    if (environ === null || !environ.includes(wanted) || !isAlive(pid)) continue;
    out.push({ pid, argv: argvOf(pid), tabId: markerOf(environ, 'A1_TAB_ID'), holderTab: markerOf(environ, 'A1_HOLDER_TAB') });
  }
  return out;
}

/** True when `pid` is a live a1 server of the profile at `home`, started at `startTime`. */
export function isProfileServer(pid, home, startTime) {
  if (!isAlive(pid) || startTimeOf(pid) !== startTime) return false;
  const environ = readEnviron(pid);
  return environ !== null && environ.includes(`A1_HOME=${home}`) && argvOf(pid).includes('__server');
}
