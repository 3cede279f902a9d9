// What a program's end does to its tab (issue 28, SPEC §15 "Exit, crash, restart"), as tmux and
// zellij users expect: a shell tab closes when its shell ends, whatever its status; a command tab
// (`a1 new -- CMD`) stays as it ended, says how, and `r` runs it again, never by itself and never
// as a crash; only an agent crashes (restarted within the budget), unless its person ended it
// with Ctrl+C. The last tab closed leaves the empty strip and no dead panel.
import fs from 'node:fs';
import path from 'node:path';
import { describe, it, expect, afterEach } from 'vitest';
import { e2e, KEY, listing, PROMPT_SEEN, waitForListing, waitForStrip, type E2E } from './harness.js';
import { agentStarts, FAILED_NOTICE, listedTab, newAgentTab, useFakeAgent, viewedAgentTab, waitForNewChild, waitForStatus, waitForTabSession } from './lifecycleHarness.js';
import { waitFor } from '../helpers/wait.js';
import { A1_BIN } from '../helpers/pty.js';

let t: E2E;
afterEach(async () => {
  await t?.teardown();
});

const RUN_AGAIN = '[r] run again  [alt+w] close';

/** The crash records of tabs' programs (`a1 tabs host status`). */
async function childExitRecords(): Promise<unknown[]> {
  const r = await t.run('tabs', 'host', 'status', '--json');
  expect(r.code, r.stderr).toBe(0);
  const s = JSON.parse(r.stdout) as { crashes: { reason: string }[]; programExits: { reason: string }[] };
  return [...s.crashes, ...s.programExits].filter((c) => c.reason === 'child-exit');
}

async function newTab(...args: string[]): Promise<string> {
  const made = await t.run('new', ...args);
  expect(made.code, made.stderr).toBe(0);
  return made.stdout.trim();
}

/** The lines a command appended to `file` (one per run). */
const runsIn = (file: string): string[] => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter(Boolean) : []);

describe('a shell tab', () => {
  it('closes at one `exit` after a failing command (status 1), and when its shell is killed; no crash record', async () => {
    t = e2e({ closeGraceMs: 300 });
    const a1 = t.attach();
    await a1.waitForText(PROMPT_SEEN);
    await waitForListing(t, ['agent']);
    const second = await newTab('--name', 'second');
    const third = await newTab('--name', 'third');
    await waitForStrip(a1, ['agent', 'second', 'third'], 'agent');

    a1.write('false\r');
    a1.write('exit\r');
    await waitForStrip(a1, ['second', 'third']);
    expect((await listing(t)).tabs.map((x) => x.name)).toEqual(['second', 'third']);

    // A shell killed from outside is a shell that ended: its tab closes too.
    const shell = await waitFor(async () => listedTab(await listing(t), third).childPid, { what: 'the third tab running its shell' });
    process.kill(shell, 'SIGKILL');
    await waitForStrip(a1, ['second']);
    expect((await listing(t)).tabs.map((x) => x.id)).toEqual([second]);
    expect(await childExitRecords()).toEqual([]);
  });

  it('closes at `exit` after an agent typed at its shell reported over the bridge: the agent was its guest', async () => {
    t = e2e({ closeGraceMs: 300 });
    t.env.A1_BIN = A1_BIN;
    const a1 = t.attach();
    await a1.waitForText(PROMPT_SEEN);
    const [{ id }] = (await waitForListing(t, ['agent'])).tabs;
    const other = await newTab('--name', 'other');
    // What a hook of Claude Code typed at this shell would send.
    a1.write('"$A1_BIN" status working\r');
    await waitFor(async () => listedTab(await listing(t), id).glyph === 'working', { what: 'the guest agent reported' });
    a1.write('false\r');
    a1.write('exit\r');
    await waitFor(async () => (await listing(t)).tabs.map((x) => x.id).join() === other, { what: 'the shell tab closed' });
    expect(await childExitRecords()).toEqual([]);
  });

  it('the last one closed leaves the empty strip and no dead panel; Alt+A opens a tab', async () => {
    t = e2e({ closeGraceMs: 300 });
    const a1 = t.attach();
    await a1.waitForText(PROMPT_SEEN);
    await waitForListing(t, ['agent']);
    a1.write('exit\r');
    await waitForStrip(a1, []);
    await a1.waitForText('no tabs');
    await a1.flush();
    expect(a1.line(0)).toMatch(/^ ?\+ +no tabs/);
    // Nothing of the closed tab is left under the strip: no exited notice, no keys that do nothing.
    const below = a1.screenText().slice(1);
    expect(below.filter((row) => row.trim() !== ''), below.join('\n')).toEqual([]);

    a1.write(KEY.newTab);
    await waitForStrip(a1, ['agent'], 'agent');
    await a1.waitForText(PROMPT_SEEN);
    expect((await listing(t)).tabs).toHaveLength(1);
  });
});

describe('a command tab', () => {
  it('Ctrl+C leaves it exited, saying so, however often; r runs it again; never failed', async () => {
    // Ctrl+C twice within this interval would detach the client; the presses here are further apart.
    t = e2e({ detachIntervalMs: 100 });
    const id = await newTab('--name', 'sleeper', '--', 'sleep 300');
    const a1 = t.attach();
    await waitForStrip(a1, ['sleeper'], 'sleeper');
    let pid = await waitFor(async () => listedTab(await listing(t), id).childPid, { what: 'sleep running' });
    for (let n = 1; n <= 3; n++) {
      a1.write('\x03');
      await a1.waitForText('exited: ended by signal SIGINT · read-only');
      await a1.waitForText(RUN_AGAIN);
      expect(listedTab(await listing(t), id)).toMatchObject({ status: 'exited', childPid: null });
      expect(a1.screenText().some((row) => row.includes('failed'))).toBe(false);
      a1.write('r');
      pid = await waitForNewChild(t, id, pid);
      await a1.waitForScreen((rows) => !rows.some((row) => row.includes('exited:')), undefined, 'the exited notice gone');
    }
    expect(listedTab(await listing(t), id).status).toBe('running');
    expect(await childExitRecords()).toEqual([]);
  });

  it('a failing command runs once and stays exited with its status; r runs it once more', async () => {
    t = e2e();
    const runs = path.join(t.home.dir, 'runs');
    const id = await newTab('--name', 'tests', '--', `echo ran >> '${runs}'; echo failing-$((6*7)); exit 3`);
    const a1 = t.attach();
    await waitForStrip(a1, ['tests'], 'tests');
    await a1.waitForText('exited with status 3 · read-only');
    await a1.waitForText(RUN_AGAIN);
    expect(a1.screenText().some((row) => row.startsWith('failing-42'))).toBe(true);
    expect(listedTab(await listing(t), id)).toMatchObject({ status: 'exited', childPid: null });
    expect(runsIn(runs)).toEqual(['ran']);
    expect(await childExitRecords()).toEqual([]);

    a1.write('r');
    await waitFor(() => runsIn(runs).length === 2, { what: 'the second run' });
    await waitFor(async () => {
      const tab = listedTab(await listing(t), id);
      return tab.status === 'exited' && tab.childPid === null;
    }, { what: 'the second run exited' });
    await a1.waitForText('exited with status 3 · read-only');
    expect(runsIn(runs)).toEqual(['ran', 'ran']);
  });
});

describe('an agent tab', () => {
  it('ended by Ctrl+C at its idle prompt stays exited, not restarted, with no crash record', async () => {
    t = e2e();
    const dir = useFakeAgent(t);
    // Typed with `a1 send`, as its controller would: no client controls the tab yet.
    const id = await newAgentTab(t, 'helper');
    const session = await waitForTabSession(t, id);
    // The fake agent exits 130 at the second Ctrl+C at its prompt, as a program a shell ran would.
    for (let n = 0; n < 2; n++) {
      const sent = await t.run('send', id, 'C-c');
      expect(sent.code, sent.stderr).toBe(0);
    }
    await waitForStatus(t, id, 'exited');
    const a1 = t.attach();
    await a1.waitForText('exited with status 130 · read-only');
    await a1.waitForText('[r] restart  [alt+w] close');
    expect(agentStarts(dir, session.sessionId)).toHaveLength(1);
    expect(await childExitRecords()).toEqual([]);
  });

  it('killed from outside (SIGINT with no key, or SIGKILL) is a crash: restarted, the third fails the tab', async () => {
    t = e2e();
    useFakeAgent(t);
    const { a1, id } = await viewedAgentTab(t, 'victim');
    let pid = listedTab(await listing(t), id).childPid!;
    for (const signal of ['SIGKILL', 'SIGINT'] as const) {
      process.kill(pid, signal);
      pid = await waitForNewChild(t, id, pid);
      await waitForStatus(t, id, 'running');
    }
    process.kill(pid, 'SIGKILL');
    await waitForStatus(t, id, 'failed');
    await a1.waitForText(FAILED_NOTICE);
    expect(await childExitRecords()).toHaveLength(3);
  });
});
