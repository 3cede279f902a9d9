// Event-loop watchdog for a resident process (SPEC §13).
//
// Two detectors, because they answer different questions:
//  - Stalls, in-thread: a timer that should fire every tickMs measures how late it fired. A loop
//    that was late by stallMs or more is logged (`loop-stall`, counted as a stall) and left
//    alone: it came back, so whatever held it (a long parse, a big registry write, a paused
//    process) was busy, not hung, and a busy process is never killed for it.
//  - A loop that stays blocked cannot measure itself: no timer fires. Only another thread can
//    see it, so the server runs a small worker thread that watches a heartbeat counter the main
//    thread bumps every tick (shared memory, no message needed while the loop is stuck). When
//    the counter has not moved for hardLimitMs of the worker's own waking time, the worker
//    writes a crash record (reason `watchdog`) and SIGKILLs the process; its start path
//    recovers (SPEC §3). The worker counts only time it was itself awake, so a process paused
//    as a whole (SIGSTOP, a debugger, a suspended machine) is not mistaken for a blocked one.
//  - Holders run no worker: a worker thread costs ~9 MB of memory (measured on Node 20), which
//    per tab is more than the terminal model, and a holder whose loop stays blocked is already
//    ended by the server's heartbeat (three missed 5 s beats, SPEC §10), which writes its own
//    crash record (reason `holder-timeout`). Holders still measure and log their stalls.
import { Worker } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';
import { atomicWriteSteps, fsyncDirWith } from '../atomicWrite.js';
import { crashRecordName, recordEvent } from './crashRecord.js';
import type { DiagContext } from './crashHandlers.js';

/** How often the loop is measured: often enough to see a stall a person would notice. */
export const WATCHDOG_TICK_MS = 1_000;
/** A loop this late has frozen every view it serves for a noticeable moment: worth a log line. */
export const STALL_NOTICE_MS = 1_000;
/** Far beyond any legitimate synchronous work (a registry write is milliseconds); a loop blocked
 * this long is hung, and every client waiting on the server with it. */
export const HARD_LIMIT_MS = 30_000;
/** The worker needs almost nothing; a small heap keeps its cost down. */
const WORKER_HEAP_MB = 8;

/** How late a tick fired that was due `tickMs` after `previousAt`. */
export function tickLateness(previousAt: number, now: number, tickMs: number): number {
  return Math.max(0, now - previousAt - tickMs);
}

export interface BlockedState {
  /** The heartbeat counter at the last check. */
  beat: number;
  lastCheck: number;
  /** Waking time of the watcher since the counter last moved. */
  blockedMs: number;
}

/**
 * One check of the blocked-loop detector: `fatal` once the heartbeat has not moved for
 * hardLimitMs of the checker's own time. A gap between checks longer than two check intervals
 * means the checker itself was not running, so only two intervals of it count. Self-contained:
 * the worker thread runs a copy of its source.
 */
export function judgeBlocked(
  state: BlockedState,
  now: number,
  beat: number,
  checkMs: number,
  hardLimitMs: number,
): { state: BlockedState; fatal: boolean } {
  if (beat !== state.beat) return { state: { beat, lastCheck: now, blockedMs: 0 }, fatal: false };
  const blockedMs = state.blockedMs + Math.min(Math.max(0, now - state.lastCheck), checkMs * 2);
  return { state: { beat, lastCheck: now, blockedMs }, fatal: blockedMs >= hardLimitMs };
}

export interface WatchdogOptions {
  ctx: DiagContext;
  tickMs?: number;
  stallMs?: number;
  hardLimitMs?: number;
  /** Run the blocked-loop worker (the server); see the header for why holders do not. */
  blockedLoop: boolean;
  /** The process the worker ends: this one, except in the watchdog's own tests. */
  pid?: number;
  /** False: the caller calls `tick()` every tickMs from a timer it already has (a holder's status
   * tick), since every wakeup of an idle process costs CPU, per tab. */
  ownTimer?: boolean;
}

export interface Watchdog {
  /** One measurement; called by the watchdog's own timer unless `ownTimer` is false. */
  tick(): void;
  stop(): Promise<void>;
}

/** The watchdog's limits from test-only environment overrides (A1_TEST_WATCHDOG_HARD_MS,
 * A1_TEST_WATCHDOG_STALL_MS); unset or invalid values keep the defaults. */
export function watchdogLimitsFromEnv(env: NodeJS.ProcessEnv): { hardLimitMs?: number; stallMs?: number } {
  const positive = (v: string | undefined): number | undefined => {
    const n = Number(v);
    return Number.isFinite(n) && n > 0 ? n : undefined;
  };
  return { hardLimitMs: positive(env.A1_TEST_WATCHDOG_HARD_MS), stallMs: positive(env.A1_TEST_WATCHDOG_STALL_MS) };
}

export function startWatchdog(opts: WatchdogOptions): Watchdog {
  const { ctx } = opts;
  const stallMs = opts.stallMs ?? STALL_NOTICE_MS;
  const hardLimitMs = opts.hardLimitMs ?? HARD_LIMIT_MS;
  // A tick is a fraction of the hard limit, so a short test limit is still checked several times.
  // A caller's timer ticks at its own pace, the default tick (no worker needs a shorter one).
  const tickMs = opts.ownTimer === false ? (opts.tickMs ?? WATCHDOG_TICK_MS) : Math.min(opts.tickMs ?? WATCHDOG_TICK_MS, Math.max(10, Math.floor(hardLimitMs / 4)));
  const beats = new Int32Array(new SharedArrayBuffer(4));
  let worker: Worker | null = null;
  let eventsChanged = false;
  let unsubscribe = (): void => undefined;
  if (opts.blockedLoop) {
    worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        beats: beats.buffer,
        checkMs: tickMs,
        hardLimitMs,
        pid: opts.pid ?? process.pid,
        role: ctx.role,
        incarnation: ctx.incarnation,
        crashDir: ctx.crashDir,
        logFile: ctx.log.file,
        events: ctx.log.recent().map(recordEvent),
      },
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
    });
    worker.unref();
    worker.on('error', (err) => ctx.log.warn('watchdog-failed', { name: err.name }));
    // The last entries reach the worker at the next tick: a record then ends with what the
    // process logged up to about one tick before its loop stopped.
    unsubscribe = ctx.log.onEntry(() => {
      eventsChanged = true;
    });
  }
  let last = performance.now();
  const tick = (): void => {
    const now = performance.now();
    const late = tickLateness(last, now, tickMs);
    last = now;
    Atomics.add(beats, 0, 1);
    if (late >= stallMs) ctx.log.warn('loop-stall', { ms: Math.round(late) });
    if (worker && eventsChanged) {
      eventsChanged = false;
      worker.postMessage({ events: ctx.log.recent().map(recordEvent) });
    }
  };
  const timer = opts.ownTimer === false ? null : setInterval(tick, tickMs);
  timer?.unref();
  return {
    tick,
    stop: async () => {
      if (timer) clearInterval(timer);
      unsubscribe();
      if (worker) await worker.terminate();
      worker = null;
    },
  };
}

/** The worker: CommonJS source, since an eval worker is a script; the functions it needs are
 * copied in from their source so there is one definition of each. */
const WORKER_SOURCE = `
'use strict';
const { parentPort, workerData: d } = require('node:worker_threads');
const { performance } = require('node:perf_hooks');
const fs = require('node:fs');
const path = require('node:path');
const crypto = require('node:crypto');
const judge = (${judgeBlocked.toString()});
const recordName = (${crashRecordName.toString()});
const fsyncDirWith = (${fsyncDirWith.toString()});
const atomicWrite = (${atomicWriteSteps.toString()});
const io = { fs, path, crypto, crashPoint: () => {}, fsyncDir: (dir) => fsyncDirWith(fs, dir) };
const beats = new Int32Array(d.beats);
let events = d.events;
parentPort.on('message', (m) => { events = m.events; });
let state = { beat: Atomics.load(beats, 0), lastCheck: performance.now(), blockedMs: 0 };
const timer = setInterval(() => {
  const next = judge(state, performance.now(), Atomics.load(beats, 0), d.checkMs, d.hardLimitMs);
  state = next.state;
  if (!next.fatal) return;
  clearInterval(timer);
  const at = new Date().toISOString();
  const detail = { ms: Math.round(state.blockedMs), limitMs: d.hardLimitMs };
  const record = { at, role: d.role, pid: d.pid, incarnation: d.incarnation, reason: 'watchdog', detail, events };
  try {
    fs.mkdirSync(d.crashDir, { recursive: true, mode: 0o700 });
    const file = path.join(d.crashDir, recordName(at, d.role, d.pid, crypto.randomBytes(3).toString('hex')));
    atomicWrite(io, file, JSON.stringify(record, null, 1) + '\\n', 0o600);
  } catch {}
  try {
    const line = { at, pid: d.pid, level: 'error', role: d.role, event: 'watchdog-kill', ...detail };
    fs.appendFileSync(d.logFile, JSON.stringify(line) + '\\n', { mode: 0o600 });
  } catch {}
  process.kill(d.pid, 'SIGKILL');
}, d.checkMs);
`;
