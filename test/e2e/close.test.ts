// Close (SPEC §9, §15 "Which processes a close ends"): an agent tab's whole tree ends, including
// what left its session, and its session is retired to history, never resumed; a plain shell
// tab's setsid child survives as under tmux; duplicate close and close-after-exit are no-ops;
// stopping six busy tabs at once shows progress while the server keeps answering. Alt+W asks
// first for a busy tab by one rule in both kinds of tab: an agent that reports status is busy by
// its status, whether it is the tab's program or a job its shell runs (issue 28).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { describe, it, expect, afterEach } from 'vitest';
import {
  detach,
  e2e,
  foregroundJob,
  hostStop,
  KEY,
  listing,
  livePids,
  PROMPT_SEEN,
  readStrip,
  tabId,
  tabNames,
  waitForForegroundJob,
  waitForListing,
  waitForStrip,
  type E2E,
} from './harness.js';
import {
  agentStarts,
  fakeAgentArgv,
  isSameAlive,
  killRef,
  listedTab,
  newAgentTab,
  procRef,
  resumeRecordsOf,
  serverLogErrors,
  sessionsOf,
  tabProcesses,
  useFakeAgent,
  waitForStatus,
  waitForTabSession,
  type ProcRef,
} from './lifecycleHarness.js';
import { a1Argv, type PtyDriver } from '../helpers/pty.js';
import { waitFor } from '../helpers/wait.js';

/** Short, so the SIGKILL after the grace window comes soon; SPEC §15 lets tests shorten it. */
const GRACE_MS = 300;

let t: E2E;
const survivors: ProcRef[] = [];
afterEach(async () => {
  for (const ref of survivors.splice(0)) killRef(ref);
  await t?.teardown();
});

function sleepsOf(refs: readonly ProcRef[], seconds: number): ProcRef[] {
  return refs.filter((p) => p.argv[0]?.endsWith('sleep') && p.argv[1] === String(seconds));
}

/** Waits until the tab's marked processes include exactly one `sleep <seconds>` for each. */
function waitForSleeps(tabId: string, seconds: readonly number[]): Promise<ProcRef[]> {
  return waitFor(() => {
    const procs = tabProcesses(tabId);
    const found = seconds.map((s) => sleepsOf(procs, s));
    return found.every((f) => f.length === 1) ? found.map((f) => f[0]) : null;
  }, { what: `sleep ${seconds.join(', ')} in tab ${tabId}` });
}

describe('close', () => {
  it('an agent tab: every process of its tree ends, its session is closed, and it is never resumed', async () => {
    t = e2e({ closeGraceMs: GRACE_MS });
    const dir = useFakeAgent(t);
    // "$@" passes the resume arguments on, so resuming this tab would work: the test can fail.
    const script = `sleep 1000 & setsid sleep 1001 & nohup sleep 1002 >/dev/null 2>&1 & exec ${fakeAgentArgv().join(' ')} "$@"`;
    const made = await t.run('new', '--agent', 'generic', '--name', 'fake', '--', '/bin/bash', '-c', script, 'bash');
    expect(made.code, made.stderr).toBe(0);
    const id = made.stdout.trim();

    const a1 = t.attach();
    await waitForStrip(a1, ['fake'], 'fake');
    await a1.waitForText(/fake-agent session \S+ \(new\)/);
    const session = await waitForTabSession(t, id);
    const [s1000, s1001, s1002] = await waitForSleeps(id, [1000, 1001, 1002]);
    const tab = listedTab(await listing(t), id);
    const agent = procRef(tab.childPid!);
    const holder = procRef(tab.holderPid!);
    expect(agent?.argv).toContain(fakeAgentArgv()[1]);
    expect(holder).not.toBeNull();
    // Everything carrying the tab's marker now (the sleeps, the agent, perhaps a status report).
    const tree = [...tabProcesses(id), holder!];
    expect(tree.map((p) => p.pid)).toEqual(expect.arrayContaining([s1000.pid, s1001.pid, s1002.pid, agent!.pid]));
    // The setsid sleep left the tab's session (only the marker and the ancestry find it); the
    // nohup one did not.
    expect(procSid(s1001.pid)).not.toBe(procSid(agent!.pid));
    expect(procSid(s1002.pid)).toBe(procSid(agent!.pid));
    expect(records(t, id, session.sessionId)).not.toHaveLength(0);

    a1.write(KEY.closeTab);
    const asked = await waitFor(async () => {
      const strip = await readStrip(a1);
      if (strip.names.length === 0) return 'closed';
      return a1.screenText().some((l) => l.includes('Stop "fake"?')) ? 'asked' : null;
    }, { what: 'the tab closed, or the close confirmation' });
    if (asked === 'asked') a1.write('\r');
    await waitForStrip(a1, []);
    expect((await listing(t)).tabs).toEqual([]);

    await waitFor(() => tree.every((p) => !isSameAlive(p)), {
      what: 'every process of the closed tab gone',
    }).catch((error: Error) => {
      throw new Error(`${error.message}; left: ${JSON.stringify(tree.filter(isSameAlive))}`);
    });
    const closed = (await sessionsOf(t)).find((s) => s.sessionId === session.sessionId);
    expect(closed).toMatchObject({ state: 'closed', tabId: null });
    expect(records(t, id, session.sessionId)).toEqual([]);

    await detach(a1);
    await hostStop(t);
    const again = t.attach();
    await again.waitForText(PROMPT_SEEN);
    const after = await waitFor(async () => {
      const l = await listing(t);
      return l.tabs.length === 1 && l.tabs[0].status === 'running' ? l : null;
    }, { what: 'one running tab after the restart' });
    expect(after.tabs[0].id).not.toBe(id);
    expect(agentStarts(dir, session.sessionId)).toHaveLength(1);
    expect((await sessionsOf(t)).find((s) => s.sessionId === session.sessionId)).toMatchObject({ state: 'closed', tabId: null });
  });

  it('a tab that became an agent by reporting over the bridge ends what left its session too', async () => {
    t = e2e({ closeGraceMs: GRACE_MS });
    // Made with plain `a1 new`: it is an agent tab only because its program said so.
    const report = a1Argv('status', 'idle', '--agent', 'generic').map((a) => `'${a}'`).join(' ');
    const made = await t.run('new', '--name', 'gen', '--', '/bin/bash', '-c', `${report} && setsid sleep 1005 & exec sleep 1006`);
    expect(made.code, made.stderr).toBe(0);
    const id = made.stdout.trim();
    await waitFor(async () => listedTab(await listing(t), id).agent?.kind === 'generic', { what: 'the tab\'s report as a generic agent' });
    const [escaped, own] = await waitForSleeps(id, [1005, 1006]);
    survivors.push(escaped);
    expect(procSid(escaped.pid)).not.toBe(procSid(own.pid));

    const stopped = await t.run('tabs', 'stop', id);
    expect(stopped.code, stopped.stderr).toBe(0);
    expect(isSameAlive(own)).toBe(false);
    expect(isSameAlive(escaped), 'the setsid child of a reporting agent tab').toBe(false);
  });

  it('a plain shell tab: a setsid child survives the close, a background job in the session does not', async () => {
    t = e2e({ closeGraceMs: GRACE_MS });
    const a1 = t.attach();
    await a1.waitForText(PROMPT_SEEN);
    const id = (await waitForListing(t, ['agent'])).tabs[0].id;
    a1.write('setsid sleep 1003 & sleep 1004 &\r');
    const [left, inSession] = await waitForSleeps(id, [1003, 1004]);
    survivors.push(left);
    const child = listedTab(await listing(t), id).childPid!;
    expect(procSid(inSession.pid)).toBe(child);
    expect(procSid(left.pid)).not.toBe(child);

    const stopped = await t.run('tabs', 'stop', id);
    expect(stopped.code, stopped.stderr).toBe(0);
    await waitForStrip(a1, []);
    // `tabs stop` returns once the close has ended what it ends: the survivor was not among them.
    expect(isSameAlive(inSession)).toBe(false);
    expect(isSameAlive(left)).toBe(true);
  });

  it('a duplicate close and a close after the child exited are no-ops; the server keeps answering', async () => {
    t = e2e({ closeGraceMs: GRACE_MS });
    const busy = await t.run('new', '--name', 'busy', '--', '/bin/sh', '-c', 'sleep 1000; :');
    expect(busy.code, busy.stderr).toBe(0);
    const busyId = busy.stdout.trim();
    // An agent tab: a plain shell tab that exits 0 closes by itself (issue 18).
    const done = await t.run('new', '--agent', 'generic', '--name', 'done', '--', '/bin/sh', '-c', 'exit 0');
    expect(done.code, done.stderr).toBe(0);
    const doneId = done.stdout.trim();
    await waitForStatus(t, busyId, 'running');
    await waitForStatus(t, doneId, 'exited');
    const server = (await listing(t)).server!.pid;

    const first = await t.run('tabs', 'stop', busyId);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('stopped busy (1/1)');
    const second = await t.run('tabs', 'stop', busyId);
    expect(second.code).not.toBe(0);
    expect(second.stderr.trim()).toBe(`a1: No tab has the id or name "${busyId}".`);

    const afterExit = await t.run('tabs', 'stop', doneId);
    expect(afterExit.code, afterExit.stderr).toBe(0);
    expect(afterExit.stdout).toContain('stopped done (1/1)');

    // Two closes at once: whichever reaches the server second finds nothing to do.
    const twice = await t.run('new', '--name', 'twice', '--', '/bin/sh', '-c', 'sleep 1000; :');
    expect(twice.code, twice.stderr).toBe(0);
    const twiceId = twice.stdout.trim();
    await waitForStatus(t, twiceId, 'running');
    const both = await Promise.all([t.run('tabs', 'stop', twiceId), t.run('tabs', 'stop', twiceId)]);
    for (const r of both) {
      if (r.code !== 0) expect(r.stderr.trim()).toBe(`a1: No tab has the id or name "${twiceId}".`);
    }
    expect(both.some((r) => r.code === 0)).toBe(true);

    const l = await listing(t);
    expect(l.tabs).toEqual([]);
    expect(l.server?.pid).toBe(server);
    expect(serverLogErrors(t)).toEqual([]);
  });

  it('tabs stop --all ends six busy tabs with progress, and the server answers while it runs', async () => {
    // A longer grace window: the tab that ignores SIGHUP holds the stop open for that long,
    // which is when a listing must still be answered.
    t = e2e({ closeGraceMs: 2_000 });
    const ids: string[] = [];
    for (let n = 1; n <= 6; n++) {
      // An interactive shell runs `sleep` as a foreground job of its terminal: the tab is busy.
      const work = n === 6 ? "trap '' HUP; sleep 1000; :" : 'sleep 1000; :';
      const made = await t.run('new', '--name', `busy${n}`, '--', '/bin/bash', '--norc', '--noprofile', '-i', '-c', work);
      expect(made.code, made.stderr).toBe(0);
      ids.push(made.stdout.trim());
    }
    const names = ids.map((_, i) => `busy${i + 1}`);
    await waitForListing(t, names);
    await waitFor(async () => {
      const l = await listing(t);
      return l.tabs.every((tab) => tab.childPid !== null && foregroundJob(tab.childPid) !== null);
    }, { what: 'a foreground job in each of the six tabs' });
    const server = (await listing(t)).server!.pid;

    const stop = runTimed(t, ['tabs', 'stop', '--all']);
    const list = runTimed(t, ['tabs', '--json']);
    const [stopped, listed] = await Promise.all([stop, list]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout).server.pid).toBe(server);
    expect(listed.endedAt).toBeLessThan(stopped.endedAt);

    expect(stopped.code, stopped.stderr).toBe(0);
    const progress = stopped.stdout.split('\n').filter((line) => line.startsWith('  stopped '));
    expect(progress.map((line) => /\((\d)\/6\)$/.exec(line)?.[1])).toEqual(['1', '2', '3', '4', '5', '6']);
    expect(progress.map((line) => /^ {2}stopped (\S+) /.exec(line)?.[1]).sort()).toEqual(names);
    // The tab that ignores SIGHUP ends last: only the SIGKILL after the grace window ends it.
    expect(progress[5]).toContain('busy6');

    expect((await listing(t)).tabs).toEqual([]);
    await waitFor(() => JSON.stringify(livePids(t)) === JSON.stringify([server]), {
      what: 'only the server left of the profile',
    }).catch((error: Error) => {
      throw new Error(`${error.message}; live: ${JSON.stringify(livePids(t).map((pid) => procRef(pid)))}`);
    });
    expect(serverLogErrors(t)).toEqual([]);
  });
});

/** The session id (field 6 of /proc/<pid>/stat), or null when the process is gone. */
function procSid(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[3]);
  } catch {
    return null;
  }
}

function records(t: E2E, tabId: string, sessionId: string) {
  return resumeRecordsOf(t).filter((r) => r.tabId === tabId || r.sessionId === sessionId);
}

/** `a1 ...args` to completion, with the time it ended, to order two concurrent commands. */
function runTimed(t: E2E, args: string[]): Promise<{ code: number; stdout: string; stderr: string; endedAt: number }> {
  return new Promise((resolve) => {
    const [file, ...rest] = a1Argv(...args);
    execFile(file, rest, { env: t.env, cwd: t.home.dir, timeout: 30_000 }, (err, stdout, stderr) => {
      const endedAt = performance.now();
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : 1) : 0;
      resolve({ code, stdout, stderr, endedAt });
    });
  });
}

describe('Alt+W and an agent that reports status (one rule for busy)', () => {
  /** The fake agent in both kinds of tab, idle: `fake` runs it as its program (an agent tab),
   *  `agent` is a shell tab where it was typed and runs as the shell's foreground job. The
   *  shell tab is viewed. */
  async function agentInEachKindOfTab(): Promise<{ a1: PtyDriver; fake: string; shell: string }> {
    t = e2e({ closeGraceMs: GRACE_MS });
    useFakeAgent(t);
    const fake = await newAgentTab(t, 'fake');
    const a1 = t.attach();
    await waitForStrip(a1, ['fake'], 'fake');
    await a1.waitForText(/fake-agent session \S+ \(new\)/);
    a1.write(KEY.newTab);
    await waitForStrip(a1, ['fake', 'agent'], 'agent');
    await a1.waitForText(PROMPT_SEEN);
    const shell = tabId(await listing(t), 'agent');
    a1.write(`${fakeAgentArgv().join(' ')}\r`);
    await a1.waitForText(/fake-agent session \S+ \(new\)/);
    await waitForForegroundJob(t, shell);
    await waitForAgentState([fake, shell], 'idle');
    return { a1, fake, shell };
  }

  function waitForAgentState(ids: readonly string[], state: string): Promise<unknown> {
    return waitFor(async () => {
      const l = await listing(t);
      return ids.every((id) => listedTab(l, id).agent?.state === state);
    }, { what: `the agents of ${ids.join(', ')} ${state}` });
  }

  /** Alt+W on the viewed tab `name`: whether it closed at once or asked first. */
  async function closeViewed(a1: PtyDriver, name: string, id: string): Promise<'closed' | 'asked'> {
    a1.write(KEY.closeTab);
    return waitFor(async () => {
      if (a1.screenText().some((l) => l.includes(`Stop "${name}"?`))) return 'asked';
      return (await listing(t)).tabs.some((x) => x.id === id) ? null : 'closed';
    }, { what: `${name} closed, or the close confirmation` });
  }

  it('an idle one closes without asking, in a shell tab as in an agent tab', async () => {
    const { a1, fake, shell } = await agentInEachKindOfTab();
    expect(await closeViewed(a1, 'agent', shell)).toBe('closed');
    await waitForStrip(a1, ['fake'], 'fake');
    expect(await closeViewed(a1, 'fake', fake)).toBe('closed');
    await waitForStrip(a1, []);
  });

  it('a working one asks first, in a shell tab as in an agent tab', async () => {
    const { a1, fake, shell } = await agentInEachKindOfTab();
    a1.write('/work\r');
    await waitForAgentState([shell], 'working');
    expect(await closeViewed(a1, 'agent', shell)).toBe('asked');
    a1.write('\x1b');
    await a1.waitForScreen((lines) => !lines.some((l) => l.includes('Stop "agent"?')), undefined, 'the question gone');
    a1.write(KEY.jump1);
    await waitForStrip(a1, ['fake', 'agent'], 'fake');
    a1.write('/work\r');
    await waitForAgentState([fake], 'working');
    expect(await closeViewed(a1, 'fake', fake)).toBe('asked');
    a1.write('\r');
    await waitForStrip(a1, ['agent']);
    expect(tabNames(await listing(t))).toEqual(['agent']);
  });
});
