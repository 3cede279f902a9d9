// One /proc snapshot for retirement planning: identity, ancestry, group, session and the
// A1_TAB_ID and A1_BRIDGE markers of each of this user's processes.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { listProcesses, procArgv } from '../proc.js';
import { isSharedAgentServer } from './agents.js';
import type { ProcessInfo, SharedServer } from './retirement.js';
import { clientsOf, parseUnixSockets } from './sharedServers.js';

const TAB_MARKER_PREFIX = 'A1_TAB_ID=';
const BRIDGE_MARKER_PREFIX = 'A1_BRIDGE=';
/** The process is gone or not ours to read: it is simply not in the snapshot (or has no marker). */
const GONE_OR_HIDDEN = new Set(['ENOENT', 'ESRCH', 'EACCES', 'EPERM']);

/** One /proc snapshot; reads the A1_TAB_ID and A1_BRIDGE markers of each of this user's
 * processes (null when unreadable). Other users' processes are left out: this user could not
 * signal them. */
export function snapshotProcesses(): ProcessInfo[] {
  const uid = process.getuid?.() ?? null;
  const out: ProcessInfo[] = [];
  for (const stat of listProcesses()) {
    const owned = uid === null || uid === 0 ? true : isOwnedBy(stat.pid, uid);
    if (owned !== true) continue;
    const markers = readMarkers(stat.pid);
    if (markers === undefined) continue;
    out.push({ pid: stat.pid, ppid: stat.ppid, pgid: stat.pgid, sid: stat.sid, startTime: stat.startTime, ...markers });
  }
  return out;
}

/** Whether `uid` may signal the process (its real or saved uid), or null when it vanished.
 * Read from status, not the /proc entry's owner, which is root for non-dumpable processes. */
function isOwnedBy(pid: number, uid: number): boolean | null {
  const status = readOrNull(`/proc/${pid}/status`);
  if (status === null) return null;
  const line = status.toString('utf8').split('\n').find((l) => l.startsWith('Uid:'));
  if (line === undefined) return false;
  const [real, , saved] = line.slice(4).trim().split(/\s+/).map(Number);
  return real === uid || saved === uid;
}

type Markers = Pick<ProcessInfo, 'tabMarker' | 'bridgeMarker' | 'environReadable'>;

/** The markers' values (null for one it has not), none when environ is unreadable, undefined
 * when the process vanished. */
function readMarkers(pid: number): Markers | undefined {
  let environ: Buffer;
  try {
    environ = fs.readFileSync(`/proc/${pid}/environ`);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ESRCH') return undefined;
    if (GONE_OR_HIDDEN.has(code ?? '')) return { tabMarker: null, bridgeMarker: null, environReadable: false };
    throw error;
  }
  const markers: Markers = { tabMarker: null, bridgeMarker: null, environReadable: true };
  for (const entry of environ.toString('utf8').split('\0')) {
    if (entry.startsWith(TAB_MARKER_PREFIX)) markers.tabMarker = entry.slice(TAB_MARKER_PREFIX.length);
    else if (entry.startsWith(BRIDGE_MARKER_PREFIX)) markers.bridgeMarker = entry.slice(BRIDGE_MARKER_PREFIX.length);
  }
  return markers;
}

function readOrNull(path: string): Buffer | null {
  try {
    return fs.readFileSync(path);
  } catch (error) {
    if (GONE_OR_HIDDEN.has((error as NodeJS.ErrnoException).code ?? '')) return null;
    throw error;
  }
}

/** How long `ss` may take to list the machine's unix sockets before the clients count as unknown. */
const SS_TIMEOUT_MS = 2_000;

/** The snapshot's shared agent servers (Codex's app-server) with the pids of their socket peers,
 * read with iproute2's `ss`; null clients where `ss` is missing or failed (the plan then keeps
 * the server while another tab lives: ending another tab's agent is worse than leaving a
 * server its own agent's CLI would leave running). */
export function snapshotSharedServers(processes: readonly ProcessInfo[]): SharedServer[] {
  const servers = processes.filter((p) => isSharedAgentServer(procArgv(p.pid) ?? []));
  if (servers.length === 0) return [];
  const ss = spawnSync('ss', ['-xpnH'], { encoding: 'utf8', timeout: SS_TIMEOUT_MS, stdio: ['ignore', 'pipe', 'ignore'] });
  const rows = ss.status === 0 ? parseUnixSockets(ss.stdout) : null;
  return servers.map((p) => ({ pid: p.pid, clients: rows === null ? null : clientsOf(p.pid, rows) }));
}
