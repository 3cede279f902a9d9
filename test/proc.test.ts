import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  bootId,
  currentDirOf,
  descendsFromSession,
  isSameProcess,
  listProcesses,
  parseProcStat,
  procEnvironHas,
  procStartTime,
  processGroupOf,
  sessionOf,
  signalVerified,
} from '../src/proc.js';
import { killTracked, startTimeOf, track } from './helpers/procs.js';
import { waitFor } from './helpers/wait.js';

/** A stat line with fields 3.. filled so that field N holds "fN", except the ones given. */
function statLine(pid: number, comm: string, fields: Record<number, string | number>): string {
  const rest: string[] = [];
  for (let n = 3; n <= 52; n++) rest.push(String(fields[n] ?? (n === 3 ? 'S' : n)));
  return `${pid} (${comm}) ${rest.join(' ')}\n`;
}

describe('parseProcStat', () => {
  it('reads pid, ppid, pgid, sid, start time, state and terminal foreground group', () => {
    expect(parseProcStat(statLine(42, 'node', { 3: 'Z', 4: 1, 5: 40, 6: 30, 8: 41, 22: 987654 }))).toEqual({
      pid: 42,
      ppid: 1,
      pgid: 40,
      sid: 30,
      startTime: '987654',
      state: 'Z',
      tpgid: 41,
    });
  });

  it('counts fields from the last ")" since the command name may hold spaces and parentheses', () => {
    for (const comm of ['a b', 'x) 1 2 3 (y', ') (', 'tricky) S 9 9 9', '']) {
      expect(parseProcStat(statLine(7, comm, { 4: 2, 5: 3, 6: 4, 22: 55 }))).toEqual({
        pid: 7,
        ppid: 2,
        pgid: 3,
        sid: 4,
        startTime: '55',
        state: 'S',
        tpgid: 8,
      });
    }
  });

  it('refuses what is not a stat line', () => {
    expect(parseProcStat('')).toBeNull();
    expect(parseProcStat('garbage')).toBeNull();
    expect(parseProcStat('12 (x) S 1 2')).toBeNull();
  });
});

/** Starts a setsid'd child that outlives its launcher, prints its pid and exits: a daemon. */
const DAEMON_LAUNCHER =
  "const c = require('child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { detached: true, stdio: 'ignore' }); console.log(c.pid); c.unref();";

function readStat(pid: number) {
  try {
    return parseProcStat(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return null;
  }
}

// /proc is Linux's; a1 supports Linux only (SPEC), so elsewhere these are skipped, not faked.
describe.skipIf(process.platform !== 'linux')('proc on Linux', () => {
  const children: ChildProcess[] = [];
  afterEach(() => {
    killTracked();
    children.length = 0;
  });

  function start(opts: { env?: NodeJS.ProcessEnv; detached?: boolean; cwd?: string } = {}): ChildProcess & { pid: number } {
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], {
      stdio: 'ignore',
      cwd: opts.cwd,
      env: opts.env ?? {},
      detached: opts.detached ?? false,
    });
    track(child.pid!, { group: opts.detached });
    children.push(child);
    return child as ChildProcess & { pid: number };
  }

  const exited = (child: ChildProcess) =>
    new Promise<NodeJS.Signals | null>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) resolve(child.signalCode);
      else child.once('exit', (_code, signal) => resolve(signal));
    });

  it("tells a process that descends from a session (even one that left it) from a daemon reparented away", async () => {
    const own = sessionOf(process.pid)!;
    expect(descendsFromSession(process.pid, own)).toBe(true);
    // setsid'd, as agents start their hooks: its parent is still in the session.
    const detached = start({ detached: true });
    expect(sessionOf(detached.pid)).not.toBe(own);
    expect(descendsFromSession(detached.pid, own)).toBe(true);
    // A daemon: setsid'd by a parent that then exited, so it is reparented away from the session.
    const launcher = spawn(process.execPath, ['-e', DAEMON_LAUNCHER], { stdio: ['ignore', 'pipe', 'ignore'] });
    const daemonPid = await new Promise<number>((resolve) => launcher.stdout!.on('data', (d: Buffer) => resolve(Number(d.toString().trim()))));
    track(daemonPid, { group: true });
    await exited(launcher);
    await waitFor(() => readStat(daemonPid)?.ppid !== launcher.pid, { what: 'the daemon reparented' });
    expect(descendsFromSession(daemonPid, own)).toBe(false);
    expect(descendsFromSession(999_999_999, own)).toBe(false);
  });

  it('does not pass through a process that serves other tabs (a shared agent server that left the session)', () => {
    const own = sessionOf(process.pid)!;
    // A setsid'd server descends from this session through its parent.
    const server = start({ detached: true });
    expect(descendsFromSession(server.pid, own)).toBe(true);
    expect(descendsFromSession(server.pid, own, (pid) => pid === server.pid)).toBe(false);
    // Only what left the session is asked about: this process is in it, whatever the predicate says.
    expect(descendsFromSession(process.pid, own, () => true)).toBe(true);
  });

  it('reads the start time of a live child and agrees with an independent reader', () => {
    const child = start();
    const startTime = procStartTime(child.pid);
    expect(startTime).toMatch(/^\d+$/);
    expect(startTime).toBe(startTimeOf(child.pid));
    expect(isSameProcess({ pid: child.pid, startTime: startTime! })).toBe(true);
    expect(procStartTime(process.pid)).not.toBeNull();
  });

  it('treats a dead pid, or a pid now held by another process, as not the same process', async () => {
    const child = start();
    const startTime = procStartTime(child.pid)!;
    // The start time a recycled pid would show: any other process's start time.
    expect(isSameProcess({ pid: child.pid, startTime: String(Number(startTime) + 1) })).toBe(false);
    process.kill(child.pid, 'SIGKILL');
    await exited(child);
    await waitFor(() => procStartTime(child.pid) === null, { what: 'the reaped child to leave /proc' });
    expect(isSameProcess({ pid: child.pid, startTime })).toBe(false);
  });

  it("reads a process's current directory, only while the pid is the process it names", () => {
    const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'a1cwd-')));
    try {
      const child = start({ cwd: dir });
      const startTime = procStartTime(child.pid)!;
      // No terminal: its own directory.
      expect(currentDirOf({ pid: child.pid, startTime })).toBe(dir);
      expect(currentDirOf({ pid: child.pid, startTime: String(Number(startTime) + 1) })).toBeNull();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('never reads pids that are not processes', () => {
    for (const pid of [0, -1, 1.5, Number.NaN]) {
      expect(procStartTime(pid)).toBeNull();
      expect(processGroupOf(pid)).toBeNull();
      expect(procEnvironHas(pid, 'A', 'B')).toBe(false);
    }
  });

  it('reads the boot id', () => {
    const id = bootId();
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(bootId()).toBe(id);
  });

  it('finds an exact environment entry', async () => {
    const child = start({ env: { A1_TAB_ID: 'tab_abc', OTHER: 'x=y' } });
    expect(procEnvironHas(child.pid, 'A1_TAB_ID', 'tab_abc')).toBe(true);
    expect(procEnvironHas(child.pid, 'OTHER', 'x=y')).toBe(true);
    expect(procEnvironHas(child.pid, 'A1_TAB_ID', 'tab_ab')).toBe(false);
    expect(procEnvironHas(child.pid, 'A1_TAB', 'tab_abc')).toBe(false);
    expect(procEnvironHas(process.pid, 'A1_TAB_ID', 'tab_abc')).toBe(false);
    process.kill(child.pid, 'SIGKILL');
    await exited(child);
    await waitFor(() => procStartTime(child.pid) === null, { what: 'the reaped child to leave /proc' });
    expect(procEnvironHas(child.pid, 'A1_TAB_ID', 'tab_abc')).toBe(false);
  });

  it('reads process groups and sessions', () => {
    const attached = start();
    const detached = start({ detached: true });
    expect(sessionOf(attached.pid)).toBe(sessionOf(process.pid));
    expect(processGroupOf(attached.pid)).toBe(processGroupOf(process.pid));
    // detached: setsid, so the child leads a new session and process group.
    expect(sessionOf(detached.pid)).toBe(detached.pid);
    expect(processGroupOf(detached.pid)).toBe(detached.pid);
    expect(sessionOf(process.pid)).not.toBe(detached.pid);
  });

  it('lists processes with their parents', () => {
    const child = start({ detached: true });
    const all = listProcesses();
    const byPid = new Map(all.map((p) => [p.pid, p]));
    expect(byPid.get(process.pid)?.ppid).toBe(process.ppid);
    expect(byPid.get(child.pid)).toEqual({
      pid: child.pid,
      ppid: process.pid,
      pgid: child.pid,
      sid: child.pid,
      startTime: procStartTime(child.pid),
      // Running, sleeping, or waiting on the disk while it starts: any state of a live process.
      state: expect.stringMatching(/^[RSD]$/),
      // Spawned without a terminal.
      tpgid: -1,
    });
  });

  it('signals only the process it was asked to', async () => {
    const victim = start();
    const bystander = start();
    const startTime = procStartTime(victim.pid)!;
    // The bystander's pid with a start time it does not have: what a recycled pid looks like.
    const notBystander = String(Number(procStartTime(bystander.pid)) + 1);
    expect(signalVerified({ pid: bystander.pid, startTime: notBystander }, 'SIGTERM')).toBe(false);
    expect(signalVerified({ pid: 0, startTime }, 'SIGTERM')).toBe(false);
    expect(signalVerified({ pid: victim.pid, startTime }, 'SIGTERM')).toBe(true);
    expect(await exited(victim)).toBe('SIGTERM');
    await waitFor(() => procStartTime(victim.pid) === null, { what: 'the reaped child to leave /proc' });
    expect(signalVerified({ pid: victim.pid, startTime }, 'SIGTERM')).toBe(false);
    expect(bystander.exitCode).toBeNull();
    expect(bystander.signalCode).toBeNull();
    expect(procStartTime(bystander.pid)).not.toBeNull();
  });
});
