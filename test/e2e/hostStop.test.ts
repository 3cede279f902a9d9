// Host stop (SPEC §9): tabs stop gracefully, resumable agents get a `quit` record, and the next
// start restores the tab set: agents resumed from valid records, shells fresh in their cwd, and
// tabs whose records expired moved to history instead of started.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, it, expect, afterEach } from 'vitest';
import { e2e, listing, livePids, stateDir, type E2E } from './harness.js';
import { waitFor } from '../helpers/wait.js';
import { useFakeAgent, fakeAgentArgv, waitForTabSession, agentStarts, resumeRecordsOf, sessionsOf } from './lifecycleHarness.js';
import { RESUME_RECORD_MAX_AGE_MS } from '../../src/lifecycle/records.js';

let t: E2E;
afterEach(async () => {
  await t?.teardown();
});

async function setUp(): Promise<{ dir: string; agentTab: string; shellTab: string; sessionId: string; shellCwd: string }> {
  t = e2e({ closeGraceMs: 500 });
  const dir = useFakeAgent(t);
  const agent = await t.run('new', '--name', 'agent', '--agent', 'generic', '--', ...fakeAgentArgv());
  expect(agent.code, agent.stderr).toBe(0);
  const shellCwd = fs.mkdtempSync(path.join(t.home.dir, 'work-'));
  const shell = await t.run('new', '--name', 'shell', '--cwd', shellCwd);
  expect(shell.code, shell.stderr).toBe(0);
  const agentTab = agent.stdout.trim();
  const { sessionId } = await waitForTabSession(t, agentTab);
  const stop = await t.run('tabs', 'host', 'stop');
  expect(stop.code, stop.stderr).toBe(0);
  await waitFor(() => livePids(t).length === 0, { what: 'every process of the profile gone after host stop' });
  return { dir, agentTab, shellTab: shell.stdout.trim(), sessionId, shellCwd };
}

describe('host stop', () => {
  it('writes quit records, and the next start resumes the agent and starts the shell fresh in its cwd', async () => {
    const { dir, agentTab, shellTab, sessionId, shellCwd } = await setUp();
    expect(resumeRecordsOf(t).filter((r) => r.tabId === agentTab).map((r) => r.origin).sort()).toEqual(['live', 'quit']);
    expect(resumeRecordsOf(t).some((r) => r.tabId === shellTab)).toBe(false);
    expect(agentStarts(dir, sessionId)).toHaveLength(1);
    // Any command that starts the server restores the tab set.
    const more = await t.run('new', '--name', 'more');
    expect(more.code, more.stderr).toBe(0);
    await waitFor(() => agentStarts(dir, sessionId).length === 2, { what: 'the agent started again' });
    expect(agentStarts(dir, sessionId)[1]).toMatchObject({ resumed: true, argv: ['--resume', sessionId] });
    const l = await waitFor(async () => {
      const now = await listing(t);
      return now.tabs.every((x) => x.status === 'running') ? now : null;
    }, { what: 'every tab running' });
    expect(l.tabs.map((x) => [x.id, x.name])).toEqual([[agentTab, 'agent'], [shellTab, 'shell'], [more.stdout.trim(), 'more']]);
    expect(fs.realpathSync(fs.readlinkSync(`/proc/${l.tabs[1].childPid}/cwd`))).toBe(fs.realpathSync(shellCwd));
  });

  it('moves an agent tab whose quit record expired to history instead of starting it', async () => {
    const { dir, agentTab, shellTab, sessionId } = await setUp();
    // Age every record of the stopped profile past the documented maximum (the server is down).
    const db = new Database(path.join(stateDir(t), 'registry.db'));
    db.prepare('UPDATE resume_records SET captured_at = captured_at - ?').run(RESUME_RECORD_MAX_AGE_MS + 60_000);
    db.close();
    const more = await t.run('new', '--name', 'more');
    expect(more.code, more.stderr).toBe(0);
    const l = await waitFor(async () => {
      const now = await listing(t);
      return now.tabs.length === 2 && now.tabs.every((x) => x.status === 'running') ? now : null;
    }, { what: 'the shell and the new tab running, the agent tab gone' });
    expect(l.tabs.map((x) => x.id)).toEqual([shellTab, more.stdout.trim()]);
    expect(agentStarts(dir, sessionId)).toHaveLength(1);
    expect(resumeRecordsOf(t).some((r) => r.tabId === agentTab)).toBe(false);
    expect((await sessionsOf(t)).find((s) => s.sessionId === sessionId)).toMatchObject({ tabId: null, state: 'expired' });
  });
});
