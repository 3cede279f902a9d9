// A fresh start abandons the tab's agent session for good (SPEC §9, §15 "Exit, crash, restart"):
// after `f` on a failed agent tab, nothing resumes the old session automatically, not the holder's
// restart of a crashed child nor a replacement holder the server starts, even while the new agent
// has not reported a session of its own yet.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { e2e, listing, type E2E } from './harness.js';
import { agentStartOf, FAILED_NOTICE, fakeAgentArgv, listedTab, resumeRecordsOf, useFakeAgent, viewedAgentTab, waitForNewChild, waitForStatus } from './lifecycleHarness.js';
import { waitFor } from '../helpers/wait.js';

let t: E2E | undefined;
afterEach(async () => {
  await t?.teardown();
  t = undefined;
});

/** While this file exists in the agents' directory, a starting fake agent reports nothing to a1:
 * an agent that has not told a1 its session yet. */
const MUTE_FILE = 'mute';

/** The fake agent, muted while MUTE_FILE exists (checked at each start). */
function mutableAgentArgv(): string[] {
  const script = `if [ -e "$FAKE_AGENT_DIR/${MUTE_FILE}" ]; then export FAKE_AGENT_NO_STATUS=1; fi; exec "$@"`;
  return ['/bin/sh', '-c', script, 'fake-agent', ...fakeAgentArgv()];
}

/** SIGKILLs the tab's child and waits for the start of the child that replaces it; returns that
 * start as the fake agent recorded it. */
async function crashAndRestart(e: E2E, dir: string, id: string): Promise<{ pid: number; argv: string[]; resumed: boolean }> {
  const killed = listedTab(await listing(e), id).childPid!;
  process.kill(killed, 'SIGKILL');
  const pid = await waitForNewChild(e, id, killed);
  return recordedStart(dir, pid);
}

/** The start the fake agent `pid` recorded, once it has. */
async function recordedStart(dir: string, pid: number): Promise<{ pid: number; argv: string[]; resumed: boolean }> {
  const start = await waitFor(() => agentStartOf(dir, pid), { what: `the agent ${pid} recording its start` });
  return start as unknown as { pid: number; argv: string[]; resumed: boolean };
}

/** SIGKILLs the tab's holder; returns the tab once it runs under the replacement the server starts. */
async function replaceHolder(e: E2E, id: string): Promise<{ childPid: number | null }> {
  const before = listedTab(await listing(e), id);
  process.kill(before.holderPid!, 'SIGKILL');
  return waitFor(async () => {
    const tab = listedTab(await listing(e), id);
    return tab.status === 'running' && tab.holderPid !== before.holderPid && tab.childPid ? tab : null;
  }, { what: 'the tab running under a replacement holder' });
}

describe('fresh start', () => {
  it('after f, a crash before the new agent reports a session starts fresh again, in the holder and in a replacement holder', async () => {
    t = e2e({ closeGraceMs: 300 });
    const dir = useFakeAgent(t);
    const { a1, id, session: { sessionId: abandoned } } = await viewedAgentTab(t, 'bot', mutableAgentArgv());

    // Three crashes fail the tab; the two restarts between them resumed its session.
    for (let n = 1; n <= 2; n++) expect(await crashAndRestart(t, dir, id)).toMatchObject({ resumed: true, argv: ['--resume', abandoned] });
    process.kill(listedTab(await listing(t), id).childPid!, 'SIGKILL');
    await waitForStatus(t, id, 'failed');
    await a1.waitForText(FAILED_NOTICE);

    // From here on, agents start without reporting: the window before a new agent's first report.
    fs.writeFileSync(path.join(dir, MUTE_FILE), '');
    a1.write('f');
    const fresh = await recordedStart(dir, await waitForNewChild(t, id, null));
    expect(fresh).toMatchObject({ resumed: false, argv: [] });
    // Nothing is left that would resume the abandoned session.
    expect(resumeRecordsOf(t).filter((r) => r.tabId === id)).toEqual([]);

    // The holder restarts a crashed child from what it keeps: fresh.
    expect(await crashAndRestart(t, dir, id)).toMatchObject({ resumed: false, argv: [] });

    // A replacement holder starts from what the server keeps: fresh too.
    const replaced = await replaceHolder(t, id);
    expect(await recordedStart(dir, replaced.childPid!)).toMatchObject({ resumed: false, argv: [] });
    expect(resumeRecordsOf(t).filter((r) => r.sessionId === abandoned)).toEqual([]);
  });

  it('a holder that started its child by resuming (a replacement holder) starts fresh on f, not with the resume', async () => {
    t = e2e({ closeGraceMs: 300 });
    const dir = useFakeAgent(t);
    const { a1, id, session: { sessionId } } = await viewedAgentTab(t, 'bot');

    // The server starts a replacement holder whose first child resumes the session.
    const replaced = await replaceHolder(t, id);
    expect(await recordedStart(dir, replaced.childPid!)).toMatchObject({ resumed: true, argv: ['--resume', sessionId] });

    for (let n = 1; n <= 2; n++) expect(await crashAndRestart(t, dir, id)).toMatchObject({ resumed: true, argv: ['--resume', sessionId] });
    process.kill(listedTab(await listing(t), id).childPid!, 'SIGKILL');
    await waitForStatus(t, id, 'failed');
    await a1.waitForText(FAILED_NOTICE);
    a1.write('f');
    expect(await recordedStart(dir, await waitForNewChild(t, id, null))).toMatchObject({ resumed: false, argv: [] });
  });
});
