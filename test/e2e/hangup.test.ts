// Losing the terminal for real (SPEC §3, issue 15): a1 runs as a job of an interactive shell that
// leads its own session on a real PTY, as under a terminal emulator or sshd, and that whole
// session is hung up: the terminal emulator dies (its PTY master closes, the kernel hangs the
// terminal up and the shell passes SIGHUP on to its jobs), or the session leader is killed (the
// kernel SIGHUPs the foreground job). The server, every holder and every child live on in their
// own sessions, nothing of a1 is left in the dead one, and the next a1 shows every tab with what
// it printed meanwhile. Also: a server killed while no client is attached is replaced by a
// holder, and the next a1 shows every tab's current screen, printed during the outage included.
import fs from 'node:fs';
import path from 'node:path';
import { describe, it, expect, afterEach } from 'vitest';
import { e2e, listing, stateDir, PROMPT, PROMPT_SEEN, waitForStrip, type E2E, type Listing } from './harness.js';
import { argvOf, isSameAlive, procRef, readJsonLines, type ProcRef } from './lifecycleHarness.js';
import { A1_BIN, PtyDriver } from '../helpers/pty.js';
import { isAlive, pidsWithEnv } from '../helpers/procs.js';
import { waitFor } from '../helpers/wait.js';

const ALT = (n: number) => `\x1b${n}`;
const OUTER_PROMPT = 'outer$ ';

let t: E2E;
const terminals: PtyDriver[] = [];
afterEach(async () => {
  for (const d of terminals.splice(0)) d.dispose();
  await t?.teardown();
});

/**
 * A tab program, `ticker.sh NAME`, with its files in the test's home: prints `NAME tick N` every
 * 50 ms (N also goes to NAME.count, renamed into place so a reader never sees it emptied) until
 * the file `release` exists, then `NAME released after N ticks` (words a typed command line never
 * shows), writes NAME.released with the time in ms, and stays.
 */
function writeTicker(): string {
  const dir = t.home.dir;
  const file = path.join(dir, 'ticker.sh');
  fs.writeFileSync(
    file,
    `cd '${dir}'
n=0
while [ ! -e release ]; do n=$((n+1)); echo "$1 tick $n"; echo $n > "$1.count.tmp"; mv "$1.count.tmp" "$1.count"; sleep 0.05; done
echo "$1 released after $n ticks"
date +%s%3N > "$1.released"
while :; do sleep 1; done
`,
  );
  return file;
}

function ticks(name: string): number {
  try {
    return Number(fs.readFileSync(path.join(t.home.dir, `${name}.count`), 'utf8').trim()) || 0;
  } catch {
    return 0;
  }
}

/** Waits until the ticker `name` has printed `more` ticks beyond what it had printed now. */
async function ticking(name: string, more = 5): Promise<void> {
  const from = ticks(name);
  await waitFor(() => ticks(name) >= from + more, { what: `${name} ticking on from ${from}` });
}

/** Releases every ticker; resolves with the time (ms) each printed its release line. */
async function release(names: readonly string[]): Promise<Record<string, number>> {
  fs.writeFileSync(path.join(t.home.dir, 'release'), '');
  const at: Record<string, number> = {};
  for (const name of names) {
    const file = path.join(t.home.dir, `${name}.released`);
    at[name] = await waitFor(() => (fs.existsSync(file) ? Number(fs.readFileSync(file, 'utf8').trim()) : 0), { what: `${name} released` });
  }
  return at;
}

/** Fields of /proc/<pid>/stat after the command name: [state, ppid, pgrp, session, ...]. */
function statFields(pid: number): string[] | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

function sessionOf(pid: number): number | null {
  const f = statFields(pid);
  return f ? Number(f[3]) : null;
}

function groupOf(pid: number): number | null {
  const f = statFields(pid);
  return f ? Number(f[2]) : null;
}

/** Every live process (zombies aside) in session `sid`. */
function sessionMembers(sid: number): number[] {
  return fs
    .readdirSync('/proc')
    .map(Number)
    .filter((pid) => Number.isInteger(pid) && sessionOf(pid) === sid && isAlive(pid));
}

/** The server, each tab's holder and child, as processes (pid and start time). */
interface Resident {
  server: ProcRef;
  holders: ProcRef[];
  children: ProcRef[];
}

function residentOf(l: Listing): Resident {
  const ref = (pid: number | null | undefined, what: string): ProcRef => {
    const r = pid ? procRef(pid) : null;
    if (!r) throw new Error(`no live ${what} (pid ${pid}) in ${JSON.stringify(l)}`);
    return r;
  };
  return {
    server: ref(l.server?.pid, 'server'),
    holders: l.tabs.map((x) => ref(x.holderPid, `holder of ${x.name}`)),
    children: l.tabs.map((x) => ref(x.childPid, `child of ${x.name}`)),
  };
}

/** Every tab runs, with the very holder and child it had. */
function expectSameTabs(before: Resident, now: Listing): void {
  for (const ref of [...before.holders, ...before.children]) expect(isSameAlive(ref), `${ref.pid} ${ref.argv.join(' ')} still the same process`).toBe(true);
  expect(now.tabs.map((x) => [x.holderPid, x.childPid])).toEqual(before.holders.map((h, i) => [h.pid, before.children[i].pid]));
  expect(now.tabs.every((x) => x.status === 'running'), JSON.stringify(now.tabs)).toBe(true);
}

/** The same server, and every tab with the very holder and child it had. */
function expectSameResident(before: Resident, now: Listing): void {
  expect(isSameAlive(before.server), 'the same server').toBe(true);
  expect(now.server?.pid).toBe(before.server.pid);
  expectSameTabs(before, now);
}

/** Attaches a new a1 and views each tab in turn (named `tabs`, in strip order), waiting for its
 * ticker's `<ticker> released after` line. */
async function reattachAndSee(tabs: readonly string[], tickers: readonly string[]): Promise<void> {
  const a1 = t.attach();
  await waitForStrip(a1, tabs);
  for (const [i, name] of tabs.entries()) {
    a1.write(ALT(i + 1));
    await waitForStrip(a1, tabs, name);
    await a1.waitForText(`${tickers[i]} released after`);
  }
}

type Hangup = 'terminal closed' | 'session leader killed';

describe('the whole outer terminal session hung up', () => {
  it.each<Hangup>(['terminal closed', 'session leader killed'])(
    '%s: server, holders and children live on in their own sessions, none of a1 stays in it, and the next a1 shows every tab',
    async (how) => {
      t = e2e();
      const ticker = writeTicker();
      // The terminal emulator is `script`: it holds the PTY master, and its child, an interactive
      // bash, leads the terminal's session with job control, as a login over sshd does.
      const terminal = new PtyDriver({
        // script runs the command with `$SHELL -c`, which drops PS1: the command sets it again.
        argv: ['script', '-qfec', `PS1='${OUTER_PROMPT}' exec /bin/bash --norc --noprofile -i`, '/dev/null'],
        env: { ...t.env, SHELL: '/bin/bash' },
        cwd: t.home.dir,
      });
      terminals.push(terminal);
      await terminal.waitForText(OUTER_PROMPT.trimEnd());
      terminal.write(`PS1='${PROMPT}' ${process.execPath} ${A1_BIN}\r`);
      await terminal.waitForText(PROMPT_SEEN);
      await waitForStrip(terminal, ['agent'], 'agent');
      // A tab of a1's own shell prints; a second tab, made while attached, prints too.
      terminal.write(`bash ${ticker} one\r`);
      await terminal.waitForText('one tick');
      const made = await t.run('new', '--name', 'two', '--', '/bin/bash', ticker, 'two');
      expect(made.code, made.stderr).toBe(0);
      await waitForStrip(terminal, ['agent', 'two']);
      await Promise.all([ticking('one'), ticking('two')]);

      const before = residentOf(await listing(t));
      const [client] = pidsWithEnv('A1_HOME', t.home.dir).filter((pid) => isAlive(pid) && argvOf(pid).join(' ') === `${process.execPath} ${A1_BIN}`);
      expect(client, 'the a1 client').toBeGreaterThan(0);
      const sid = sessionOf(client)!;
      const leader = procRef(sid)!;
      // The client is a job of the outer shell: its own group, in the shell's session.
      expect(leader.argv[0]).toMatch(/bash$/);
      expect(groupOf(client)).toBe(client);
      expect(sid).not.toBe(client);
      // The server, holders and children are each in a session of their own, none in the terminal's.
      for (const ref of [before.server, ...before.holders, ...before.children]) {
        expect(sessionOf(ref.pid), `${ref.argv.join(' ')} in its own session`).toBe(ref.pid);
      }

      // The terminal emulator dies: its PTY master closes, the kernel hangs the terminal up and
      // SIGHUPs bash, which SIGHUPs its jobs. Or the session leader dies (an SSH session's shell
      // killed): the kernel SIGHUPs the terminal's foreground job.
      if (how === 'terminal closed') process.kill(terminal.pid, 'SIGKILL');
      else process.kill(leader.pid, 'SIGKILL');
      await waitFor(() => !isAlive(leader.pid), { what: 'the session leader gone' });
      // Nothing is left in the hung-up session: the client is gone too.
      await waitFor(() => sessionMembers(sid).length === 0, { what: `session ${sid} empty` });
      expect(isAlive(client)).toBe(false);

      await Promise.all([ticking('one'), ticking('two')]);
      const after = await listing(t);
      expectSameResident(before, after);
      await release(['one', 'two']);
      await reattachAndSee(['agent', 'two'], ['one', 'two']);
      expectSameResident(before, await listing(t));
    },
  );
});

interface LogEntry {
  at: string;
  pid: number;
  event: string;
}

/** The entries of the profile's logs whose file name matches `file` (server.log, holder-<tab>.log). */
function logEntries(file: RegExp): LogEntry[] {
  const dir = path.join(stateDir(t), 'logs');
  return fs
    .readdirSync(dir)
    .filter((name) => file.test(name))
    .flatMap((name) => readJsonLines(path.join(dir, name)) as unknown as LogEntry[]);
}

describe('a server killed while no client is attached', () => {
  it('is replaced by a holder, and the next a1 shows every tab with what it printed during the outage, same holders and children', async () => {
    t = e2e();
    const ticker = writeTicker();
    for (const name of ['one', 'two']) {
      const made = await t.run('new', '--name', name, '--', '/bin/bash', ticker, name);
      expect(made.code, made.stderr).toBe(0);
    }
    await Promise.all([ticking('one'), ticking('two')]);
    const before = residentOf(await listing(t));

    process.kill(before.server.pid, 'SIGKILL');
    await waitFor(() => !isAlive(before.server.pid), { what: 'the server gone' });
    // Printed right after the kill: a holder waits at least a second before starting a server.
    const releasedAt = await release(['one', 'two']);
    const after = await waitFor(async () => {
      const l = await listing(t);
      return l.server && l.server.pid !== before.server.pid && l.tabs.every((x) => x.status === 'running') ? l : null;
    }, { what: 'a replacement server' });
    const started = logEntries(/^server/).find((e) => e.event === 'start' && e.pid === after.server!.pid);
    expect(started, 'the replacement logged its start').toBeDefined();
    for (const name of ['one', 'two']) expect(releasedAt[name]).toBeLessThan(Date.parse(started!.at));

    expectSameTabs(before, after);
    expect(logEntries(/^holder-/).filter((e) => e.event === 'server-replace').length, 'a holder started the replacement').toBeGreaterThanOrEqual(1);
    await reattachAndSee(['one', 'two'], ['one', 'two']);
    const last = await listing(t);
    expect(last.server?.pid).toBe(after.server!.pid);
    expectSameTabs(before, last);
  });
});
