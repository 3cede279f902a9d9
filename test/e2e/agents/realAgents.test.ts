// The real Claude Code 2.1.328 and Codex 0.169.0 (test/agents) in a1 tabs, on loopback mock
// models: every status transition a person sees on the chip and a script reads in
// `a1 tabs --json` (issue 14), the same scenarios for both agents, each with its own keys and words.
import fs from 'node:fs';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PtyDriver } from '../../helpers/pty.js';
import { isAlive } from '../../helpers/procs.js';
import { waitFor } from '../../helpers/wait.js';
import { hostStop, KEY, PROMPT_SEEN } from '../harness.js';
import { agentBin, type AgentName } from '../../agents/rig.js';
import {
  AGENT_WAIT_MS,
  conversationSaved,
  agentWorld,
  chipGlyph,
  ensureAgents,
  INSTALL_TIMEOUT_MS,
  newAgentTab,
  ran,
  submit,
  tabEntry,
  tabPids,
  visibleRows,
  waitForEntry,
  waitForGlyph,
  waitForSettled,
  waitForStill,
  watchGlyphs,
  type AgentWorld,
} from './agentHarness.js';

/** The client's notice when a restarted agent got back the prompt its predecessor lost. */
const PROMPT_OFFERED = 'the last prompt had no reply; it is back in the input, not sent';
const ESC = '\x1b';
const CTRL_C = '\x03';
const UP = '\x1b[A';
const DOWN = '\x1b[B';

/** What differs between the agents, as a person meets it. */
interface Profile {
  kind: AgentName;
  /** Shown at an empty prompt that takes keys. */
  ready: string;
  /** Shown while the permission dialog waits. */
  dialog: string;
  /** How an answer line starts. */
  answer: string;
  /** Shown after a turn was interrupted. */
  interrupted: string;
  /** The key that approves the dialog's first option. */
  approve: string;
  /** Every way the agent offers to deny: keys, and a name for them. */
  denials: [string, string][];
  /** The agent reports its session as soon as it starts (Codex: at its first prompt). */
  reportsAtStart: boolean;
  /** Argv that resumes `sessionId` directly, as the tab's resume does. */
  resume(sessionId: string): string[];
}

const CLAUDE: Profile = {
  kind: 'claude',
  ready: '? for shortcuts',
  dialog: 'Do you want to proceed?',
  answer: '● ',
  interrupted: 'Interrupted',
  approve: '1',
  denials: [
    ['4', 'by 4 (No)'],
    [ESC, 'by Esc'],
    [`${UP}\r`, 'by Up to No, then Enter'],
    [`${DOWN}${DOWN}${DOWN}\r`, 'by Down to No, then Enter'],
  ],
  reportsAtStart: true,
  resume: (id) => [agentBin('claude'), '--resume', id],
};

const CODEX: Profile = {
  kind: 'codex',
  ready: 'Ask Codex to do anything',
  dialog: 'Would you like to run the following command?',
  answer: '• ',
  interrupted: 'Conversation interrupted',
  approve: 'y',
  denials: [
    ['3', 'by 3 (No)'],
    ['n', 'by n'],
    [ESC, 'by Esc'],
    [CTRL_C, 'by Ctrl+C'],
    [`${UP}\r`, 'by Up to No, then Enter'],
    ['jj\r', 'by j j to No, then Enter'],
  ],
  reportsAtStart: false,
  resume: (id) => [agentBin('codex'), 'resume', id, '--no-daemon'],
};

let w: AgentWorld | null = null;
afterEach(async () => {
  await w?.teardown();
  w = null;
});
beforeAll(() => ensureAgents(), INSTALL_TIMEOUT_MS);

function commandOf(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
  } catch {
    return '';
  }
}

/** The command line of a listed tab's child once it runs its own program: the holder reports the
 * child's pid at its fork, so for a moment the pid may still run the holder's image. */
function childCommand(e: { childPid: number | null; holderPid: number | null }): Promise<string> {
  return waitFor(() => {
    const command = commandOf(e.childPid!);
    return command !== '' && command !== commandOf(e.holderPid!) ? command : null;
  }, { what: `child ${e.childPid} running its own program` });
}

describe.each([CLAUDE, CODEX])('$kind in a tab', (p) => {
  const atPrompt = (a1: PtyDriver) => a1.waitForText(p.ready, AGENT_WAIT_MS);

  /** The permission dialog is open, and drawn (Claude ignores keys for ~150 ms after it appears). */
  async function atDialog(a1: PtyDriver): Promise<void> {
    await a1.waitForText(p.dialog, AGENT_WAIT_MS);
    await waitForStill(a1);
  }

  /** The agent at its prompt with the answer `words` on the screen, done loading its session. */
  const repainted = (words: string) => (rows: string[]) =>
    rows.some((r) => r.includes(`${p.answer}${words}`)) && rows.some((r) => r.includes(p.ready)) && !rows.some((r) => r.includes('Resuming session'));

  /** A turn, answered and over, in the viewed tab `id`: the agent has reported it idle (and its
   * session) by then. */
  async function turn(a1: PtyDriver, words: string, id: string): Promise<void> {
    await submit(a1, `say ${words}`);
    await a1.waitForText(`${p.answer}${words}`, AGENT_WAIT_MS);
    await atPrompt(a1);
    await waitForEntry(w!.t, id, (e) => e.agent?.state === 'idle' && e.glyph === 'none', `the turn "${words}" over`);
  }

  /** An agent tab `ag` (and, with `shell`, a shell tab `sh` after it), viewed by a new client. */
  async function agentTab(opts: { shell?: boolean } = {}): Promise<{ a1: PtyDriver; id: string; shId: string | null }> {
    w = await agentWorld();
    const id = await newAgentTab(w, p.kind, 'ag');
    const shId = opts.shell ? (await w.t.run('new', '--name', 'sh')).stdout.trim() : null;
    const a1 = w.t.attach();
    await atPrompt(a1);
    if (p.reportsAtStart) await waitForEntry(w.t, id, (e) => e.agent?.state === 'idle', 'the agent idle after it started');
    return { a1, id, shId };
  }

  it('starts idle; a viewed turn works and ends idle with no ✓, with its session id', async () => {
    const { a1, id } = await agentTab();
    expect(await tabEntry(w!.t, id)).toMatchObject({ status: 'running', glyph: 'none', attention: null, agent: { kind: p.kind, state: p.reportsAtStart ? 'idle' : null } });
    expect(await chipGlyph(a1, 'ag')).toBe('none');

    await submit(a1, 'slow 3');
    const seen = await watchGlyphs(a1, 'ag', (s) => s.includes('spinning') && s[s.length - 1] === 'none');
    expect(seen).not.toContain('done');
    await a1.waitForText('word30');
    const after = await waitForEntry(w!.t, id, (e) => e.agent?.state === 'idle', 'the agent idle after the turn');
    expect(after).toMatchObject({ glyph: 'none', attention: null });
    expect(after.agent?.sessionId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('a turn that finishes in the background shows ✓ (only once it ended) until any terminal views the tab', async () => {
    const { a1, id, shId } = await agentTab({ shell: true });
    // Another terminal, viewing the shell tab.
    const other = w!.t.attach();
    await atPrompt(other);
    other.write(KEY.nextTab);
    await other.waitForText(PROMPT_SEEN);
    expect((await tabEntry(w!.t, shId!)).name).toBe('sh');
    await submit(a1, 'slow 3');
    await waitForGlyph(a1, 'ag', 'spinning');
    a1.write(KEY.nextTab);
    await waitForGlyph(a1, 'ag', 'done');
    const doneAt = Date.now();
    // Codex also reports a finished turn for the side thread that titles the conversation, about
    // a second into the turn: ✓ must wait for the answer itself.
    const ended = w!.mock.requests().find((r) => r.api === 'ended' && r.scenario === 'slow' && !r.closed);
    expect(ended, 'the answer sent whole before ✓ showed').toBeDefined();
    expect(ended!.at).toBeLessThanOrEqual(doneAt);
    await waitForGlyph(other, 'ag', 'done');
    expect(await tabEntry(w!.t, id)).toMatchObject({ glyph: 'done', attention: 'done', agent: { state: 'done' } });
    a1.write(KEY.prevTab);
    await waitForGlyph(a1, 'ag', 'none');
    await waitForGlyph(other, 'ag', 'none');
    expect(await tabEntry(w!.t, id)).toMatchObject({ glyph: 'none', attention: null, agent: { state: 'idle' } });
  });

  it('a tool that needs approval in the background shows ?; approving runs it and ends idle', async () => {
    const { a1, id } = await agentTab({ shell: true });
    await submit(a1, 'run touch approved.txt');
    a1.write(KEY.nextTab);
    await waitForGlyph(a1, 'ag', 'needs-input');
    expect(await tabEntry(w!.t, id)).toMatchObject({ glyph: 'needs-input', attention: 'needs-input', agent: { state: 'needs-input' } });
    a1.write(KEY.prevTab);
    await atDialog(a1);
    expect(await chipGlyph(a1, 'ag')).toBe('needs-input');
    a1.write(p.approve);
    await waitFor(() => ran(w!, 'approved.txt'), { timeoutMs: AGENT_WAIT_MS, what: 'the approved tool to run' });
    await a1.waitForText(`${p.answer}ran touch approved.txt`, AGENT_WAIT_MS);
    await waitForGlyph(a1, 'ag', 'none');
    expect(await tabEntry(w!.t, id)).toMatchObject({ glyph: 'none', attention: null, agent: { state: 'idle' } });
  });

  it('every way to deny a permission ends idle, and the tool never runs', async () => {
    const { a1, id } = await agentTab();
    for (const [i, [keys, how]] of p.denials.entries()) {
      await submit(a1, `run touch denied${i}.txt`);
      await atDialog(a1);
      await waitForGlyph(a1, 'ag', 'needs-input', { what: `? before the denial ${how}` });
      for (const key of keys.match(/\x1b\[[AB]|./gs)!) {
        a1.write(key);
        if (key !== '\r') await waitForStill(a1, 300);
      }
      await waitForGlyph(a1, 'ag', 'none', { what: `the chip idle after a denial ${how}` });
      await atPrompt(a1);
      expect((await tabEntry(w!.t, id)).agent?.state, how).toBe('idle');
      expect(ran(w!, `denied${i}.txt`), how).toBe(false);
    }
  });

  it('Esc or Ctrl+C during a turn interrupts it: idle, with no ✓', async () => {
    const { a1, id } = await agentTab();
    for (const key of [ESC, CTRL_C]) {
      await submit(a1, 'slow 20');
      await waitForGlyph(a1, 'ag', 'spinning');
      await a1.waitForText('word3 ');
      a1.write(key);
      await waitForGlyph(a1, 'ag', 'none');
      await a1.waitForText(p.interrupted);
      expect((await tabEntry(w!.t, id)).agent?.state).toBe('idle');
      await atPrompt(a1);
    }
  });

  it('Alt+W on a working agent asks before it stops anything', async () => {
    const { a1, id } = await agentTab();
    await submit(a1, 'slow 20');
    await waitForGlyph(a1, 'ag', 'spinning');
    a1.write(KEY.closeTab);
    await a1.waitForText('Stop "ag"? Enter stop · Esc cancel');
    a1.write(ESC);
    await waitFor(async () => !(await a1.flush(), a1.screenText().some((l) => l.includes('Stop "ag"?'))), { what: 'the question gone' });
    expect(await tabEntry(w!.t, id)).toMatchObject({ status: 'running', agent: { state: 'working' } });
  });

  it('an API error shows ✗', async () => {
    const { a1, id } = await agentTab();
    await submit(a1, 'fail');
    await waitForGlyph(a1, 'ag', 'error');
    expect(await tabEntry(w!.t, id)).toMatchObject({ glyph: 'error', attention: 'error', agent: { state: 'error' } });
  });

  it('kill -9 of the agent restarts it on the same session, its conversation repainted as a direct restart paints it', async () => {
    const { a1, id } = await agentTab();
    await turn(a1, 'remember the walrus', id);
    const before = await waitForEntry(w!.t, id, (e) => e.agent?.state === 'idle', 'the turn over');
    const sessionId = before.agent!.sessionId!;
    await waitFor(() => conversationSaved(w!, sessionId, 'remember the walrus'), { timeoutMs: AGENT_WAIT_MS, what: 'the agent to save its turn' });
    process.kill(before.childPid!, 'SIGKILL');
    const after = await waitForEntry(w!.t, id, (e) => e.childPid !== before.childPid && e.status === 'running', 'the agent restarted');
    expect(await childCommand(after)).toContain(sessionId);
    await waitForSettled(a1, repainted('remember the walrus'), 'the conversation repainted after the restart');
    const inTab = { text: a1.screenText().slice(1), cells: visibleRows(a1, 1) };
    // The next turn is the same session's.
    await turn(a1, 'and again', id);
    expect((await tabEntry(w!.t, id)).agent?.sessionId).toBe(sessionId);
    // Codex will not open a conversation another live Codex holds ("open in another app").
    expect((await w!.t.run('tabs', 'stop', id)).code).toBe(0);
    await waitFor(() => tabPids(id).length === 0, { what: 'the tab closed before the direct run' });

    // The same crash and restart, run directly at the tab's size, in the same directory and
    // environment: an agent remembers an unfinished start (Claude's fullscreen renderer then falls
    // back to the classic one), so the direct run is killed once too before it is compared.
    // The holder gives its child TERM of its own and the client's COLORTERM (SPEC §15); so does this run.
    const env = { ...w!.t.env, TERM: 'xterm-256color' };
    const direct = (): PtyDriver => new PtyDriver({ argv: p.resume(sessionId), env, cwd: w!.agent.work, cols: 120, rows: 39 });
    const crashed = direct();
    try {
      await crashed.waitForText(p.ready, AGENT_WAIT_MS);
      process.kill(crashed.pid, 'SIGKILL');
      await crashed.exited;
    } finally {
      crashed.dispose();
    }
    const restarted = direct();
    try {
      await waitForSettled(restarted, repainted('and again'), 'the direct restart painted');
      // The restart in the tab drew what a direct one draws, cell by cell with its colours, from
      // the agent's banner (above it Claude counts its own crashes) to the repainted answer.
      // Claude Code draws its 3-row logo banner in one of two forms by its own memory of earlier
      // starts (seen to differ between two equal restarts): its words are compared, and every row
      // after it cell by cell.
      const bannerRows = p.kind === 'claude' ? 3 : 0;
      const shown = (screen: { text: string[]; cells: string[] }) => {
        const from = screen.text.findIndex((r) => /Claude Code v|OpenAI Codex/.test(r));
        const to = screen.text.findIndex((r) => r.includes(`${p.answer}remember the walrus`)) + 1;
        const words = screen.text.slice(from, from + bannerRows).map((r) => r.replace(/[^\x21-\x7e]+/g, ' ').trim());
        return { words, cells: screen.cells.slice(from + bannerRows, to) };
      };
      const tabView = shown(inTab);
      expect(tabView.cells.length, inTab.text.join('\n')).toBeGreaterThan(3);
      expect(tabView).toEqual(shown({ text: restarted.screenText(), cells: visibleRows(restarted, 0) }));
    } finally {
      restarted.dispose();
    }
  });

  it('kill -9 mid-turn: the restarted agent has the prompt back in its input, not sent, until Enter', async () => {
    const { a1, id } = await agentTab();
    // Long enough that a1 hears of the turn (the agent's hooks report it) before it ends, even on
    // a loaded machine: a turn a1 never heard of is not offered back (src/holder/pendingPrompt.ts).
    const prompt = 'slow 20';
    const sentTimes = () => w!.mock.requests().filter((r) => r.main && r.prompt === prompt).length;
    const before = await tabEntry(w!.t, id);
    await submit(a1, prompt);
    await a1.waitForText('word3', AGENT_WAIT_MS);
    await waitForEntry(w!.t, id, (e) => e.agent?.state === 'working' && !!e.agent.sessionId, 'a1 told of the running turn and its session');
    process.kill(before.childPid!, 'SIGKILL');
    await waitForEntry(w!.t, id, (e) => e.childPid !== before.childPid && e.status === 'running', 'the agent restarted');
    await a1.waitForText(PROMPT_OFFERED, AGENT_WAIT_MS);
    // The conversation's prompt and the input's: two rows end with it (after the agent's prompt
    // mark and a space, Claude's a no-break one), and the empty-input hint is gone.
    const showsPrompt = (row: string) => {
      const shown = row.trimEnd();
      return shown.endsWith(prompt) && /\s$/.test(shown.slice(0, -prompt.length));
    };
    await waitForSettled(a1, (rows) => rows.filter(showsPrompt).length === 2 && !rows.some((r) => r.includes(p.ready)), 'the prompt back in the input');
    expect(sentTimes()).toBe(1);
    a1.write('\r');
    await waitFor(() => sentTimes() === 2, { timeoutMs: AGENT_WAIT_MS, what: 'the prompt sent once more, by Enter' });
  });

  it('a tab nobody typed into comes back running after the host stops: its agent saved no session, so nothing is resumed', async () => {
    const { a1, id } = await agentTab();
    const started = await tabEntry(w!.t, id);
    // Claude Code names a session at its start but saves it with the first prompt; Codex names
    // none before it: a1 records none to resume.
    expect(started.agent?.sessionId ?? null).toBeNull();
    a1.dispose();
    await hostStop(w!.t);
    const again = w!.t.attach();
    await atPrompt(again);
    const back = await waitForEntry(w!.t, id, (e) => e.status === 'running' && e.childPid !== null && (!p.reportsAtStart || e.agent?.state === 'idle'), 'the tab running again');
    expect(await childCommand(back)).not.toMatch(/resume/);
    await turn(again, 'fresh and well', id);
    expect((await tabEntry(w!.t, id)).agent?.sessionId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('sleep shows ◌ and stops it; viewing it resumes the same session', async () => {
    const { a1, id } = await agentTab({ shell: true });
    await turn(a1, 'before the nap', id);
    const before = await waitForEntry(w!.t, id, (e) => e.agent?.state === 'idle', 'the turn over');
    a1.write(KEY.nextTab);
    await waitForGlyph(a1, 'ag', 'none');
    expect((await w!.t.run('tabs', 'sleep', id)).code).toBe(0);
    await waitForGlyph(a1, 'ag', 'asleep');
    await waitForEntry(w!.t, id, (e) => e.status === 'asleep' && e.childPid === null, 'the tab asleep, its child gone');
    await waitFor(() => tabPids(id).length === 0, { what: 'no process of the sleeping tab' });
    a1.write(KEY.prevTab);
    await atPrompt(a1);
    await a1.waitForText(`${p.answer}before the nap`, AGENT_WAIT_MS);
    const woken = await waitForEntry(w!.t, id, (e) => e.status === 'running' && e.childPid !== null, 'the agent resumed');
    expect(woken.childPid).not.toBe(before.childPid);
    expect(await childCommand(woken)).toContain(before.agent!.sessionId!);
    await turn(a1, 'after the nap', id);
    expect((await tabEntry(w!.t, id)).agent?.sessionId).toBe(before.agent?.sessionId);
  });

  it("closing the tab ends every process of it, the agent's own and a daemon its tool started", async () => {
    const { a1, id } = await agentTab();
    // The tool waits until its daemon is in a session of its own: an agent may end the tool's
    // process group when the tool returns, which under load caught a daemon still inside setsid.
    fs.writeFileSync(`${w!.agent.work}/daemon.sh`, "(setsid sh -c 'touch escaped; exec sleep 300' > /dev/null 2>&1 < /dev/null &)\nuntil [ -e escaped ]; do sleep 0.1; done\n");
    await submit(a1, 'run sh daemon.sh');
    await atDialog(a1);
    a1.write(p.approve);
    const daemon = await waitFor(() => tabPids(id).find((pid) => commandOf(pid) === 'sleep 300'), { timeoutMs: AGENT_WAIT_MS, what: "the tool's daemon running" }).catch(
      async (err: Error) => {
        await a1.flush();
        throw new Error(`${err.message}\nthe tab's processes: ${tabPids(id).map((pid) => `${pid} ${commandOf(pid)}`).join('; ')}\nscreen:\n${a1.screenText().join('\n')}`);
      },
    );
    const entry = await tabEntry(w!.t, id);
    const before = [entry.holderPid!, entry.childPid!, daemon, ...tabPids(id)];
    expect(before.every(isAlive)).toBe(true);
    expect((await w!.t.run('tabs', 'stop', id)).code).toBe(0);
    await waitFor(() => before.every((pid) => !isAlive(pid)) && tabPids(id).length === 0, { what: 'no process of the closed tab' });
  });

  it("two tabs of it never touch each other's chip or resume record; closing one leaves the other working", async () => {
    w = await agentWorld();
    const one = await newAgentTab(w, p.kind, 'one');
    const two = await newAgentTab(w, p.kind, 'two');
    const a1 = w.t.attach();
    await atPrompt(a1);
    await turn(a1, 'first in one', one);
    a1.write(KEY.nextTab);
    await atPrompt(a1);
    await turn(a1, 'first in two', two);
    const first = await waitForEntry(w.t, one, (e) => e.agent?.state === 'idle', 'one idle');
    const second = await waitForEntry(w.t, two, (e) => e.agent?.state === 'idle', 'two idle');
    expect(first.agent?.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(second.agent?.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(first.agent?.sessionId).not.toBe(second.agent?.sessionId);

    await submit(a1, 'slow 3');
    const seenTwo = await watchGlyphs(a1, 'two', (s) => s.includes('spinning') && s[s.length - 1] === 'none');
    expect(seenTwo).toContain('spinning');
    expect(await chipGlyph(a1, 'one')).toBe('none');
    expect((await tabEntry(w.t, one)).agent).toMatchObject({ state: 'idle', sessionId: first.agent?.sessionId });
    const { sessions } = JSON.parse((await w.t.run('sessions', '--json')).stdout) as { sessions: { sessionId: string; tabId: string | null }[] };
    const heldBy = (sid: string | null | undefined) => sessions.filter((s) => s.sessionId === sid).map((s) => s.tabId);
    expect(heldBy(first.agent?.sessionId)).toEqual([one]);
    expect(heldBy(second.agent?.sessionId)).toEqual([two]);

    expect((await w.t.run('tabs', 'stop', one)).code).toBe(0);
    await waitFor(() => tabPids(one).length === 0, { what: 'tab one gone' });
    await turn(a1, 'still here', two);
    expect(await tabEntry(w.t, two)).toMatchObject({ status: 'running', agent: { state: 'idle', sessionId: second.agent?.sessionId } });
  });
});
