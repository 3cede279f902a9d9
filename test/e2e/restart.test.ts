// Child restart (SPEC §10, §15 "Exit, crash, restart"): the holder restarts a crashed child with
// backoff and resumes an agent's session; the third crash in the window fails the tab, whose
// surface offers retry, start fresh and close; a clean exit stays exited, offers restart, and
// leaves the last screen in an owner-only recovery file.
import fs from 'node:fs';
import { describe, it, expect, afterEach } from 'vitest';
import { e2e, KEY, listing, probeViewed, PROMPT_SEEN, readStrip, waitForChildSize, waitForListing, waitForStrip, type E2E } from './harness.js';
import {
  agentStartOf,
  agentStarts,
  agentTranscript,
  FAILED_NOTICE,
  listedTab,
  recoveryFilesOf,
  sessionsOf,
  useFakeAgent,
  waitForDoneReports,
  waitForNewChild,
  waitForStatus,
  viewedAgentTab,
} from './lifecycleHarness.js';
import { DEFAULT_COLS, type PtyDriver } from '../helpers/pty.js';
import { waitFor } from '../helpers/wait.js';

const FAILED_ACTIONS = '[r] retry  [f] start fresh  [alt+w] close';
const EXITED = 'exited with status 0 · read-only';
const EXITED_ACTIONS = '[r] restart  [alt+w] close';
/** Owner read and write only: the file holds terminal content. */
const OWNER_ONLY = 0o600;

let t: E2E;
afterEach(async () => {
  await t?.teardown();
});

/** Creates an agent tab running the fake agent, attaches and waits until it holds its session. */
async function agentTab(name: string): Promise<{ a1: PtyDriver; id: string; dir: string; sessionId: string }> {
  const dir = useFakeAgent(t);
  const { a1, id, session } = await viewedAgentTab(t, name);
  expect(session.record).toBe('live');
  return { a1, id, dir, sessionId: session.sessionId };
}

/** Types a prompt to the fake agent of `sessionId` and waits for its whole reply, numbered `turn`,
 * and until a1 has its `done` report: the turn is settled, nothing is left to offer back. */
async function ask(a1: PtyDriver, dir: string, sessionId: string, prompt: string, turn: number): Promise<void> {
  a1.write(`${prompt}\r`);
  await a1.waitForText(`reply ${turn} to: ${prompt}`);
  await waitForDoneReports(dir, sessionId, turn);
}

/** SIGKILLs the tab's child (by the pid the listing gives) and returns that pid. */
async function killChild(id: string): Promise<number> {
  const pid = listedTab(await listing(t), id).childPid;
  if (pid === null) throw new Error(`tab ${id} has no child to kill`);
  process.kill(pid, 'SIGKILL');
  return pid;
}

/** Kills the child three times, each after the previous restart has started the fake agent in
 * `dir` (killed any sooner, it would record no start); the third leaves the tab failed. */
async function crashThrice(a1: PtyDriver, id: string, dir: string): Promise<number> {
  for (let n = 1; n <= 2; n++) {
    const killed = await killChild(id);
    const pid = await waitForNewChild(t, id, killed);
    await waitFor(() => agentStartOf(dir, pid), { what: `the restarted agent ${pid} recording its start` });
  }
  const last = await killChild(id);
  await waitForStatus(t, id, 'failed');
  await a1.waitForText(FAILED_NOTICE);
  await a1.waitForText(FAILED_ACTIONS);
  return last;
}

/** Waits until the tab has exactly one recovery file, and gives its path. */
async function oneRecoveryFile(id: string): Promise<string> {
  const [file] = await waitFor(() => {
    const files = recoveryFilesOf(t, id);
    return files.length === 1 ? files : null;
  }, { what: `one recovery file for tab ${id}` });
  return file;
}

/** The failed or exited notice sits at the top right of the surface, just under the strip. */
async function expectTopRight(a1: PtyDriver, texts: readonly string[]): Promise<void> {
  await a1.flush();
  const rows = a1.screenText();
  for (const text of texts) {
    const y = rows.findIndex((row) => row.includes(text));
    expect(y, `row of "${text}"`).toBeGreaterThan(0);
    expect(y, `row of "${text}"`).toBeLessThanOrEqual(texts.length + 1);
    // Right of the middle and last on its row: the notice is right-aligned over the surface.
    expect(rows[y].trimEnd().endsWith(text), `"${rows[y]}" ends with "${text}"`).toBe(true);
    expect(rows[y].lastIndexOf(text), `column of "${text}"`).toBeGreaterThan(DEFAULT_COLS / 2);
  }
}

describe('child restart', () => {
  it('three crashes fail the tab; r retries (resuming), f starts fresh, alt+w closes', async () => {
    t = e2e({ closeGraceMs: 300 });
    const { a1, id, dir, sessionId } = await agentTab('crashy');
    await ask(a1, dir, sessionId, 'first', 1);

    const firstFailure = await crashThrice(a1, id, dir);
    await expectTopRight(a1, [FAILED_NOTICE, FAILED_ACTIONS]);
    const starts = agentStarts(dir, sessionId);
    // The first start, then two automatic restarts that resumed the session.
    expect(starts.map((s) => s.resumed)).toEqual([false, true, true]);

    a1.write('r');
    await waitForNewChild(t, id, firstFailure);
    await a1.waitForScreen((rows) => !rows.some((row) => row.includes(FAILED_NOTICE)), undefined, 'the failed notice gone');
    const retried = await waitFor(() => agentStarts(dir, sessionId)[3], { what: 'a fourth start of the session' });
    expect(retried).toMatchObject({ resumed: true });
    expect(retried.argv).toEqual(expect.arrayContaining(['--resume', sessionId]));
    await ask(a1, dir, sessionId, 'after retry', 2);

    const secondFailure = await crashThrice(a1, id, dir);
    a1.write('f');
    const fresh = await waitForNewChild(t, id, secondFailure);
    await a1.waitForScreen((rows) => !rows.some((row) => row.includes(FAILED_NOTICE)), undefined, 'the failed notice gone');
    const freshSession = await waitFor(async () => {
      const held = (await sessionsOf(t)).find((s) => s.tabId === id);
      return held && held.sessionId !== sessionId ? held.sessionId : null;
    }, { what: 'the tab holding a new session after f' });
    expect(agentStarts(dir, freshSession)).toEqual([expect.objectContaining({ pid: fresh, resumed: false })]);
    expect(agentStarts(dir, sessionId)).toHaveLength(6);
    await ask(a1, dir, freshSession, 'after fresh', 1);

    await crashThrice(a1, id, dir);
    a1.write(KEY.closeTab);
    const outcome = await waitFor(async () => {
      const strip = await readStrip(a1);
      if (strip.names.length === 0) return 'closed';
      return a1.screenText().some((l) => l.includes('Stop "crashy"?')) ? 'asked' : null;
    }, { what: 'the tab closed, or the close confirmation' });
    if (outcome === 'asked') a1.write('\r');
    await waitForStrip(a1, []);
    expect((await listing(t)).tabs).toEqual([]);
  });

  it('an agent that crashes is resumed with its session; no transcript line is lost and no prompt resent', async () => {
    t = e2e({ closeGraceMs: 300 });
    const { a1, id, dir, sessionId } = await agentTab('resumer');
    await ask(a1, dir, sessionId, 'remember this', 1);
    const before = await waitFor(() => {
      const lines = agentTranscript(dir, sessionId);
      return lines.length === 2 ? lines : null;
    }, { what: 'the first turn in the transcript' });

    const killed = await killChild(id);
    const restarted = await waitForNewChild(t, id, killed);
    const starts = await waitFor(() => {
      const s = agentStarts(dir, sessionId);
      return s.length === 2 ? s : null;
    }, { what: 'a second start of the session' });
    expect(starts[1]).toMatchObject({ pid: restarted, resumed: true, argv: ['--resume', sessionId] });
    // The resumed agent shows its history, then a new prompt.
    await a1.waitForText(`fake-agent session ${sessionId} (resumed)`);
    expect(agentTranscript(dir, sessionId)).toEqual(before);

    // A new turn lands right after the first: the first prompt was not sent again.
    await ask(a1, dir, sessionId, 'and this', 2);
    const after = await waitFor(() => {
      const lines = agentTranscript(dir, sessionId);
      return lines.length >= 4 ? lines : null;
    }, { what: 'the second turn in the transcript' });
    expect(after).toEqual([
      { role: 'user', text: 'remember this' },
      { role: 'agent', text: 'reply 1 to: remember this' },
      { role: 'user', text: 'and this' },
      { role: 'agent', text: 'reply 2 to: and this' },
    ]);
  });

  it("a crashed child restarts at the view's size into a clean screen, and its last screen is kept", async () => {
    t = e2e();
    // An agent tab: only an agent is restarted after it crashes (issue 28).
    const made = await t.run('new', '--agent', 'generic', '--', '/bin/bash', '--norc', '--noprofile');
    expect(made.code, made.stderr).toBe(0);
    const a1 = t.attach();
    await a1.waitForText(PROMPT_SEEN);
    const id = (await waitForListing(t, ['agent'])).tabs[0].id;
    // The view is no longer the tab's first 120x40: the child must restart at the size it has now.
    a1.resize(100, 30);
    await waitForChildSize(a1, '29 100');
    a1.write('echo before-$((6*7))\r');
    await a1.waitForText('before-42');
    const killed = await killChild(id);
    await waitForNewChild(t, id, killed);
    // A restarted child sees what a fresh tab's child sees: an empty screen, not the old one.
    await a1.waitForScreen((rows) => !rows.some((row) => row.includes('before-42')) && rows.some((row) => row.includes(PROMPT_SEEN)), undefined, 'the restarted shell on a clean screen');
    a1.write('stty size\r');
    await a1.waitForScreen((rows) => rows.filter((row) => row.trim() === '29 100').length === 1, undefined, 'the restarted child at 100x29');
    // Every child death leaves the owner-only last-screen file (SPEC §7), a restarted crash too.
    const file = await oneRecoveryFile(id);
    expect(fs.statSync(file).mode & 0o777).toBe(OWNER_ONLY);
    expect(fs.readFileSync(file, 'utf8').split('\n')).toContain('before-42');
  });

  it('exit 0 leaves an agent tab exited with [r] restart and an owner-only recovery file; r starts it again', async () => {
    t = e2e({ closeGraceMs: 300 });
    // An agent tab: a plain shell tab that exits 0 closes instead (issue 18, test/e2e/shellExit.test.ts).
    const made = await t.run('new', '--agent', 'generic', '--', '/bin/bash', '--norc', '--noprofile');
    expect(made.code, made.stderr).toBe(0);
    const a1 = t.attach();
    await a1.waitForText(PROMPT_SEEN);
    const id = (await waitForListing(t, ['agent'])).tabs[0].id;
    const first = listedTab(await listing(t), id).childPid;
    a1.write('echo last-words-$((6*7)); exit 0\r');
    await a1.waitForText(EXITED);
    await a1.waitForText(EXITED_ACTIONS);
    await expectTopRight(a1, [EXITED, EXITED_ACTIONS]);
    // The last screen stays visible under the notice (which may share its row).
    expect(a1.screenText().some((row) => row.startsWith('last-words-42'))).toBe(true);

    const file = await oneRecoveryFile(id);
    expect(fs.statSync(file).mode & 0o777).toBe(OWNER_ONLY);
    expect(fs.readFileSync(file, 'utf8').split('\n')).toContain('last-words-42');
    // Never restarted automatically.
    expect(listedTab(await listing(t), id)).toMatchObject({ status: 'exited', childPid: null });

    a1.write('r');
    const again = await waitForNewChild(t, id, first);
    await a1.waitForScreen((rows) => !rows.some((row) => row.includes(EXITED)), undefined, 'the exited notice gone');
    await probeViewed(a1, id);
    expect(listedTab(await listing(t), id)).toMatchObject({ status: 'running', childPid: again });
  });
});

describe('crash mid-stream', () => {
  it('kill -9 of a child while it prints: its recovery file holds the streamed text up to its last line', async () => {
    t = e2e();
    const count = `${t.home.dir}/count`;
    const script = `i=0; while :; do i=$((i+1)); echo stream-$i; echo $i > '${count}'; done`;
    const made = await t.run('new', '--name', 'stream', '--', '/bin/sh', '-c', script);
    expect(made.code, made.stderr).toBe(0);
    const id = made.stdout.trim();
    const printed = () => Number(fs.existsSync(count) ? fs.readFileSync(count, 'utf8').trim() || 0 : 0);
    await waitFor(() => printed() >= 500, { what: 'the stream well under way' });
    // Every line counted before the kill was written to the PTY before it was counted.
    const atLeast = printed();
    await killChild(id);
    const file = await oneRecoveryFile(id);
    expect(fs.statSync(file).mode & 0o777).toBe(OWNER_ONLY);
    const numbers = fs
      .readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((line) => /^stream-(\d+)$/.exec(line)?.slice(1) ?? [])
      .map(Number);
    expect(numbers.length).toBeGreaterThan(10);
    // Consecutive (nothing lost in the middle) and up to the last line printed before the kill.
    expect(numbers.every((n, i) => i === 0 || n === numbers[i - 1] + 1), JSON.stringify(numbers.slice(-5))).toBe(true);
    expect(numbers[numbers.length - 1]).toBeGreaterThanOrEqual(atLeast);
  });
});
