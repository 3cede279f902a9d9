// Which processes serve other tabs' agents (issue 28): Codex's shared app-server, started inside
// the first tab whose Codex needed it and joined by every later Codex of the same CODEX_HOME. A
// close must not end it while another tab's agent is its client. Pure: the shell reads `ss`.

/** One unix socket as `ss -xpnH` lists it: its inode, its peer's inode, and the pids holding it. */
export interface UnixSocketRow {
  inode: number;
  peer: number;
  pids: number[];
}

/**
 * Parses `ss -xpnH` (iproute2): `u_str ESTAB 0 0 LOCAL INODE PEER PEER_INODE users:((…pid=N…))`.
 * Read from the right, so a local path holding spaces does not shift the fields that matter.
 */
export function parseUnixSockets(text: string): UnixSocketRow[] {
  const rows: UnixSocketRow[] = [];
  for (const line of text.split('\n')) {
    const at = line.indexOf(' users:(');
    if (at < 0) continue;
    const fields = line.slice(0, at).trim().split(/\s+/);
    if (fields.length < 4) continue;
    const peer = Number(fields[fields.length - 1]);
    const inode = Number(fields[fields.length - 3]);
    if (!Number.isSafeInteger(inode) || !Number.isSafeInteger(peer) || inode <= 0) continue;
    const pids = [...line.slice(at).matchAll(/pid=(\d+)/g)].map((m) => Number(m[1]));
    rows.push({ inode, peer, pids });
  }
  return rows;
}

/** The pids at the other end of every socket `serverPid` holds (itself left out). */
export function clientsOf(serverPid: number, rows: readonly UnixSocketRow[]): number[] {
  const byInode = new Map(rows.map((r) => [r.inode, r]));
  const clients = new Set<number>();
  for (const row of rows) {
    if (!row.pids.includes(serverPid) || row.peer <= 0) continue;
    for (const pid of byInode.get(row.peer)?.pids ?? []) if (pid !== serverPid) clients.add(pid);
  }
  return [...clients].sort((a, b) => a - b);
}
