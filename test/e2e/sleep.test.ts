// Sleep and wake (SPEC §9, issue 4): `/sleep` and `a1 tabs sleep <id>` checkpoint an agent tab
// and end its processes; viewing the tab or pressing a key in it resumes the same agent session,
// with nothing of its transcript lost. A tab with no agent session cannot sleep and says why.
import { describe, it, expect, afterEach } from 'vitest';
import { e2e, KEY, listing, probeViewed, PROMPT_SEEN, readStrip, type E2E } from './harness.js';
import {
  agentStarts,
  agentTranscript,
  isSameAlive,
  listedTab,
  newAgentTab,
  procRef,
  runPromptCommand,
  sessionsOf,
  useFakeAgent,
  waitForStatus,
  waitForTabSession,
  waitForTranscript,
  type ProcRef,
} from './lifecycleHarness.js';
import type { PtyDriver } from '../helpers/pty.js';
import { waitFor } from '../helpers/wait.js';

const ASLEEP = '◌ asleep · press any key to wake it';

let t: E2E;
afterEach(async () => {
  await t?.teardown();
});

/** Types a prompt into the viewed agent and waits for its whole reply on screen. */
async function ask(a1: PtyDriver, prompt: string, turn: number): Promise<void> {
  a1.write(`${prompt}\r`);
  await a1.waitForScreen((lines) => lines.includes(`reply ${turn} to: ${prompt}`), undefined, `reply ${turn} to "${prompt}"`);
}

/** The running fake agent of this session, by pid and start time. */
function agentProcess(dir: string, sessionId: string): ProcRef {
  const starts = agentStarts(dir, sessionId);
  const ref = procRef(Number(starts.at(-1)?.pid));
  if (!ref) throw new Error(`the fake agent of ${sessionId} is not running: ${JSON.stringify(starts)}`);
  return ref;
}

/** Asserts the tab sleeps: status asleep, its agent process gone, `a1 sessions` says asleep. */
async function expectAsleep(tabId: string, sessionId: string, agent: ProcRef): Promise<void> {
  await waitForStatus(t, tabId, 'asleep');
  await waitFor(() => !isSameAlive(agent), { what: `the agent process ${agent.pid} ended` });
  const tab = listedTab(await listing(t), tabId);
  expect(tab.holderPid).toBeNull();
  const row = (await sessionsOf(t)).find((s) => s.sessionId === sessionId);
  expect(row).toMatchObject({ tabId, state: 'asleep', record: 'sleep', agent: 'generic' });
}

/** Waits until the session has been started `count` times and returns the last start, which
 * must be a resume of that very session. */
async function waitForResume(dir: string, sessionId: string, count: number): Promise<Record<string, unknown>> {
  const starts = await waitFor(() => {
    const s = agentStarts(dir, sessionId);
    return s.length >= count ? s : null;
  }, { what: `start ${count} of the fake agent of ${sessionId}` });
  expect(starts).toHaveLength(count);
  const last = starts[count - 1];
  expect(last.resumed).toBe(true);
  expect(last.error).toBeUndefined();
  const argv = last.argv as string[];
  expect(argv.slice(-2)).toEqual(['--resume', sessionId]);
  return last;
}

/** A new profile with one fake agent tab, viewed by a new client once its session has started. */
async function viewedAgentTab(): Promise<{ dir: string; tabId: string; a1: PtyDriver; sessionId: string }> {
  t = e2e({ closeGraceMs: 300 });
  const dir = useFakeAgent(t);
  const tabId = await newAgentTab(t, 'fake');
  const a1 = t.attach();
  const { sessionId } = await waitForTabSession(t, tabId);
  await a1.waitForText(`fake-agent session ${sessionId} (new)`);
  return { dir, tabId, a1, sessionId };
}

describe('sleep and wake', () => {
  it('/sleep checkpoints the viewed agent tab; a key wakes it, resumed with every turn kept', async () => {
    const { dir, tabId, a1, sessionId } = await viewedAgentTab();
    await ask(a1, 'first question', 1);
    await ask(a1, 'second question', 2);
    const agent = agentProcess(dir, sessionId);

    await runPromptCommand(a1, 'sleep');
    await expectAsleep(tabId, sessionId, agent);
    await a1.waitForText(ASLEEP);
    expect((await readStrip(a1)).text).toContain('◌ fake');

    // The waking key is consumed: the resumed agent's prompt never sees it.
    a1.write('z');
    await waitForResume(dir, sessionId, 2);
    const screen = await a1.waitForScreen(
      (lines) =>
        lines.some((l) => l.includes(`fake-agent session ${sessionId} (resumed)`)) &&
        ['> first question', 'reply 1 to: first question', '> second question', 'reply 2 to: second question'].every((l) => lines.includes(l)),
      undefined,
      'the resumed agent replaying both earlier turns',
    );
    expect(screen.join('\n')).not.toContain(ASLEEP);
    await waitForStatus(t, tabId, 'running');
    expect((await readStrip(a1)).text).not.toContain('◌');

    await ask(a1, 'third question', 3);
    const turns = await waitForTranscript(dir, sessionId, 6);
    expect(turns.filter((x) => x.role === 'user').map((x) => x.text)).toEqual(['first question', 'second question', 'third question']);
    expect(turns.filter((x) => x.role === 'agent').map((x) => x.text)).toEqual([
      'reply 1 to: first question',
      'reply 2 to: second question',
      'reply 3 to: third question',
    ]);
    expect(agentStarts(dir, sessionId)).toHaveLength(2);
  });

  it('a key pressed the moment the tab reads asleep wakes it, while the view of its ending holder may still be open', async () => {
    const { dir, a1, sessionId } = await viewedAgentTab();
    // Three rounds: the key used to go to the old holder's view and be lost about every time.
    for (let start = 2; start <= 4; start++) {
      await runPromptCommand(a1, 'sleep');
      await a1.waitForText(ASLEEP);
      a1.write('z');
      await waitForResume(dir, sessionId, start);
      await a1.waitForScreen((lines) => !lines.join('\n').includes(ASLEEP), undefined, `awake after round ${start - 1}`);
    }
    expect(agentTranscript(dir, sessionId)).toEqual([]);
  });

  it('a1 tabs sleep puts a background agent tab to sleep; viewing it with Alt+2 resumes it', async () => {
    t = e2e({ closeGraceMs: 300 });
    const dir = useFakeAgent(t);
    const a1 = t.attach();
    await a1.waitForText(PROMPT_SEEN);
    const shellId = (await listing(t)).tabs[0].id;
    const agentId = await newAgentTab(t, 'fake');
    const { sessionId } = await waitForTabSession(t, agentId);
    const agent = agentProcess(dir, sessionId);
    // The client still views the shell: the agent tab is in the background.
    await probeViewed(a1, shellId);

    const slept = await t.run('tabs', 'sleep', agentId);
    expect(slept.code, slept.stderr).toBe(0);
    await expectAsleep(agentId, sessionId, agent);
    await waitFor(async () => (await readStrip(a1)).text.includes('◌ fake'), { what: 'the ◌ chip of the sleeping tab' });
    expect(agentStarts(dir, sessionId)).toHaveLength(1);

    a1.write(KEY.jump2);
    await waitForResume(dir, sessionId, 2);
    await a1.waitForText(`fake-agent session ${sessionId} (resumed)`);
    await waitForStatus(t, agentId, 'running');
    await ask(a1, 'after waking', 1);
    expect((await waitForTranscript(dir, sessionId, 2)).map((x) => x.text)).toEqual(['after waking', 'reply 1 to: after waking']);
  });

  it('a1 tabs sleep on a plain shell tab exits 1 with the reason; the tab keeps running', async () => {
    t = e2e({ closeGraceMs: 300 });
    const a1 = t.attach();
    await a1.waitForText(PROMPT_SEEN);
    const before = (await listing(t)).tabs[0];
    const child = procRef(before.childPid!);
    expect(child).not.toBeNull();

    const r = await t.run('tabs', 'sleep', before.id);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('a1: This tab cannot sleep: it has no agent session to resume.\n');
    expect(r.stdout).toBe('');

    const after = listedTab(await listing(t), before.id);
    expect(after.status).toBe('running');
    expect(after.childPid).toBe(before.childPid);
    expect(isSameAlive(child!)).toBe(true);
    a1.write(KEY.jump1);
    await probeViewed(a1, before.id);
  });
});
