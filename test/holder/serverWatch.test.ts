// A holder's decision to start a replacement server (src/holder/serverWatch.ts): only a server
// that died (its socket file left, refusing connections), never after a clean exit.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/wait.js';
import { probeServer, restartDelayMs, shouldStartServer, SERVER_RESTART_DELAY_MAX_MS, SERVER_RESTART_DELAY_MIN_MS } from '../../src/holder/serverWatch.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function sockPath(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'a1-sw-'));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return path.join(dir, 's.sock');
}

describe('serverWatch', () => {
  it('waits between 1 and 3 s', () => {
    expect(restartDelayMs(() => 0)).toBe(SERVER_RESTART_DELAY_MIN_MS);
    expect(restartDelayMs(() => 0.999999)).toBeLessThan(SERVER_RESTART_DELAY_MAX_MS);
    expect(restartDelayMs(() => 0.5)).toBe(2_000);
  });

  it('starts a server only for a dead one, and never while the holder is ending', () => {
    expect(shouldStartServer('dead', false)).toBe(true);
    expect(shouldStartServer('dead', true)).toBe(false);
    expect(shouldStartServer('clean-exit', false)).toBe(false);
    expect(shouldStartServer('answering', false)).toBe(false);
    expect(shouldStartServer('lease-held', false)).toBe(false);
  });

  it('tells a clean exit (no socket file), a live server and a dead one (file left, connect refused) apart', async () => {
    const file = sockPath();
    expect(await probeServer(file)).toBe('clean-exit');
    const server = net.createServer((s) => s.destroy());
    await new Promise<void>((resolve) => server.listen(file, resolve));
    expect(await probeServer(file)).toBe('answering');
    await new Promise<void>((resolve) => server.close(() => resolve()));
    // A killed server leaves its socket file behind, with nobody listening on it.
    const child = spawn(process.execPath, ['-e', `require('node:net').createServer().listen(${JSON.stringify(file)})`], { stdio: 'ignore' });
    cleanups.push(() => child.kill('SIGKILL'));
    await waitFor(() => fs.existsSync(file), { what: 'the child listening' });
    const gone = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await gone;
    expect(fs.existsSync(file)).toBe(true);
    expect(await probeServer(file)).toBe('dead');
  });
});
