// A restart never resends a prompt; a prompt that had no settled reply is offered back, not sent
// (SPEC §10). The fake agent is killed mid-reply (or wedges), the holder restarts it, and the
// restarted agent's input line holds the prompt, typed as a bracketed paste with no Enter: its
// transcript gains nothing until the user presses Enter. A settled turn offers nothing, an agent
// without bracketed paste gets nothing typed, a shell tab never gets an offer, and the prompt's
// text is stored nowhere a1 writes except the owner-only last-screen recovery file.
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { describe, it, expect, afterEach } from 'vitest';
import { e2e, listing, PROMPT_SEEN, stateDir, waitForStrip, type E2E } from './harness.js';
import {
  agentStarts,
  agentTranscript,
  controlAgent,
  listedTab,
  newAgentTab,
  recoveryFilesOf,
  useFakeAgent,
  waitForDoneReports,
  waitForNewChild,
  waitForTabSession,
} from './lifecycleHarness.js';
import { A1_BIN, type PtyDriver } from '../helpers/pty.js';
import { waitFor } from '../helpers/wait.js';

const OFFERED = 'the last prompt had no reply; it is back in the input, not sent';
const NOT_OFFERED = 'the last prompt had no reply and could not be put back in the input; nothing was sent';
/** Each reply word waits this long, so a reply streams for seconds: the test kills the agent
 * between its first word and its end without racing it. */
const SLOW_WORD_MS = '700';
/** The fake agent's prompt. */
const AGENT_PROMPT = '>';

let t: E2E;
afterEach(async () => {
  await t?.teardown();
});

/** A word no program prints by itself: whatever holds it got it from the prompt. */
function markerWord(): string {
  return `quokka${randomBytes(4).toString('hex')}`;
}

/** Creates an agent tab running the fake agent, attaches and waits until it has reported.
 * `sessionReported`: wait for its session too (an agent that reports it at start). */
async function agentTab(name: string, sessionReported = true): Promise<{ a1: PtyDriver; id: string; sessionId: string | null }> {
  const id = await newAgentTab(t, name);
  const a1 = t.attach();
  await waitForStrip(a1, [name], name);
  if (sessionReported) return { a1, id, sessionId: (await waitForTabSession(t, id)).sessionId };
  await waitForAgentState(id, 'idle', null);
  return { a1, id, sessionId: null };
}

/** Waits until the tab's child (not `notChild`) runs and its agent's state, as the holder knows
 * it from this child's reports, is `state`; returns the child's pid. */
async function waitForAgentState(id: string, state: string, notChild: number | null): Promise<number> {
  return waitFor(async () => {
    const tab = listedTab(await listing(t), id);
    return tab.childPid !== null && tab.childPid !== notChild && tab.agent?.state === state ? tab.childPid : null;
  }, { what: `tab ${id} with a new child whose agent reported ${state}` });
}

async function childOf(id: string): Promise<number> {
  const pid = listedTab(await listing(t), id).childPid;
  if (pid === null) throw new Error(`tab ${id} has no child`);
  return pid;
}

/** Types a prompt, waits until the reply has begun to stream, and SIGKILLs the agent mid-reply. */
async function killMidReply(a1: PtyDriver, id: string, prompt: string): Promise<number> {
  const pid = await childOf(id);
  a1.write(`${prompt}\r`);
  await a1.waitForText(/^reply 1\b/);
  process.kill(pid, 'SIGKILL');
  return pid;
}

/** The row the child's cursor is on: its input line. */
async function cursorRow(a1: PtyDriver): Promise<string> {
  await a1.flush();
  return a1.line(a1.cursor().y);
}

async function waitForInputLine(a1: PtyDriver, line: string): Promise<void> {
  await waitFor(async () => (await cursorRow(a1)) === line, { what: `the input line "${line}" at the cursor` });
}

/** The session ids the fake agent started, from its starts files, in no particular order. */
function sessionsStarted(dir: string): string[] {
  return fs.readdirSync(dir).filter((n) => n.endsWith('.starts.jsonl')).map((n) => n.slice(0, -'.starts.jsonl'.length));
}

function userLines(dir: string, sessionId: string): unknown[] {
  return agentTranscript(dir, sessionId).filter((e) => e.role === 'user').map((e) => e.text);
}

/**
 * No file a1 writes under A1_HOME holds the prompt (logs, crash records, registry and its WAL,
 * sockets' directory, config), except the owner-only recovery files of last screens (SPEC §5, §7,
 * §13). The fake agent's own session directory is the agent's business and is skipped too.
 */
function expectPromptStoredNowhere(agentDir: string, marker: string): void {
  const recovery = path.join(stateDir(t), 'recovery');
  const checked: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (full === recovery || full === agentDir) continue;
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) {
        checked.push(path.relative(t.home.dir, full));
        expect(fs.readFileSync(full).includes(marker), `${full} holds the prompt`).toBe(false);
      }
    }
  };
  walk(t.home.dir);
  // The check read the places that matter: the registry and the logs.
  expect(checked.some((f) => f.endsWith('registry.db'))).toBe(true);
  expect(checked.some((f) => f.includes(`${path.sep}logs${path.sep}`) && f.includes('holder'))).toBe(true);
}

describe('a prompt that had no settled reply is offered back, not sent', () => {
  it('kill -9 mid-reply: the resumed agent holds the prompt in its input, unsent until Enter', async () => {
    t = e2e({ closeGraceMs: 300 });
    const dir = useFakeAgent(t);
    t.env.FAKE_AGENT_WORD_DELAY_MS = SLOW_WORD_MS;
    const { a1, id, sessionId } = await agentTab('resumer');
    const marker = markerWord();
    const prompt = `explain the ${marker} please`;

    const killed = await killMidReply(a1, id, prompt);
    await waitForNewChild(t, id, killed);
    await a1.waitForText(OFFERED);
    await a1.waitForText(`fake-agent session ${sessionId} (resumed)`);
    await waitForInputLine(a1, `${AGENT_PROMPT} ${prompt}`);
    // One resume, and the agent got no second copy of the prompt: typed, not sent.
    const starts = agentStarts(dir, sessionId!);
    expect(starts.map((s) => s.resumed)).toEqual([false, true]);
    expect(agentTranscript(dir, sessionId!)).toEqual([{ role: 'user', text: prompt }]);
    expect(a1.screenText().join('\n')).not.toMatch(/reply 2/);

    // The user decides: the line is theirs to edit and send.
    a1.write(' again\r');
    await a1.waitForText(`reply 2 to: ${prompt} again`);
    await waitFor(() => agentTranscript(dir, sessionId!).length === 3, { what: 'the sent prompt and its reply in the transcript' });
    expect(agentTranscript(dir, sessionId!)).toEqual([
      { role: 'user', text: prompt },
      { role: 'user', text: `${prompt} again` },
      { role: 'agent', text: `reply 2 to: ${prompt} again` },
    ]);
    expectPromptStoredNowhere(dir, marker);
  });

  it('crash in the first turn, before the agent reported a session: started fresh, nothing resent, the prompt offered', async () => {
    t = e2e({ closeGraceMs: 300 });
    const dir = useFakeAgent(t);
    t.env.FAKE_AGENT_WORD_DELAY_MS = SLOW_WORD_MS;
    t.env.FAKE_AGENT_SESSION_AFTER_REPLY = '1';
    const { a1, id } = await agentTab('first', false);
    const [first] = sessionsStarted(dir);
    const marker = markerWord();
    const prompt = `draft the ${marker} plan`;

    const killed = await killMidReply(a1, id, prompt);
    await waitForNewChild(t, id, killed);
    await a1.waitForText(OFFERED);
    await waitForInputLine(a1, `${AGENT_PROMPT} ${prompt}`);
    // No session to resume: a fresh start of the agent, in a session of its own, that was sent nothing.
    const second = await waitFor(() => sessionsStarted(dir).find((s) => s !== first), { what: 'a second session started' });
    expect(agentStarts(dir, first).map((s) => s.resumed)).toEqual([false]);
    expect(agentStarts(dir, second).map((s) => s.resumed)).toEqual([false]);
    await a1.waitForText(`fake-agent session ${second} (new)`);
    expect(userLines(dir, first)).toEqual([prompt]);
    expect(userLines(dir, second)).toEqual([]);
    // The typed line is on the dead child's last screen, in its owner-only recovery file.
    const [file] = await waitFor(() => recoveryFilesOf(t, id), { what: 'the recovery file of the killed child' });
    expect(fs.readFileSync(file, 'utf8').split('\n')).toContain(`${AGENT_PROMPT} ${prompt}`);
    expectPromptStoredNowhere(dir, marker);

    a1.write('\r');
    await a1.waitForText(`reply 1 to: ${prompt}`);
    expect(userLines(dir, second)).toEqual([prompt]);
  });

  it('a turn that settled, then a crash: nothing is offered', async () => {
    t = e2e({ closeGraceMs: 300 });
    const dir = useFakeAgent(t);
    const { a1, id, sessionId } = await agentTab('settled');
    const pid = await childOf(id);
    a1.write('all done here\r');
    await a1.waitForText('reply 1 to: all done here');
    await waitForDoneReports(dir, sessionId!, 1);

    process.kill(pid, 'SIGKILL');
    // The restarted agent reported idle: an offer would have been typed by now.
    await waitForAgentState(id, 'idle', pid);
    await a1.waitForText(/\(resumed\)/);
    await waitForInputLine(a1, AGENT_PROMPT);
    a1.write('x');
    await waitForInputLine(a1, `${AGENT_PROMPT} x`);
    expect(a1.screenText().join('\n')).not.toContain('the last prompt had no reply');
  });

  it('an agent wedged mid-reply is restarted as unresponsive and offered the prompt', async () => {
    t = e2e({ closeGraceMs: 300 });
    // Read by the server at start: unresponsive after 1.5 s without a heartbeat, restarted at 4×.
    t.env.A1_TEST_UNRESPONSIVE_MS = '1500';
    const dir = useFakeAgent(t);
    t.env.FAKE_AGENT_WORD_DELAY_MS = SLOW_WORD_MS;
    const { a1, id, sessionId } = await agentTab('wedged');
    controlAgent(dir, sessionId!, '/heartbeat 200');
    await a1.waitForText('heartbeat every 200 ms');
    const pid = await childOf(id);
    const marker = markerWord();
    const prompt = `summarise the ${marker} notes`;
    a1.write(`${prompt}\r`);
    await a1.waitForText(/^reply 1\b/);
    controlAgent(dir, sessionId!, '/wedge');

    await waitForNewChild(t, id, pid);
    await a1.waitForText(OFFERED);
    await waitForInputLine(a1, `${AGENT_PROMPT} ${prompt}`);
    expect(agentStarts(dir, sessionId!).map((s) => s.resumed)).toEqual([false, true]);
    expect(userLines(dir, sessionId!)).toEqual([prompt]);
    expectPromptStoredNowhere(dir, marker);
  });

  it('an agent without bracketed paste gets nothing typed (a newline could send it), and a notice says so', async () => {
    t = e2e({ closeGraceMs: 300 });
    const dir = useFakeAgent(t);
    t.env.FAKE_AGENT_WORD_DELAY_MS = SLOW_WORD_MS;
    t.env.FAKE_AGENT_NO_BRACKETED_PASTE = '1';
    const { a1, id, sessionId } = await agentTab('nopaste');
    const prompt = `list the ${markerWord()} files`;
    const killed = await killMidReply(a1, id, prompt);
    await waitForNewChild(t, id, killed);
    await a1.waitForText(NOT_OFFERED);
    await waitForInputLine(a1, AGENT_PROMPT);
    expect(userLines(dir, sessionId!)).toEqual([prompt]);
  });

  it('a shell tab is never offered a prompt, even when something in it reported over the bridge: its shell killed, it closes', async () => {
    t = e2e({ closeGraceMs: 300 });
    t.env.A1_BIN = A1_BIN;
    const a1 = t.attach();
    await a1.waitForText(PROMPT_SEEN);
    const id = (await listing(t)).tabs[0].id;
    const other = (await t.run('new', '--name', 'other')).stdout.trim();
    const shell = await childOf(id);
    // Reports from inside the shell, then a line that no report settles.
    a1.write('"$A1_BIN" status idle --agent generic\r');
    await waitForAgentState(id, 'idle', null);
    a1.write('"$A1_BIN" status working; echo typed-$((6*7))\r');
    await waitForAgentState(id, 'working', null);
    await a1.waitForText('typed-42');

    // A shell tab closes when its shell ends (issue 28): there is no next shell to offer the line to.
    process.kill(shell, 'SIGKILL');
    await waitFor(async () => (await listing(t)).tabs.map((x) => x.id).join() === other, { what: 'the shell tab closed' });
    await a1.waitForScreen((rows) => rows.some((r) => r.startsWith(PROMPT_SEEN)) && !rows.some((r) => r.includes('typed-42')), undefined, 'the other tab viewed');
    a1.write('echo fresh-$((6*7))\r');
    await a1.waitForText('fresh-42');
    expect(a1.screenText().join('\n')).not.toContain('the last prompt had no reply');
  });
});
