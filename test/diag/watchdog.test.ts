// The watchdog: its pure judgements, a stall measured and logged by the loop itself, and the
// worker that ends a process whose loop stays blocked (with a crash record), while leaving a
// busy-but-turning loop alone. The worker's target is a real `sleep` process this test starts,
// so blocking the test's own loop proves the kill without ending the test runner.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { describe, it, expect, afterEach } from 'vitest';
import { createLogger } from '../../src/log.js';
import { listCrashRecords } from '../../src/diag/crashRecord.js';
import { judgeBlocked, startWatchdog, tickLateness, watchdogLimitsFromEnv, type BlockedState, type Watchdog } from '../../src/diag/watchdog.js';
import type { DiagContext } from '../../src/diag/crashHandlers.js';
import { waitFor } from '../helpers/wait.js';

const dirs: string[] = [];
const children: ChildProcess[] = [];
const dogs: Watchdog[] = [];
afterEach(async () => {
  for (const w of dogs.splice(0)) await w.stop();
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function context(): DiagContext {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'a1-wd-'));
  dirs.push(root);
  return { role: 'server', incarnation: '3', crashDir: path.join(root, 'crash'), log: createLogger(path.join(root, 'logs'), 'server') };
}

function block(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // Busy on purpose.
  }
}

/** Keeps the loop turning (busy for `busyMs` between turns) for `ms`. */
async function turnLoopFor(ms: number, busyMs = 0): Promise<void> {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    block(busyMs);
    await new Promise((r) => setImmediate(r));
  }
}

function sleeper(): ChildProcess {
  const c = spawn('sleep', ['300'], { stdio: 'ignore' });
  children.push(c);
  return c;
}

const exited = (c: ChildProcess) => new Promise<string | null>((resolve) => c.once('exit', (_code, signal) => resolve(signal)));

describe('judgements', () => {
  it('lateness is how long after its interval a tick fired', () => {
    expect(tickLateness(1000, 2000, 1000)).toBe(0);
    expect(tickLateness(1000, 3500, 1000)).toBe(1500);
    expect(tickLateness(1000, 1500, 1000)).toBe(0);
  });

  it('a heartbeat that stops moving is fatal after the hard limit of the checker\'s waking time', () => {
    let s: BlockedState = { beat: 0, lastCheck: 0, blockedMs: 0 };
    const step = (now: number, beat: number) => {
      const r = judgeBlocked(s, now, beat, 100, 1000);
      s = r.state;
      return r.fatal;
    };
    expect(step(100, 1)).toBe(false);
    for (let t = 200; t < 1100; t += 100) expect(step(t, 1)).toBe(false);
    expect(step(1100, 1)).toBe(true);
    // A beat resets it.
    expect(step(1200, 2)).toBe(false);
    expect(s.blockedMs).toBe(0);
    // The whole process paused for a minute (SIGSTOP): the checker's own gap counts as two checks.
    expect(step(61_200, 2)).toBe(false);
    expect(s.blockedMs).toBe(200);
  });

  it('takes test limits from the environment only when they are positive numbers', () => {
    expect(watchdogLimitsFromEnv({ A1_TEST_WATCHDOG_HARD_MS: '500', A1_TEST_WATCHDOG_STALL_MS: 'x' })).toEqual({ hardLimitMs: 500, stallMs: undefined });
    expect(watchdogLimitsFromEnv({})).toEqual({ hardLimitMs: undefined, stallMs: undefined });
  });
});

describe('in a process', () => {
  it('on a caller\'s timer: measures only when ticked, and logs a tick that came late', async () => {
    const ctx = context();
    const dog = startWatchdog({ ctx, blockedLoop: false, ownTimer: false, tickMs: 50, stallMs: 200 });
    dogs.push(dog);
    // No timer of its own: however long the loop turns, nothing is measured until a tick.
    await turnLoopFor(400, 40);
    expect(ctx.log.counts()['loop-stall']).toBeUndefined();
    dog.tick();
    expect(ctx.log.counts()['loop-stall']).toBe(1);
    dog.tick();
    expect(ctx.log.counts()['loop-stall']).toBe(1);
  });

  it('logs a stall the loop comes back from, and kills nothing', async () => {
    const ctx = context();
    const target = sleeper();
    dogs.push(startWatchdog({ ctx, blockedLoop: true, tickMs: 50, stallMs: 200, hardLimitMs: 5_000, pid: target.pid }));
    // The first tick is due 50 ms from now; held for 600 ms, it fires at least 550 ms late.
    block(600);
    await waitFor(() => ctx.log.counts()['loop-stall'], { what: 'a loop-stall entry' });
    const stall = ctx.log.recent().find((e) => e.event === 'loop-stall')!;
    expect(stall.ms).toBeGreaterThanOrEqual(200);
    // A loop that turns, however busy, is never killed: well past the hard limit it still lives.
    await turnLoopFor(1_500, 40);
    expect(target.exitCode).toBeNull();
    expect(target.signalCode).toBeNull();
    expect(listCrashRecords(ctx.crashDir)).toEqual([]);
  });

  it('ends a process whose loop stays blocked past the hard limit, with a crash record', async () => {
    const ctx = context();
    const target = sleeper();
    const gone = exited(target);
    ctx.log.info('start', { epoch: 3 });
    dogs.push(startWatchdog({ ctx, blockedLoop: true, tickMs: 50, hardLimitMs: 400, pid: target.pid }));
    ctx.log.info('adopted', { tab: 'tab1' });
    // Entries logged after the start reach the worker on a tick: let the loop turn for a few
    // tick intervals, then hold it.
    await turnLoopFor(200);
    const blockedAt = performance.now();
    let killed = false;
    while (!killed && performance.now() - blockedAt < 20_000) {
      block(50);
      try {
        process.kill(target.pid!, 0);
        killed = fs.readFileSync(`/proc/${target.pid}/stat`, 'utf8').split(') ')[1]?.startsWith('Z') ?? false;
      } catch {
        killed = true;
      }
    }
    expect(killed).toBe(true);
    expect(await gone).toBe('SIGKILL');
    const [record] = listCrashRecords(ctx.crashDir);
    expect(record).toMatchObject({ role: 'server', pid: target.pid, incarnation: '3', reason: 'watchdog', detail: { limitMs: 400 } });
    expect(record.detail.ms).toBeGreaterThanOrEqual(400);
    const full = JSON.parse(fs.readFileSync(path.join(ctx.crashDir, record.file), 'utf8')) as { events: { event: string }[] };
    expect(full.events.map((e) => e.event)).toEqual(['start', 'adopted']);
    expect(fs.statSync(path.join(ctx.crashDir, record.file)).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(ctx.log.file, 'utf8')).toContain('"event":"watchdog-kill"');
  });
});
