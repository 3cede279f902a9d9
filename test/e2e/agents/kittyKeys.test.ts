// The real Claude Code and Codex (test/agents) in an a1 tab, in a terminal that speaks the kitty
// keyboard protocol (PtyDriver's emulation): the agent turns the protocol on in its tab as it does
// in the terminal itself, and Shift+Enter is a newline in its prompt, as it is when the agent runs
// directly in that terminal (issue 16).
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PtyDriver } from '../../helpers/pty.js';
import { waitFor } from '../../helpers/wait.js';
import { agentBin, type AgentName } from '../../agents/rig.js';
import type { InputEvent } from '../../../src/input/events.js';
import { AGENT_WAIT_MS, agentWorld, ensureAgents, INSTALL_TIMEOUT_MS, newAgentTab, waitForStill, type AgentWorld } from './agentHarness.js';

const AGENTS: Array<{ kind: AgentName; ready: string; argv: () => string[] }> = [
  { kind: 'claude', ready: '? for shortcuts', argv: () => [agentBin('claude')] },
  { kind: 'codex', ready: 'Ask Codex to do anything', argv: () => [agentBin('codex'), '--no-daemon'] },
];
/** What a1 pushes onto a kitty-capable outer terminal. */
const A1_FLAGS = 7;
const FIRST = 'kitty first line';
const SECOND = 'kitty second line';

let w: AgentWorld | null = null;
const direct: PtyDriver[] = [];
afterEach(async () => {
  for (const d of direct.splice(0)) d.dispose();
  await w?.teardown();
  w = null;
});
beforeAll(() => ensureAgents(), INSTALL_TIMEOUT_MS);

const text = (s: string): InputEvent => ({ k: 'text', s });
const SHIFT_ENTER: InputEvent = { k: 'key', key: 'enter', mods: { shift: true } };

/** Types FIRST, Shift+Enter, SECOND into the agent's prompt; returns the prompt's rows, from
 * the one with FIRST to the one with SECOND, as a person reads them. */
async function twoLines(d: PtyDriver, from: number): Promise<string[]> {
  await d.flush();
  d.key(text(FIRST));
  await d.waitForText(FIRST, AGENT_WAIT_MS);
  await waitForStill(d);
  d.key(SHIFT_ENTER);
  await waitForStill(d);
  d.key(text(SECOND));
  await d.waitForText(SECOND, AGENT_WAIT_MS);
  await waitForStill(d);
  const rows = d.screenText().slice(from);
  const a = rows.findIndex((r) => r.includes(FIRST));
  const b = rows.findIndex((r) => r.includes(SECOND));
  return rows.slice(a, Math.max(a, b) + 1).map((r) => r.trimEnd());
}

describe.each(AGENTS)('$kind with a kitty-capable terminal', ({ kind, ready, argv }) => {
  it('Shift+Enter is a newline in the prompt, in a tab as when run directly', async () => {
    w = await agentWorld();
    await newAgentTab(w, kind, 'ag');
    const a1 = w.t.attachWith({ kittyKeyboard: {} });
    await a1.waitForText(ready, AGENT_WAIT_MS);
    await waitFor(() => a1.keyboardStacks().alternate.at(-1) === A1_FLAGS, { what: 'a1 pushing its keyboard flags' });
    const inTab = await twoLines(a1, 1);

    // The same keys, the agent run directly in the same emulated terminal, at the tab's size.
    const env = { ...w.t.env, TERM: 'xterm-256color' };
    const d = new PtyDriver({ argv: argv(), env, cwd: w.agent.work, cols: 120, rows: 39, kittyKeyboard: {} });
    direct.push(d);
    await d.waitForText(ready, AGENT_WAIT_MS);
    const directly = await twoLines(d, 0);

    expect(directly.length, directly.join('\n')).toBeGreaterThanOrEqual(2);
    expect(inTab).toEqual(directly);
    // Nothing was submitted: the model never saw the first line as a prompt.
    expect(w.mock.requests().some((r) => typeof r.prompt === 'string' && r.prompt.includes(FIRST))).toBe(false);
  });
});
