// Who a shared agent server serves, read from `ss -xpnH` (issue 28).
import { describe, expect, it } from 'vitest';
import { clientsOf, parseUnixSockets } from '../../src/lifecycle/sharedServers.js';
import { isSharedAgentServer } from '../../src/lifecycle/agents.js';

// Codex 0.169's daemon 8293 with two clients (8198, 9177), as `ss -xpnH` printed it here.
const SS = [
  'u_str ESTAB 0      0      /tmp/codex-daemon-0/f6615a67 10569            * 9107  users:(("codex",pid=8293,fd=41))',
  'u_str ESTAB 0      0      * 9107             * 10569 users:(("codex",pid=8198,fd=34))',
  'u_str ESTAB 0      0      /tmp/codex-daemon-0/f6615a67 11726            * 11124 users:(("codex",pid=8293,fd=45))',
  'u_str ESTAB 0      0      * 11124            * 11726 users:(("codex",pid=9177,fd=32))',
  'u_str ESTAB 0      0      * 10354            * 10355 users:(("codex",pid=8198,fd=8),("codex",pid=8198,fd=6))',
  'u_str ESTAB 0      0      * 10355            * 10354 users:(("codex",pid=8198,fd=7))',
  'u_str LISTEN 0     4096   /run/dir with spaces/x.sock 777 * 0 users:(("other",pid=42,fd=3))',
  'u_dgr UNCONN 0 0 * 888 * 0',
].join('\n');

describe('parseUnixSockets', () => {
  it('reads inode, peer and holders from the right, whatever the local path holds', () => {
    const rows = parseUnixSockets(SS);
    expect(rows).toContainEqual({ inode: 10569, peer: 9107, pids: [8293] });
    expect(rows).toContainEqual({ inode: 10354, peer: 10355, pids: [8198, 8198] });
    expect(rows).toContainEqual({ inode: 777, peer: 0, pids: [42] });
    // A socket no process of ours holds lists no users and is skipped.
    expect(rows.find((r) => r.inode === 888)).toBeUndefined();
  });
});

describe('clientsOf', () => {
  it("names the processes at the other end of the server's sockets", () => {
    const rows = parseUnixSockets(SS);
    expect(clientsOf(8293, rows)).toEqual([8198, 9177]);
    expect(clientsOf(42, rows)).toEqual([]);
    expect(clientsOf(12345, rows)).toEqual([]);
  });
});

describe('isSharedAgentServer', () => {
  it("is Codex's app-server listening for clients, not a Codex, its updater or another program", () => {
    const bin = '/home/u/.codex/packages/app-server-daemon/releases/0.169.0-x86_64-unknown-linux-musl/bin/codex';
    expect(isSharedAgentServer([bin, 'app-server', '--listen', 'unix://', '--analytics-default-enabled', '--managed-daemon'])).toBe(true);
    expect(isSharedAgentServer([bin, 'app-server', 'daemon', 'pid-update-loop'])).toBe(false);
    expect(isSharedAgentServer(['/usr/bin/codex', '--no-daemon'])).toBe(false);
    expect(isSharedAgentServer(['/usr/bin/node', 'app-server', '--listen', 'x'])).toBe(false);
    expect(isSharedAgentServer([])).toBe(false);
  });
});
