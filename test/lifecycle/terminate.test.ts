import { describe, expect, it } from 'vitest';
import type { PlannedProcess, ProcessRef, RetirementPlan } from '../../src/lifecycle/retirement.js';
import { executeTermination, KILL_CONFIRM_MS, killWithoutGrace, refusingSignals, type TerminateIO, type TerminateSignal } from '../../src/lifecycle/terminate.js';

interface FakeProc {
  ref: PlannedProcess;
  alive: boolean;
  /** Ms after SIGHUP at which it exits; null ignores SIGHUP. */
  exitsAfterHupMs: number | null;
  hupAt: number | null;
}

/** A fake world: a clock that only moves in sleep(), and processes that react to signals. */
class FakeWorld implements TerminateIO {
  t = 0;
  readonly log: Array<{ t: number; target: string; signal: TerminateSignal }> = [];
  readonly procs = new Map<number, FakeProc>();
  /** Stuck in the kernel: they take signals and never die. */
  readonly unkillable = new Set<number>();
  sleeps = 0;

  add(pid: number, pgid: number, exitsAfterHupMs: number | null, alive = true): PlannedProcess {
    const ref = { pid, startTime: `s${pid}`, pgid };
    this.procs.set(pid, { ref, alive, exitsAfterHupMs, hupAt: null });
    return ref;
  }
  private deliver(p: FakeProc, signal: TerminateSignal): void {
    if (!p.alive) return;
    if (signal === 'SIGKILL' && !this.unkillable.has(p.ref.pid)) p.alive = false;
    if (signal === 'SIGHUP' && p.hupAt === null) p.hupAt = this.t;
  }
  private tick(): void {
    for (const p of this.procs.values()) {
      if (p.alive && p.hupAt !== null && p.exitsAfterHupMs !== null && this.t >= p.hupAt + p.exitsAfterHupMs) p.alive = false;
    }
  }
  signalGroup(pgid: number, signal: TerminateSignal): void {
    this.log.push({ t: this.t, target: `-${pgid}`, signal });
    for (const p of this.procs.values()) if (p.ref.pgid === pgid) this.deliver(p, signal);
  }
  signalProcess(ref: ProcessRef, signal: TerminateSignal): boolean {
    const p = this.procs.get(ref.pid);
    if (p === undefined || !p.alive || p.ref.startTime !== ref.startTime) return false;
    this.log.push({ t: this.t, target: String(ref.pid), signal });
    this.deliver(p, signal);
    return true;
  }
  isAlive(ref: ProcessRef): boolean {
    this.tick();
    const p = this.procs.get(ref.pid);
    return p !== undefined && p.alive && p.ref.startTime === ref.startTime;
  }
  async sleep(ms: number): Promise<void> {
    this.sleeps += 1;
    this.t += ms;
    this.tick();
    await Promise.resolve();
  }
  now(): number {
    return this.t;
  }
}

function plan(processes: PlannedProcess[], groups: number[] = []): RetirementPlan {
  return { tabId: 'A', reason: 'user', groups, processes, revoke: [], history: [] };
}

describe('executeTermination with a fake clock', () => {
  it('sends HUP and CONT before any KILL, waits out the grace, then kills the survivors', async () => {
    const w = new FakeWorld();
    const stubborn = w.add(10, 10, null);
    const polite = w.add(20, 20, 50);
    const result = await executeTermination(plan([stubborn, polite]), { graceMs: 300, io: w });
    expect(result).toEqual({ signalled: 2, killed: 1, unended: [] });
    expect(w.log.filter((e) => e.t === 0).map((e) => `${e.target}:${e.signal}`)).toEqual([
      '10:SIGHUP',
      '10:SIGCONT',
      '20:SIGHUP',
      '20:SIGCONT',
    ]);
    const kills = w.log.filter((e) => e.signal === 'SIGKILL');
    expect(kills).toEqual([{ t: 300, target: '10', signal: 'SIGKILL' }]);
    expect(w.procs.get(10)?.alive).toBe(false);
    // Polled in small steps rather than one long sleep.
    expect(w.sleeps).toBeGreaterThanOrEqual(300 / 25);
  });

  it('stops waiting as soon as everything is gone', async () => {
    const w = new FakeWorld();
    const result = await executeTermination(plan([w.add(10, 10, 40), w.add(11, 11, 60)]), { graceMs: 10_000, io: w });
    expect(result).toEqual({ signalled: 2, killed: 0, unended: [] });
    expect(w.t).toBeLessThan(100);
    expect(w.log.some((e) => e.signal === 'SIGKILL')).toBe(false);
  });

  it('signals a whole group once instead of its members, and kills the group after grace', async () => {
    const w = new FakeWorld();
    const a = w.add(30, 30, null);
    const b = w.add(31, 30, null);
    const polite = w.add(40, 30, 0);
    const result = await executeTermination(plan([a, b, polite], [30]), { graceMs: 100, io: w });
    expect(w.log.filter((e) => e.t === 0).map((e) => `${e.target}:${e.signal}`)).toEqual(['-30:SIGHUP', '-30:SIGCONT']);
    expect(w.log.filter((e) => e.signal === 'SIGKILL')[0]).toEqual({ t: 100, target: '-30', signal: 'SIGKILL' });
    expect(result).toEqual({ signalled: 3, killed: 2, unended: [] });
    expect([...w.procs.values()].every((p) => !p.alive)).toBe(true);
  });

  it('does not signal a group none of whose planned members is still the same process', async () => {
    const w = new FakeWorld();
    const deadLeader = w.add(50, 50, null, false);
    const other = w.add(60, 60, null);
    await executeTermination(plan([deadLeader, other], [50, 60]), { graceMs: 50, io: w });
    expect(w.log.some((e) => e.target === '-50')).toBe(false);
    expect(w.log.some((e) => e.target === '-60' && e.signal === 'SIGHUP')).toBe(true);
  });

  it('never signals a recycled pid (the start time no longer matches)', async () => {
    const w = new FakeWorld();
    w.add(70, 70, null);
    const stale = { pid: 70, startTime: 'older', pgid: 70 };
    expect(await executeTermination(plan([stale], [70]), { graceMs: 50, io: w })).toEqual({ signalled: 0, killed: 0, unended: [] });
    expect(w.log).toEqual([]);
    expect(w.procs.get(70)?.alive).toBe(true);
  });

  it('resolves at once for a plan with nothing live, and a second run is a no-op', async () => {
    const w = new FakeWorld();
    const p = w.add(80, 80, null);
    const dup = { ...p };
    expect(await executeTermination(plan([p, dup], [80]), { graceMs: 30, io: w })).toEqual({ signalled: 1, killed: 1, unended: [] });
    const logged = w.log.length;
    const t = w.t;
    expect(await executeTermination(plan([p, dup], [80]), { graceMs: 30, io: w })).toEqual({ signalled: 0, killed: 0, unended: [] });
    expect(w.log.length).toBe(logged);
    expect(w.t).toBe(t);
    expect(await executeTermination(plan([]), { graceMs: 30, io: w })).toEqual({ signalled: 0, killed: 0, unended: [] });
  });

  it('reports a process that outlives its SIGKILL, after waiting a bounded while for it', async () => {
    const w = new FakeWorld();
    const stuck = w.add(90, 90, null);
    const polite = w.add(91, 91, 0);
    w.unkillable.add(stuck.pid);
    const result = await executeTermination(plan([stuck, polite]), { graceMs: 100, io: w });
    expect(result).toEqual({ signalled: 2, killed: 1, unended: [{ pid: 90, startTime: 's90' }] });
    expect(w.log.filter((e) => e.signal === 'SIGKILL')).toEqual([{ t: 100, target: '90', signal: 'SIGKILL' }]);
    expect(w.t).toBe(100 + KILL_CONFIRM_MS);
  });
});

describe('killWithoutGrace', () => {
  it('SIGKILLs each process at once, no hang-up and no wait, and skips one whose pid another process took', () => {
    const w = new FakeWorld();
    const leader = w.add(110, 110, 0);
    const member = w.add(111, 110, null);
    const recycled = { ...w.add(112, 112, null), startTime: 'earlier' };
    expect(killWithoutGrace([leader, member, recycled], w)).toBe(2);
    expect(w.log).toEqual([
      { t: 0, target: '110', signal: 'SIGKILL' },
      { t: 0, target: '111', signal: 'SIGKILL' },
    ]);
    expect(w.procs.get(112)?.alive).toBe(true);
    expect(w.sleeps).toBe(0);
  });
});

describe('refusingSignals (the A1_TEST_SIGNAL_REFUSED fault)', () => {
  it('fails every signal to a refused process, as EPERM does, and passes the rest on', () => {
    const w = new FakeWorld();
    const refused = w.add(100, 100, null);
    const other = w.add(101, 101, null);
    const io = refusingSignals(w, (pid) => pid === 100);
    expect(io.signalProcess(refused, 'SIGKILL')).toBe(false);
    expect(io.signalProcess(other, 'SIGKILL')).toBe(true);
    expect(w.procs.get(100)?.alive).toBe(true);
    expect(w.procs.get(101)?.alive).toBe(false);
  });
});
