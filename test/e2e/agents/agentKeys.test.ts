// The keys a1 leaves to the agents (issue 16, docs/keys.md): the real Claude Code 2.1.328 and
// Codex 0.169.0 in an a1 tab get Alt+Enter (a newline in their prompt) and the editing keys of the
// key table that a1 does not bind, as they do run directly: the prompt area after each key is the
// same in a1 as in a terminal of the tab's size running the agent itself.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PtyDriver } from '../../helpers/pty.js';
import { agentBin, type AgentName } from '../../agents/rig.js';
import { AGENT_WAIT_MS, agentWorld, ensureAgents, INSTALL_TIMEOUT_MS, newAgentTab, waitForStill, type AgentWorld } from './agentHarness.js';

const ALT_ENTER = '\x1b\r';
const ALT_B = '\x1bb';
const CTRL_A = '\x01';

interface Profile {
  kind: AgentName;
  argv: () => string[];
  ready: string;
}

const PROFILES: Profile[] = [
  { kind: 'claude', argv: () => [agentBin('claude')], ready: '? for shortcuts' },
  { kind: 'codex', argv: () => [agentBin('codex'), '--no-daemon'], ready: 'Ask Codex to do anything' },
];

let w: AgentWorld | null = null;
let direct: PtyDriver | null = null;
afterEach(async () => {
  direct?.dispose();
  direct = null;
  await w?.teardown();
  w = null;
});
beforeAll(() => ensureAgents(), INSTALL_TIMEOUT_MS);

/** The prompt's rows: from the one holding `first` (the start of what was typed), three rows. */
function promptArea(rows: string[], first: string): string[] {
  const at = rows.findIndex((r) => r.includes(first));
  if (at < 0) throw new Error(`no row holds "${first}":\n${rows.join('\n')}`);
  return rows.slice(at, at + 3).map((r) => r.trimEnd());
}

describe.each(PROFILES)('$kind gets the keys a1 leaves to it', (p) => {
  it('abc, Alt+Enter, one two, Alt+B, X, Ctrl+A, Y: the same prompt in a1 as directly', async () => {
    w = await agentWorld();
    await newAgentTab(w, p.kind, 'ag');
    const a1 = w.t.attach();
    // The tab is the client's size less the strip's row; the direct run gets the same.
    direct = new PtyDriver({ argv: p.argv(), env: { ...w.t.env, TERM: 'xterm-256color' }, cwd: w.agent.work, cols: 120, rows: 39 });
    await a1.waitForText(p.ready, AGENT_WAIT_MS);
    await direct.waitForText(p.ready, AGENT_WAIT_MS);
    await waitForStill(a1);
    await waitForStill(direct);

    const steps: [string, string][] = [
      ['abc', 'typed'],
      [ALT_ENTER, 'Alt+Enter'],
      ['one two', 'typed on the new line'],
      [ALT_B, 'Alt+B (back a word)'],
      ['X', 'typed before the word'],
      [CTRL_A, 'Ctrl+A (start of the line)'],
      ['Y', 'typed at the start of the line'],
    ];
    for (const [bytes, what] of steps) {
      a1.write(bytes);
      direct.write(bytes);
      await waitForStill(a1);
      await waitForStill(direct);
      expect(promptArea(a1.screenText().slice(1), 'abc'), `after ${what}`).toEqual(promptArea(direct.screenText(), 'abc'));
    }
    // And what the keys did: a newline, then edits on the second line.
    const area = promptArea(direct.screenText(), 'abc');
    expect(area[0]).toMatch(/abc$/);
    expect(area[1]).toMatch(/Yone Xtwo$/);
  });
});
