// CPU time of processes from /proc/<pid>/stat (user + system, in clock ticks), for measures that
// take a process set's share of a core over a window.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

/** The kernel's clock ticks per second (`getconf CLK_TCK`), which /proc/<pid>/stat counts in. */
export function clockTicksPerSecond() {
  const ticks = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout?.trim());
  if (!Number.isInteger(ticks) || ticks <= 0) throw new Error('getconf CLK_TCK gave no tick rate');
  return ticks;
}

/** Fields of /proc/<pid>/stat after the command name, which may itself hold spaces and parentheses. */
function statFields(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** utime + stime of the process in clock ticks (fields 14 and 15 of stat); throws if it is gone. */
export function cpuTicks(pid) {
  const fields = statFields(pid);
  // Index 0 here is field 3 (state), so field N is at N - 3.
  return Number(fields[14 - 3]) + Number(fields[15 - 3]);
}

/** The process's state letter (R running, S sleeping, ...); null once it is gone. */
export function processState(pid) {
  try {
    return statFields(pid)[0];
  } catch {
    return null;
  }
}

/** Summed CPU ticks of `pids`; throws if one of them is gone, so a window never loses a process silently. */
export function cpuTicksOf(pids) {
  return pids.reduce((sum, pid) => sum + cpuTicks(pid), 0);
}
