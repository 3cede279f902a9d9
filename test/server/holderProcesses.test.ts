// The orphan sweep's eyes (src/server/holderProcesses.ts): which processes are the profile's
// holders, read from a machine of the test's own (what each look reads is counted) and from the
// real /proc with real processes carrying the markers.
import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { FULL_LOOK_EVERY, HOLDER_INC_ENV, HOLDER_PROFILE_ENV, HOLDER_TAB_ENV, HolderScanner, profileHolders, type ProcReader } from '../../src/server/holderProcesses.js';
import { waitFor } from '../helpers/wait.js';

const MARKER = '/home/ünïcode/.a1/state/default';
const SELF = 1;

interface FakeProcess {
  startTime: string;
  state: string;
  /** Leads its own session, as a holder does. */
  leader: boolean;
  env: Record<string, string>;
}

/** A machine whose processes the test sets, counting every stat and environment read. */
class FakeProc implements ProcReader {
  procs = new Map<number, FakeProcess>();
  stats: number[] = [];
  environs: number[] = [];

  pids(): number[] {
    return [...this.procs.keys()];
  }
  stat(pid: number) {
    this.stats.push(pid);
    const p = this.procs.get(pid);
    return p ? { startTime: p.startTime, state: p.state, sid: p.leader ? pid : 1 } : null;
  }
  marks(pid: number, marker: string) {
    this.environs.push(pid);
    const env = this.procs.get(pid)?.env;
    if (!env || env[HOLDER_PROFILE_ENV] !== marker || !env[HOLDER_TAB_ENV] || !env[HOLDER_INC_ENV]) return null;
    return { tabId: env[HOLDER_TAB_ENV], inc: env[HOLDER_INC_ENV] };
  }
  holder(pid: number, tabId: string, inc: string, startTime = `t${pid}`, marker = MARKER): void {
    this.procs.set(pid, { startTime, state: 'S', leader: true, env: { [HOLDER_PROFILE_ENV]: marker, [HOLDER_TAB_ENV]: tabId, [HOLDER_INC_ENV]: inc } });
  }
  other(pid: number, leader = false, startTime = `t${pid}`): void {
    this.procs.set(pid, { startTime, state: 'S', leader, env: { PATH: '/bin' } });
  }
  reset(): void {
    this.stats = [];
    this.environs = [];
  }
}

const found = (s: HolderScanner, full = false) => s.look(full).map((h) => `${h.pid}:${h.tabId}:${h.inc}`);

describe('HolderScanner', () => {
  it('finds the holders of its profile only, never itself nor a zombie', () => {
    const proc = new FakeProc();
    proc.holder(10, 'tab-a', 'i1');
    proc.holder(11, 'tab-b', 'i1', 't11', '/elsewhere/state/default');
    proc.holder(12, 'tab-c', 'i1');
    proc.procs.get(12)!.state = 'Z';
    proc.holder(SELF, 'tab-self', 'i1');
    proc.other(13);
    expect(found(new HolderScanner(MARKER, proc, SELF))).toEqual(['10:tab-a:i1']);
  });

  it('reads a known process no more: only the holders stat, between full looks', () => {
    const proc = new FakeProc();
    proc.holder(10, 'tab-a', 'i1');
    proc.other(20);
    proc.other(21, true);
    const scanner = new HolderScanner(MARKER, proc, SELF);
    expect(found(scanner)).toEqual(['10:tab-a:i1']);
    expect(proc.environs.sort()).toEqual([10, 20, 21]);
    for (let i = 1; i < FULL_LOOK_EVERY; i++) {
      proc.reset();
      expect(found(scanner)).toEqual(['10:tab-a:i1']);
      expect(proc.stats).toEqual([10]);
      expect(proc.environs).toEqual([]);
    }
    proc.reset();
    expect(found(scanner)).toEqual(['10:tab-a:i1']);
    expect(proc.environs.sort()).toEqual([10, 20, 21]);
  });

  it('reads a new process once it lasted to the next look, its environment only if it leads a session', () => {
    const proc = new FakeProc();
    const scanner = new HolderScanner(MARKER, proc, SELF);
    scanner.look();
    proc.holder(10, 'tab-a', 'i1');
    proc.other(20);
    proc.other(21, true);
    proc.other(22);
    proc.reset();
    expect(found(scanner)).toEqual([]);
    expect(proc.stats).toEqual([]);
    // A process gone by the next look (a tab's `sleep 1`) is never read.
    proc.procs.delete(22);
    expect(found(scanner)).toEqual(['10:tab-a:i1']);
    expect(proc.stats.sort()).toEqual([10, 20, 21]);
    expect(proc.environs.sort()).toEqual([10, 21]);
  });

  it('a holder that ends, or whose pid a new process took, is gone at the next look', () => {
    const proc = new FakeProc();
    proc.holder(10, 'tab-a', 'i1');
    proc.holder(11, 'tab-b', 'i1');
    const scanner = new HolderScanner(MARKER, proc, SELF);
    expect(found(scanner)).toEqual(['10:tab-a:i1', '11:tab-b:i1']);
    proc.procs.delete(10);
    proc.other(11, true, 'later');
    expect(found(scanner)).toEqual([]);
  });

  it('a holder no light look can see (a pid reused unseen, no session leader) is found by the next full look', () => {
    const proc = new FakeProc();
    proc.other(20);
    const scanner = new HolderScanner(MARKER, proc, SELF);
    scanner.look();
    proc.holder(20, 'tab-a', 'i1', 'reused');
    proc.holder(21, 'tab-b', 'i1');
    proc.procs.get(21)!.leader = false;
    let looks = 0;
    while (found(scanner).length < 2) expect(++looks).toBeLessThan(FULL_LOOK_EVERY);
    expect(looks).toBe(FULL_LOOK_EVERY - 1);
    expect(found(scanner, true)).toEqual(['20:tab-a:i1', '21:tab-b:i1']);
  });
});

describe('profileHolders, on the real /proc', () => {
  const children: ChildProcess[] = [];
  afterEach(() => {
    for (const c of children.splice(0)) if (c.pid && c.exitCode === null) c.kill('SIGKILL');
  });

  const start = (env: Record<string, string>, detached: boolean) => {
    const child = spawn('sleep', ['60'], { env: { ...process.env, ...env }, detached, stdio: 'ignore' });
    children.push(child);
    return child.pid!;
  };

  // Linux only: it reads the real /proc, which other systems do not have (a1's holders are found
  // there; elsewhere the sweep finds none).
  it.skipIf(process.platform !== 'linux')('finds a process started with the markers, by its pid and start time, and only that one', async () => {
    const marker = `/tmp/ünïcode-${process.pid}/state/default`;
    const holder = start({ [HOLDER_PROFILE_ENV]: marker, [HOLDER_TAB_ENV]: 'tab-x', [HOLDER_INC_ENV]: 'inc-1' }, true);
    const attached = start({ [HOLDER_PROFILE_ENV]: marker, [HOLDER_TAB_ENV]: 'tab-y', [HOLDER_INC_ENV]: 'inc-2' }, false);
    start({ [HOLDER_PROFILE_ENV]: `${marker}-other`, [HOLDER_TAB_ENV]: 'tab-z', [HOLDER_INC_ENV]: 'inc-3' }, true);
    start({ [HOLDER_PROFILE_ENV]: marker, [HOLDER_TAB_ENV]: 'tab-w' }, true);
    const found = await waitFor(() => {
      const hs = profileHolders(marker);
      return hs.length === 2 ? hs : null;
    });
    expect(found.map((h) => [h.pid, h.tabId, h.inc]).sort()).toEqual([
      [holder, 'tab-x', 'inc-1'],
      [attached, 'tab-y', 'inc-2'],
    ].sort());
    expect(found.every((h) => /^\d+$/.test(h.startTime))).toBe(true);
    // A light look sees the detached one from its second look on.
    const scanner = new HolderScanner(marker);
    scanner.look();
    expect(scanner.look().map((h) => h.pid)).toContain(holder);
  });
});
