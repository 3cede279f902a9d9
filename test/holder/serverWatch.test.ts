// A holder's decision to start a replacement server (src/holder/serverWatch.ts): only a server
// that died (its socket file left, refusing connections), within the automatic starts' budget,
// looking again with backoff until one links, and never after a clean exit.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/wait.js';
import {
  decideServerWatch,
  probeServer,
  restartDelayMs,
  retryDelayMs,
  SERVER_RESTART_DELAY_MAX_MS,
  SERVER_RESTART_DELAY_MIN_MS,
  SERVER_RETRY_MAX_MS,
  SERVER_STARTS_ALLOWED,
  SERVER_STARTS_WINDOW_MS,
} from '../../src/holder/serverWatch.js';

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

  it('looks again after 1 to 3 s, then doubling, never more than the cap apart', () => {
    expect(retryDelayMs(0, () => 0)).toBe(SERVER_RESTART_DELAY_MIN_MS);
    expect(retryDelayMs(1, () => 0)).toBe(2 * SERVER_RESTART_DELAY_MIN_MS);
    expect(retryDelayMs(2, () => 0.5)).toBe(8_000);
    expect(retryDelayMs(40, () => 0.999999)).toBe(SERVER_RETRY_MAX_MS);
    for (let attempt = 0; attempt < 50; attempt++) expect(retryDelayMs(attempt, () => 0.999999)).toBeLessThanOrEqual(SERVER_RETRY_MAX_MS);
  });

  it('starts a server only for a dead one, stops looking only after a clean exit or while ending', () => {
    expect(decideServerWatch('dead', [], 1_000, false)).toEqual({ action: 'start', starts: [1_000] });
    expect(decideServerWatch('dead', [], 1_000, true)).toEqual({ action: 'stop' });
    expect(decideServerWatch('clean-exit', [], 1_000, false)).toEqual({ action: 'stop' });
    // A server answers or is starting (it holds the lease): look again, start nothing.
    expect(decideServerWatch('answering', [500], 1_000, false)).toEqual({ action: 'wait', starts: [500] });
    expect(decideServerWatch('lease-held', [], 1_000, false)).toEqual({ action: 'wait', starts: [] });
  });

  it('starts at most SERVER_STARTS_ALLOWED servers in the window, and the window slides', () => {
    let starts: number[] = [];
    let now = 0;
    for (let n = 0; n < SERVER_STARTS_ALLOWED; n++) {
      const d = decideServerWatch('dead', starts, (now += 1_000), false);
      expect(d.action).toBe('start');
      if (d.action !== 'stop') starts = d.starts;
    }
    expect(decideServerWatch('dead', starts, (now += 1_000), false)).toEqual({ action: 'wait', starts });
    // Once the first start leaves the window, one more start is allowed.
    const later = decideServerWatch('dead', starts, starts[0] + SERVER_STARTS_WINDOW_MS, false);
    expect(later).toEqual({ action: 'start', starts: [...starts.slice(1), starts[0] + SERVER_STARTS_WINDOW_MS] });
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
