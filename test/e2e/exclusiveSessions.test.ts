// One agent session, one live tab (SPEC §9, §11; issue 15): a tab whose agent reports a session
// another live tab holds does not take it, and both keep what they held; a session opened by its
// file, by its id or by a link to its file under another name is the same session, and focuses
// the tab that holds it.
import fs from 'node:fs';
import path from 'node:path';
import { describe, it, expect, afterEach } from 'vitest';
import { e2e, listing, waitForStrip, type E2E } from './harness.js';
import {
  agentStarts,
  controlAgent,
  isSameAlive,
  listedTab,
  liveAgents,
  newAgentTab,
  procRef,
  resumeRecordsOf,
  sessionsOf,
  useFakeAgent,
  waitForNewChild,
  waitForTabSession,
} from './lifecycleHarness.js';
import { waitFor } from '../helpers/wait.js';

let t: E2E;
afterEach(async () => {
  await t?.teardown();
});

/** `a1 new --agent generic --name <name> -- <fake agent>`; waits until the tab holds its session. */
async function agentTab(name: string): Promise<{ id: string; sessionId: string }> {
  const id = await newAgentTab(t, name);
  const { sessionId } = await waitForTabSession(t, id);
  return { id, sessionId };
}

/** Each session's holding tab, as `a1 sessions --json` lists it. */
async function holders(): Promise<Record<string, string | null>> {
  return Object.fromEntries((await sessionsOf(t)).map((s) => [s.sessionId, s.tabId]));
}

describe('one agent session, one live tab', () => {
  it("a session switch to a session another tab holds is refused: both tabs keep their own sessions", async () => {
    t = e2e({ closeGraceMs: 300 });
    const dir = useFakeAgent(t);
    const first = await agentTab('first');
    const second = await agentTab('second');
    const firstAgent = procRef(Number(agentStarts(dir, first.sessionId)[0].pid))!;

    // The second tab's agent says it now runs the first tab's session (as /resume would).
    controlAgent(dir, second.sessionId, `/switch ${first.sessionId}`);
    await waitFor(async () => listedTab(await listing(t), second.id).agent?.sessionId === first.sessionId, {
      what: 'the switch reported to the server',
    });

    // Not recorded: each session is still held by its own tab, with its own resume record.
    expect(await holders()).toEqual({ [first.sessionId]: first.id, [second.sessionId]: second.id });
    const records = resumeRecordsOf(t).map((r) => [r.sessionId, r.tabId, r.origin]);
    expect(records).toEqual(expect.arrayContaining([[first.sessionId, first.id, 'live'], [second.sessionId, second.id, 'live']]));
    expect(records).toHaveLength(2);
    // Opening the session focuses the tab that holds it.
    const a1 = t.attach('--session', first.sessionId);
    await waitForStrip(a1, ['first', 'second'], 'first');
    a1.dispose();

    // The second tab's agent crashes: it resumes the session the tab kept, not the other one.
    const crashed = listedTab(await listing(t), second.id).childPid!;
    process.kill(crashed, 'SIGKILL');
    const restarted = await waitForNewChild(t, second.id, crashed);
    const start = await waitFor(() => agentStarts(dir, second.sessionId).find((s) => s.pid === restarted), { what: 'the second tab resumed' });
    expect(start).toMatchObject({ resumed: true, argv: ['--resume', second.sessionId] });
    expect(agentStarts(dir, first.sessionId)).toHaveLength(1);
    expect(isSameAlive(firstAgent)).toBe(true);
    expect(await holders()).toEqual({ [first.sessionId]: first.id, [second.sessionId]: second.id });
  });

  it('a session opened by its file, by its id and by a link to its file under another name is one tab, one agent', async () => {
    t = e2e({ closeGraceMs: 300 });
    const dir = useFakeAgent(t);
    const { id, sessionId } = await agentTab('held');
    const file = path.join(dir, `${sessionId}.jsonl`);
    const links = path.join(t.home.dir, 'links');
    fs.mkdirSync(links);
    const alias = path.join(links, 'latest.jsonl');
    fs.symlinkSync(file, alias);

    // Each client is killed rather than detached: detaching sends the tab one Ctrl+C first.
    for (const target of [file, sessionId, alias]) {
      const a1 = t.attach('--session', target);
      await waitForStrip(a1, ['held'], 'held');
      a1.dispose();
      await a1.exited;
    }
    expect((await listing(t)).tabs.map((x) => x.id)).toEqual([id]);
    expect(agentStarts(dir, sessionId)).toHaveLength(1);
    expect(liveAgents(dir, sessionId)).toHaveLength(1);
  });
});
