// Whether bare `a1` runs inside a live tab (SPEC §15 "no nesting"): decided by the tab's bridge
// socket answering, so variables left over from a tab that is gone never lock the user out.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { insideLiveTab } from '../../src/cli/nesting.js';
import { waitFor } from '../helpers/wait.js';

const dirs: string[] = [];
const servers: net.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function socketPath(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'a1-nesting-'));
  dirs.push(dir);
  return path.join(dir, 'bridge.sock');
}

function listen(at: string): Promise<net.Server> {
  return new Promise((resolve) => {
    const server = net.createServer((s) => s.destroy());
    servers.push(server);
    server.listen(at, () => resolve(server));
  });
}

describe('insideLiveTab', () => {
  it('is false outside any tab, and without a bridge to ask', async () => {
    expect(await insideLiveTab({})).toBe(false);
    expect(await insideLiveTab({ A1_TAB_ID: 't1' })).toBe(false);
  });

  it('is true while the named bridge answers', async () => {
    const at = socketPath();
    await listen(at);
    expect(await insideLiveTab({ A1_TAB_ID: 't1', A1_BRIDGE: at })).toBe(true);
  });

  it('is false when the bridge is gone, or its socket file outlived its holder', async () => {
    const at = socketPath();
    expect(await insideLiveTab({ A1_TAB_ID: 't1', A1_BRIDGE: at })).toBe(false);
    // A killed holder leaves its socket file behind, with nobody listening.
    const holder = spawn(process.execPath, ['-e', `require('node:net').createServer().listen(${JSON.stringify(at)})`], { stdio: 'ignore' });
    try {
      await waitFor(() => fs.existsSync(at) && fs.statSync(at).isSocket(), { what: 'the stand-in holder listening' });
    } finally {
      holder.kill('SIGKILL');
    }
    await new Promise((r) => holder.once('exit', r));
    expect(fs.statSync(at).isSocket()).toBe(true);
    expect(await insideLiveTab({ A1_TAB_ID: 't1', A1_BRIDGE: at })).toBe(false);
  });
});
