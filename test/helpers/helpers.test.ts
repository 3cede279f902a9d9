import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeHome, type TestHome } from './home.js';
import { isAlive, killAllWithEnv, killTracked, pidsWithEnv, startTimeOf, track } from './procs.js';
import { PtyDriver } from './pty.js';
import { WaitTimeoutError, waitFor } from './wait.js';

const homes: TestHome[] = [];
const drivers: PtyDriver[] = [];

afterEach(async () => {
  for (const driver of drivers.splice(0)) driver.dispose();
  killTracked();
  for (const home of homes.splice(0)) {
    await killAllWithEnv('A1_HOME', home.dir);
    home.cleanup();
  }
});

function home(config?: object): TestHome {
  const h = makeHome({ config });
  homes.push(h);
  return h;
}

function bash(env: Record<string, string>, cols = 80, rows = 24): PtyDriver {
  const driver = new PtyDriver({ argv: ['/bin/bash', '--norc', '--noprofile'], env: { ...env, PS1: '$ ' }, cols, rows });
  drivers.push(driver);
  return driver;
}

describe('waitFor', () => {
  it('resolves with the first truthy value', async () => {
    let calls = 0;
    const value = await waitFor(() => (++calls >= 3 ? { calls } : null), { intervalMs: 1 });
    expect(value).toEqual({ calls: 3 });
  });

  it('names the condition and the last value on timeout', async () => {
    let n = 0;
    const error = await waitFor(() => { n++; return 0; }, { timeoutMs: 50, intervalMs: 5, what: 'the moon' })
      .then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(WaitTimeoutError);
    expect((error as Error).message).toMatch(/timed out after 50 ms waiting for the moon; last value: 0/);
    expect(n).toBeGreaterThan(1);
  });

  it('reports the last error when the condition keeps throwing', async () => {
    const error = await waitFor(() => { throw new Error('not there yet'); }, { timeoutMs: 30, what: 'a file' })
      .then(() => null, (e: unknown) => e as Error);
    expect(error?.message).toMatch(/waiting for a file; last error: not there yet/);
  });
});

describe('makeHome', () => {
  it('makes a private home with the config and a clean environment', () => {
    const saved = { A1_PROFILE: process.env.A1_PROFILE, TMUX: process.env.TMUX };
    process.env.A1_PROFILE = 'outer';
    process.env.TMUX = '/tmp/tmux-0/default,1,0';
    try {
      const h = home({ tabCommand: ['/bin/bash', '--norc'] });
      expect(path.basename(h.dir)).toMatch(/^a1t-/);
      expect(fs.statSync(h.dir).mode & 0o777).toBe(0o700);
      expect(fs.statSync(path.join(h.dir, 'config')).mode & 0o777).toBe(0o700);
      const file = path.join(h.dir, 'config', 'config.json');
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({ tabCommand: ['/bin/bash', '--norc'] });
      expect(h.env).toMatchObject({ A1_HOME: h.dir, SHELL: '/bin/bash', TERM: 'xterm-256color' });
      expect(h.env.A1_PROFILE).toBeUndefined();
      expect(h.env.TMUX).toBeUndefined();
      h.cleanup();
      expect(fs.existsSync(h.dir)).toBe(false);
    } finally {
      for (const [key, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
    }
  });

  it('writes no config when none is given', () => {
    const h = home();
    expect(fs.readdirSync(h.dir)).toEqual([]);
  });
});

describe('procs', () => {
  it('finds and ends every process carrying a marker in its environment', async () => {
    const h = home();
    const child = spawn('/bin/sh', ['-c', 'sleep 600 & exec sleep 600'], { env: h.env, stdio: 'ignore', detached: true });
    track(child.pid!, { group: true });
    const pids = await waitFor(() => {
      const found = pidsWithEnv('A1_HOME', h.dir);
      return found.length === 2 ? found : undefined;
    }, { what: 'both sleeps' });
    expect(pids).toContain(child.pid);
    expect(pidsWithEnv('A1_HOME', `${h.dir}-other`)).toEqual([]);

    const killed = await killAllWithEnv('A1_HOME', h.dir);
    expect(killed.sort()).toEqual(pids.sort());
    await waitFor(() => pids.every((pid) => !isAlive(pid)), { what: 'both sleeps gone' });
    expect(pidsWithEnv('A1_HOME', h.dir)).toEqual([]);
  });

  it('kills a tracked group leader and its group', async () => {
    const child = spawn('/bin/sh', ['-c', 'sleep 600 & exec sleep 600'], { stdio: 'ignore', detached: true });
    track(child.pid!, { group: true });
    const leaderStart = startTimeOf(child.pid!);
    expect(leaderStart).toMatch(/^\d+$/);
    expect(isAlive(child.pid!)).toBe(true);
    // The background sleep is in the leader's group, so a group kill must reach it too.
    const member = await waitFor(() => {
      const members = groupMembers(child.pid!);
      return members.length === 2 ? members.find((pid) => pid !== child.pid) : undefined;
    }, { what: 'the group member' });
    killTracked();
    await waitFor(() => !isAlive(child.pid!) && !isAlive(member!), { what: 'the whole group gone' });
  });

  it('treats a zombie as not alive', async () => {
    // After the exec, sleep is the parent of `true` and never reaps it: a lasting zombie.
    const parent = spawn('/bin/sh', ['-c', '/bin/true & exec sleep 600'], { stdio: 'ignore', detached: true });
    track(parent.pid!, { group: true });
    const zombie = await waitFor(() => {
      const children = fs.readFileSync(`/proc/${parent.pid}/task/${parent.pid}/children`, 'utf8').trim();
      const pid = Number(children);
      return children !== '' && fs.readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ') ? pid : undefined;
    }, { what: 'the zombie' });
    expect(() => process.kill(zombie, 0)).not.toThrow();
    expect(isAlive(zombie)).toBe(false);
    expect(isAlive(parent.pid!)).toBe(true);
  });
});

function groupMembers(pgid: number): number[] {
  const members: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) === pgid && fields[0] !== 'Z') members.push(Number(entry));
    } catch {
      // exited meanwhile
    }
  }
  return members;
}

describe('PtyDriver', () => {
  it('runs bash in a real PTY and shows what it prints', async () => {
    const driver = bash(home().env);
    await driver.waitForText('$');
    driver.write('echo $((6*7))\r');
    const screen = await driver.waitForScreen((lines) => lines.some((l) => l.trim() === '42'));
    expect(screen.some((l) => l.includes('echo $((6*7))'))).toBe(true);
    driver.write('exit 3\r');
    expect(await driver.exited).toMatchObject({ exitCode: 3 });
  });

  it('reads cell colours, the cursor, and the exact bytes', async () => {
    const driver = bash(home().env);
    await driver.waitForText('$');
    const mark = driver.mark();
    driver.write("clear; printf '\\033[31;1mRED\\033[0m\\033[?2004l\\n'\r");
    const screen = await driver.waitForScreen((lines) => lines[0] === 'RED' && lines[1] === '$ ');
    expect(screen[0]).toBe('RED');
    expect(driver.cell(0, 0)).toMatchObject({ chars: 'R', fg: 1, bold: true });
    expect(driver.cell(3, 0)).toMatchObject({ chars: '', fg: -1, bold: false });
    expect(driver.cursor()).toEqual({ x: 2, y: 1 });
    expect(driver.bytesSince(mark).includes('\x1b[31;1mRED\x1b[0m')).toBe(true);
    expect(driver.rawOutput(mark)).toContain('\x1b[?2004l');
    expect(driver.rawOutput().length).toBeGreaterThan(driver.rawOutput(mark).length);
  });

  it('resizes the PTY and the screen together', async () => {
    const driver = bash(home().env);
    await driver.waitForText('$');
    driver.resize(50, 10);
    driver.write('echo "size $(stty size)"\r');
    const screen = await driver.waitForText('size 10 50');
    expect(screen).toHaveLength(10);
  });

  it('answers terminal queries as a real terminal does', async () => {
    const driver = bash(home().env);
    await driver.waitForText('$');
    // Ask for the cursor position (DSR 6); the reply arrives on bash's stdin.
    driver.write("clear; IFS='[;' read -rs -d R -p $'\\033[6n' _ row col; echo \"at $row $col\"\r");
    await driver.waitForText('at 1 1');
  });

  it('names the awaited text and shows the screen on timeout', async () => {
    const driver = bash(home().env);
    await driver.waitForText('$');
    await expect(driver.waitForText('never printed', 100)).rejects.toThrow(/waiting for screen text never printed; screen:\n\$/);
  });

  it('ends its program on dispose', async () => {
    const driver = new PtyDriver({ argv: ['/bin/sleep', '600'] });
    drivers.push(driver);
    expect(isAlive(driver.pid)).toBe(true);
    driver.dispose();
    driver.dispose();
    expect((await driver.exited).signal).toBe(9);
  });
});
