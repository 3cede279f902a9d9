// A view's credentials stay on the machine whose holder issued them: the other machine holds an
// opaque handle, good for one data channel before the ticket expires, and none outlives the link.
import { describe, expect, it } from 'vitest';
import type { ViewGrant } from '../../src/protocol/requests.js';
import { GrantTable } from '../../src/relay/grants.js';
import { remoteCreateArgs } from '../../src/relay/createArgs.js';

const NOW = 1_000_000;

function viewGrant(expiresAt = NOW + 30_000): ViewGrant {
  return {
    ticket: { clientId: 'c1', tabId: 't1', holderInc: 'h1', expiresAt, nonce: 'n', mac: 'm' },
    proofKey: 'secret-proof',
    socketPath: '/run/user/1000/a1/default/h-t1-1.sock',
    holderInc: 'h1',
    controller: true,
  };
}

describe('GrantTable', () => {
  it('passes on a handle and the reply\'s other fields, never the ticket, proof key or socket path', () => {
    const table = new GrantTable();
    const reply = table.issue(viewGrant(), NOW);
    expect(reply).toEqual({ holderInc: 'h1', controller: true, grant: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/) });
    const text = JSON.stringify(reply);
    for (const secret of ['secret-proof', '/run/user', '"mac"', '"nonce"']) expect(text).not.toContain(secret);
  });

  it('a handle opens once; an unknown, used or expired one opens nothing', () => {
    const table = new GrantTable();
    const { grant } = table.issue(viewGrant(), NOW);
    expect(table.take('not-a-handle', NOW)).toBeNull();
    expect(table.take(grant, NOW)).toMatchObject({ proofKey: 'secret-proof', socketPath: expect.stringContaining('h-t1-1.sock') });
    expect(table.take(grant, NOW)).toBeNull();
    const late = table.issue(viewGrant(NOW + 10), NOW).grant;
    expect(table.take(late, NOW + 10)).toBeNull();
  });

  it('forgets expired handles as it issues new ones, and every handle when the link ends', () => {
    const table = new GrantTable();
    table.issue(viewGrant(NOW + 10), NOW);
    table.issue(viewGrant(NOW + 10), NOW);
    table.issue(viewGrant(), NOW + 20);
    expect(table.size).toBe(1);
    table.clear();
    expect(table.size).toBe(0);
  });

  it('handles are distinct', () => {
    const table = new GrantTable();
    const handles = new Set(Array.from({ length: 200 }, () => table.issue(viewGrant(), NOW).grant));
    expect(handles.size).toBe(200);
  });
});

describe('remoteCreateArgs', () => {
  const here = { env: { PATH: '/usr/bin', HOME: '/home/me', SSH_CONNECTION: '1 2 3 4', SSH_CLIENT: 'x', SSH_AUTH_SOCK: '/tmp/agent' }, umask: 0o027, home: '/home/me' };

  it("starts a tab with this machine's environment (less ssh's session variables), umask and home", () => {
    const args = remoteCreateArgs({ agent: 'claude', name: 'gpu-agent', env: { PATH: '/laptop/bin', SECRET: 'x' }, umask: 0o022, cols: 100, rows: 30 }, here);
    expect(args).toEqual({ agent: 'claude', name: 'gpu-agent', env: { PATH: '/usr/bin', HOME: '/home/me' }, umask: 0o027, cwd: '/home/me', cols: 100, rows: 30 });
  });

  it('keeps a directory the user named, and the other fields of an open of a session', () => {
    expect(remoteCreateArgs({ cwd: '/data/run', sessionId: 's-1' }, here)).toMatchObject({ cwd: '/data/run', sessionId: 's-1' });
  });
});
