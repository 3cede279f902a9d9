// Failure domains (SPEC §3, §7, §10; issue 15): one tab's trouble stays in that tab. While one
// tab's holder crashes, its child is killed, or its child hangs with its input queue full, the
// tab a person watches and types into keeps its holder and child, echoes every key, and streams
// every line; the failed tab recovers on its own. And an ended tab's state never decides what
// happens to keys typed on the way to another tab. No wall-clock speed is asserted here (the
// bench measures echo latency with a hung tab); every check is of what arrived and from where.
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { describe, it, expect, afterEach } from 'vitest';
import { e2e, KEY, listing, probeViewed, stateDir, waitForStrip, type E2E, type Listing } from './harness.js';
import { isSameAlive, killRef, listedTab, procRef, recoveryFilesOf, type ProcRef } from './lifecycleHarness.js';
import { REPO_ROOT, type PtyDriver } from '../helpers/pty.js';
import { isAlive } from '../helpers/procs.js';
import { waitFor } from '../helpers/wait.js';

const STREAMER = path.join(REPO_ROOT, 'test', 'fixtures', 'streamer.mjs');
const REJECTED = 'not accepting input';
/** Distinct keys, typed in turn; the streamer's echo line shows the last 20 it read. */
const KEY_CYCLE = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const RECENT_KEYS = 20;
/** Keys typed into the watched tab once the other tab's trouble is in place. */
const KEYS_WHILE_HUNG = 40;
/** How late the running tab's holder answers a view in the switching test, and how often a key
 * is typed meanwhile (a person's pace; digits only: `r` and `f` mean something to an ended tab). */
const ATTACH_DELAY_MS = 1_000;
const KEY_GAP_MS = 20;
const DIGITS = '0123456789';
/** The smallest input queue the config allows, so a tab that does not read fills it fast. */
const QUEUE_BYTES = 64 * 1024;

let t: E2E;
const stopped: ProcRef[] = [];
afterEach(async () => {
  // Continued first, so nothing this test stopped is ever left stopped.
  for (const ref of stopped.splice(0)) if (isSameAlive(ref)) process.kill(ref.pid, 'SIGCONT');
  await t?.teardown();
});

interface StreamTab {
  id: string;
  name: string;
  /** The streamer's files: count, typed, stop. */
  dir: string;
}

/** Creates a tab running test/fixtures/streamer.mjs (see its header) with its own directory. */
async function streamerTab(name: string, ...flags: string[]): Promise<StreamTab> {
  const dir = path.join(t.home.dir, name);
  fs.mkdirSync(dir);
  const made = await t.run('new', '--name', name, '--', process.execPath, STREAMER, dir, ...flags);
  expect(made.code, made.stderr).toBe(0);
  return { id: made.stdout.trim(), name, dir };
}

function fileOf(tab: StreamTab, name: string): string {
  try {
    return fs.readFileSync(path.join(tab.dir, name), 'latin1');
  } catch {
    return '';
  }
}

/** How many lines the streamer has written to its terminal. */
function streamed(tab: StreamTab): number {
  return Number(fileOf(tab, 'count')) || 0;
}

/** The highest `line N` on the client's screen (0 for none). */
function shownLine(a1: PtyDriver): number {
  return Math.max(0, ...a1.screenText().map((row) => Number(/^line (\d+)$/.exec(row)?.[1] ?? 0)));
}

/** Waits until the client shows the viewed streamer past line `n`: its output reaches the screen. */
async function showsLinesPast(a1: PtyDriver, n: number): Promise<void> {
  await a1.waitForScreen(() => shownLine(a1) > n, undefined, `a line past ${n} on the screen`);
}

/**
 * Types into the streamer the client views, one key at a time: each key is sent once the
 * previous one's echo (the line the streamer prints of what it read) is on the screen.
 */
class Typist {
  sent = '';
  constructor(private readonly a1: PtyDriver) {}

  async key(): Promise<void> {
    const key = KEY_CYCLE[this.sent.length % KEY_CYCLE.length];
    this.sent += key;
    this.a1.write(key);
    await this.echoed();
  }

  async paste(text: string): Promise<void> {
    this.sent += text;
    this.a1.write(`\x1b[200~${text}\x1b[201~`);
    await this.echoed();
  }

  private async echoed(): Promise<void> {
    const want = `typed ${this.sent.length}: ${this.sent.slice(-RECENT_KEYS)}`;
    await this.a1.waitForScreen((rows) => rows.includes(want), undefined, `the echo "${want}"`);
  }
}

/** The tab's holder and child as processes (pid and start time). */
function processesOf(l: Listing, tabId: string): { holder: ProcRef; child: ProcRef } {
  const tab = listedTab(l, tabId);
  const holder = tab.holderPid ? procRef(tab.holderPid) : null;
  const child = tab.childPid ? procRef(tab.childPid) : null;
  if (!holder || !child) throw new Error(`tab ${tabId} has no live holder and child: ${JSON.stringify(tab)}`);
  return { holder, child };
}

function waitForRunning(names: readonly string[]): Promise<Listing> {
  return waitFor(async () => {
    const l = await listing(t);
    const ok = l.server && l.tabs.length === names.length && l.tabs.every((x) => x.status === 'running' && x.holderPid && x.childPid);
    return ok ? l : null;
  }, { what: `tabs ${names.join(', ')} running` });
}

/**
 * Stops the streamer and ends it with SIGKILL: the tab's recovery file (its last screen and
 * scrollback, written from the holder's terminal model) must hold `line 1` to `line N` in order,
 * none missing, then `stopped at N`. Returns N.
 */
async function expectEveryLine(a1: PtyDriver, tab: StreamTab, child: ProcRef): Promise<number> {
  fs.writeFileSync(path.join(tab.dir, 'stop'), '');
  const rows = await a1.waitForText(/^stopped at \d+$/);
  const last = Number(/^stopped at (\d+)$/.exec(rows.find((r) => r.startsWith('stopped at '))!)![1]);
  killRef(child);
  const file = await waitFor(() => recoveryFilesOf(t, tab.id)[0], { what: `the recovery file of ${tab.name}` });
  const text = fs.readFileSync(file, 'utf8').split('\n');
  const numbers = text.flatMap((row) => /^line (\d+)$/.exec(row)?.slice(1) ?? []).map(Number);
  const missing = Array.from({ length: last }, (_, i) => i + 1).filter((n) => !numbers.includes(n));
  expect(missing, 'lines missing from the recovery file').toEqual([]);
  expect(numbers.every((n, i) => n === i + 1), `lines out of order near ${numbers.find((n, i) => n !== i + 1)}`).toBe(true);
  expect(text).toContain(`stopped at ${last}`);
  return last;
}

interface Crash {
  role: string;
  reason: string;
  pid: number;
}

function crashRecords(): Crash[] {
  const dir = path.join(stateDir(t), 'crash');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as Crash);
}

type Failure = 'holder' | 'child';

describe('one tab fails while another streams and is typed into', () => {
  it.each<Failure>(['holder', 'child'])(
    'the %s of one tab crashes: only that tab recovers; the other keeps its processes, echoes every key and streams every line',
    async (failure) => {
      t = e2e();
      // The holder's test-only fault: SIGUSR2 makes it throw, uncaught (src/diag/testFaults.ts).
      if (failure === 'holder') Object.assign(t.env, { A1_TEST_FAULT_SIGUSR2: 'holder=crash' });
      const live = await streamerTab('live');
      // An agent tab: only an agent is restarted after its program crashes (issue 28).
      const made = await t.run('new', '--agent', 'generic', '--name', 'victim');
      expect(made.code, made.stderr).toBe(0);
      const victimId = made.stdout.trim();
      const a1 = t.attach();
      await waitForStrip(a1, ['live', 'victim'], 'live');
      const typist = new Typist(a1);
      for (let i = 0; i < 3; i++) await typist.key();

      const before = await waitForRunning(['live', 'victim']);
      const kept = processesOf(before, live.id);
      const victim = processesOf(before, victimId);
      const atCrash = streamed(live);
      if (failure === 'holder') process.kill(victim.holder.pid, 'SIGUSR2');
      else process.kill(victim.child.pid, 'SIGKILL');

      // The failed tab recovers: a new child, under a new holder when the holder crashed.
      let recovered = false;
      const recovery = waitFor(async () => {
        const tab = listedTab(await listing(t), victimId);
        const holderOk = failure === 'holder' ? tab.holderPid !== victim.holder.pid : tab.holderPid === victim.holder.pid;
        return tab.status === 'running' && holderOk && tab.childPid && tab.childPid !== victim.child.pid && isAlive(tab.childPid) ? tab : null;
      }, { what: `tab victim recovered from its ${failure} crash`, timeoutMs: 60_000 }).finally(() => {
        recovered = true;
      });
      recovery.catch(() => undefined);
      // Keys all the while it recovers, and after: each one echoed before the next is sent.
      while (!recovered) await typist.key();
      await recovery;
      for (let i = 0; i < 5; i++) await typist.key();
      await showsLinesPast(a1, atCrash + 10);

      // The watched tab: the same holder and child, every key read once and in order.
      const after = await listing(t);
      expect(after.server?.pid).toBe(before.server?.pid);
      expect(listedTab(after, live.id)).toMatchObject({ status: 'running', holderPid: kept.holder.pid, childPid: kept.child.pid });
      expect(isSameAlive(kept.holder) && isSameAlive(kept.child)).toBe(true);
      expect(fileOf(live, 'typed')).toBe(typist.sent);

      // The failed tab's old processes are gone, and it works again.
      await waitFor(() => !isSameAlive(victim.child), { what: "the victim's old child gone" });
      if (failure === 'holder') {
        expect(isSameAlive(victim.holder)).toBe(false);
        expect(crashRecords().some((c) => c.reason === 'uncaught-exception' && c.pid === victim.holder.pid)).toBe(true);
      } else {
        expect(isSameAlive(victim.holder)).toBe(true);
      }

      // Every line the watched tab printed reached its terminal model, through the crash.
      expect(await expectEveryLine(a1, live, kept.child)).toBeGreaterThan(atCrash);
      a1.write(KEY.jump2);
      await waitForStrip(a1, ['live', 'victim'], 'victim');
      await probeViewed(a1, victimId);
    },
  );
});

describe('leaving a tab that ended', () => {
  it('keys typed while the view moves from an exited tab to a running one wait for it and all reach it', async () => {
    t = e2e();
    const made = await t.run('new', '--agent', 'generic', '--name', 'ended', '--', '/bin/sh', '-c', 'echo ended-$((6*7)); exit 0');
    expect(made.code, made.stderr).toBe(0);
    // The running tab's holder answers a view late (a holder under load): the test-only hook
    // travels in the environment of the command that creates the tab.
    t.env.A1_TEST_ATTACH_DELAY_MS = String(ATTACH_DELAY_MS);
    const live = await streamerTab('live');
    delete t.env.A1_TEST_ATTACH_DELAY_MS;
    await waitFor(async () => listedTab(await listing(t), made.stdout.trim()).status === 'exited', { what: 'the tab ended' });
    const a1 = t.attach();
    await waitForStrip(a1, ['ended', 'live'], 'ended');
    await a1.waitForText('exited with status 0');

    // A key every KEY_GAP_MS from Alt+2 on, until the running tab shows, and a few after: some
    // reach the client while it waits for the running tab's holder to answer, and those must
    // wait with it, not be judged by the ended tab's state.
    a1.write(KEY.jump2);
    let sent = '';
    const type = async () => {
      const key = DIGITS[sent.length % DIGITS.length];
      a1.write(key);
      sent += key;
      await delay(KEY_GAP_MS);
    };
    while (shownLine(a1) === 0) await type();
    for (let i = 0; i < 5; i++) await type();
    await waitForStrip(a1, ['ended', 'live'], 'live');
    await a1.waitForText(`typed ${sent.length}: ${sent.slice(-RECENT_KEYS)}`);
    expect(sent.length).toBeGreaterThan(ATTACH_DELAY_MS / KEY_GAP_MS / 2);
    expect(fileOf(live, 'typed')).toBe(sent);
  });
});

type Hang = 'stopped' | 'deaf';

describe('one tab hangs', () => {
  it.each<[string, Hang]>([
    ['its child stopped (SIGSTOP)', 'stopped'],
    ['its child never reading input', 'deaf'],
  ])(
    '%s and its input queue full: the other tab echoes every key, takes a paste whole and streams every line; no process is replaced',
    async (_, hang) => {
      t = e2e({ inputQueueBytes: QUEUE_BYTES });
      const hung = await streamerTab('hung', ...(hang === 'deaf' ? ['--no-read'] : []));
      const live = await streamerTab('live');
      const a1 = t.attach();
      await waitForStrip(a1, ['hung', 'live'], 'hung');
      const before = await waitForRunning(['hung', 'live']);
      const kept = processesOf(before, live.id);
      const stuck = processesOf(before, hung.id);

      if (hang === 'stopped') {
        stopped.push(stuck.child);
        process.kill(stuck.child.pid, 'SIGSTOP');
      }
      // Pastes of 3/4 of the queue each, far more than the PTY and the queue hold unread:
      // the hung tab's queue fills and a paste is refused.
      for (let i = 0; i < 4; i++) a1.write(`\x1b[200~${String.fromCharCode(97 + i).repeat((QUEUE_BYTES * 3) / 4)}\x1b[201~`);
      await a1.waitForText(REJECTED);

      a1.write(KEY.jump2);
      await waitForStrip(a1, ['hung', 'live'], 'live');
      const atHang = streamed(live);
      const typist = new Typist(a1);
      for (let i = 0; i < KEYS_WHILE_HUNG; i++) await typist.key();
      // Half the queue's size at once: the other tab's full queue takes no room from this one.
      await typist.paste('p'.repeat(QUEUE_BYTES / 2));
      await typist.key();
      await showsLinesPast(a1, atHang + 10);

      const after = await listing(t);
      expect(after.server?.pid).toBe(before.server?.pid);
      expect(listedTab(after, live.id)).toMatchObject({ status: 'running', holderPid: kept.holder.pid, childPid: kept.child.pid });
      // A tab is never reaped for hanging: its holder and child are the same too.
      expect(listedTab(after, hung.id)).toMatchObject({ status: 'running', holderPid: stuck.holder.pid, childPid: stuck.child.pid });
      for (const ref of [kept.holder, kept.child, stuck.holder, stuck.child]) expect(isSameAlive(ref), ref.argv.join(' ')).toBe(true);
      expect(fileOf(live, 'typed')).toBe(typist.sent);
      expect(fileOf(hung, 'typed')).toBe('');

      expect(await expectEveryLine(a1, live, kept.child)).toBeGreaterThan(atHang);
    },
  );
});
