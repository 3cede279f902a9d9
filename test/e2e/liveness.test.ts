// Liveness and progress are supervised separately (SPEC §10): a heartbeating agent is restarted
// only for its own silence, never because the server or its bridge socket went away (the
// missed-heartbeat window is shortened with A1_TEST_UNRESPONSIVE_MS, the restart follows at four
// times it); and a working agent that makes no progress is shown stalled, with its interrupt and
// restart actions, and never killed automatically.
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { bridgeSocket, e2e, isSocket, listing, logEntries, takeLeaseNow, type E2E } from './harness.js';
import { agentReports, agentStarts, chipGlyph, controlAgent, listedTab, runPromptCommand, useFakeAgent, viewedAgentTab, waitForChipGlyph } from './lifecycleHarness.js';
import { isAlive } from '../helpers/procs.js';
import type { PtyDriver } from '../helpers/pty.js';
import { holdsFor, waitFor } from '../helpers/wait.js';

/** The missed-heartbeat window here; the unresponsive restart follows at four times it. */
const UNRESPONSIVE_MS = 2_000;
const RESTART_AFTER_MS = 4 * UNRESPONSIVE_MS;
/** Longer than the restart deadline, with room for a slow tick. */
const OUTAGE_MS = RESTART_AFTER_MS + 2_500;
const UNRESPONSIVE_NOTICE = '! unresponsive: not answering its heartbeat';
const STALLED_NOTICE = '⧗ stalled: no progress for a while · Esc interrupts it · /restart restarts it';

let t: E2E;
afterEach(async () => {
  await t?.teardown();
});

/** An agent tab running the fake agent, viewed by an attached client, holding its session. */
async function viewedAgent(config: object = {}): Promise<{ a1: PtyDriver; id: string; dir: string; sessionId: string; childPid: number; holderPid: number }> {
  t = e2e({ closeGraceMs: 300, ...config });
  t.env.A1_TEST_UNRESPONSIVE_MS = String(UNRESPONSIVE_MS);
  const dir = useFakeAgent(t);
  const { a1, id, session: { sessionId } } = await viewedAgentTab(t, 'bot');
  const tab = listedTab(await listing(t), id);
  return { a1, id, dir, sessionId, childPid: tab.childPid!, holderPid: tab.holderPid! };
}

/** What would show the agent was taken for hung: the notice, a second start, another child. */
function hungSigns(a1: PtyDriver, dir: string, sessionId: string, childPid: number): () => string | null {
  return () => {
    if (a1.screenText().some((l) => l.includes(UNRESPONSIVE_NOTICE))) return 'the unresponsive notice is shown';
    const starts = agentStarts(dir, sessionId).length;
    if (starts !== 1) return `the agent started ${starts} times`;
    return isAlive(childPid) ? null : 'the child is gone';
  };
}

/** How many of the agent's heartbeats a1 acknowledged, and how many failed to reach it. */
function heartbeats(dir: string, sessionId: string): { ok: number; failed: number } {
  const beats = agentReports(dir, sessionId).filter((r) => r.state === 'heartbeat');
  return { ok: beats.filter((r) => r.ok).length, failed: beats.filter((r) => !r.ok).length };
}

/** Starts the agent's heartbeats and waits until a1 has taken two (a1 arms its silence clock on the first). */
async function heartbeating(a1: PtyDriver, dir: string, sessionId: string): Promise<void> {
  controlAgent(dir, sessionId, '/heartbeat 250');
  await a1.waitForText('heartbeat every 250 ms');
  await waitFor(() => heartbeats(dir, sessionId).ok >= 2, { what: 'two heartbeats acknowledged' });
}

describe('liveness', () => {
  it('a heartbeating agent is not restarted across a server outage longer than the restart deadline; the client shows reconnecting', async () => {
    const { a1, id, dir, sessionId, childPid, holderPid } = await viewedAgent();
    await heartbeating(a1, dir, sessionId);
    const server = (await listing(t)).server!;
    process.kill(server.pid, 'SIGKILL');
    // Held so that no replacement starts: the outage lasts as long as the test says.
    const lease = takeLeaseNow(t);
    try {
      await a1.waitForText('reconnecting…');
      const beats = heartbeats(dir, sessionId).ok;
      await holdsFor(OUTAGE_MS, 'during the server outage', hungSigns(a1, dir, sessionId, childPid));
      // The bridge is the holder's: the agent's heartbeats went on arriving without a server.
      expect(heartbeats(dir, sessionId).ok).toBeGreaterThan(beats);
    } finally {
      lease.release();
    }
    const after = await waitFor(async () => {
      const l = await listing(t);
      return l.server && l.server.pid !== server.pid && l.tabs[0]?.status === 'running' ? l : null;
    }, { what: 'a replacement server' });
    expect(listedTab(after, id)).toMatchObject({ holderPid, childPid });
    await a1.waitForScreen((lines) => !lines.join('\n').includes('reconnecting…'), undefined, 'reconnected');
    await holdsFor(UNRESPONSIVE_MS, 'after the outage', hungSigns(a1, dir, sessionId, childPid));
    expect(await chipGlyph(a1, 'bot')).toBe('');
  });

  it('a bridge socket that vanished is bound again, and the silence it caused is not counted; the agent\'s own silence still is', async () => {
    const { a1, id, dir, sessionId, childPid } = await viewedAgent();
    await heartbeating(a1, dir, sessionId);
    const sock = bridgeSocket(t, id);
    const bridgeEvents = () => logEntries(t, /^holder-/).map((l) => l.event).filter((e) => e.startsWith('bridge-'));
    // Removed, and kept from being bound again (a directory in its place) past the restart deadline.
    fs.rmSync(sock);
    fs.mkdirSync(sock);
    const before = heartbeats(dir, sessionId);
    await holdsFor(OUTAGE_MS, 'while the bridge is gone', hungSigns(a1, dir, sessionId, childPid));
    // The transport was broken for real: heartbeats failed, none arrived.
    const during = heartbeats(dir, sessionId);
    expect(during.failed - before.failed).toBeGreaterThanOrEqual(2);
    expect(during.ok - before.ok).toBeLessThanOrEqual(1);
    expect(bridgeEvents()).toEqual(['bridge-lost', 'bridge-restore-failed']);
    fs.rmdirSync(sock);
    await waitFor(() => isSocket(sock) && bridgeEvents().includes('bridge-restored'), { what: 'the bridge bound again' });
    await waitFor(() => heartbeats(dir, sessionId).ok >= during.ok + 2, { what: 'heartbeats arriving again' });
    await holdsFor(2 * UNRESPONSIVE_MS, 'after the bridge came back', hungSigns(a1, dir, sessionId, childPid));
    expect(await chipGlyph(a1, 'bot')).toBe('');
    // The agent's own silence is still seen, and still restarts it: the window above was real.
    controlAgent(dir, sessionId, '/quiet');
    await a1.waitForText(UNRESPONSIVE_NOTICE);
    await waitFor(() => agentStarts(dir, sessionId).length === 2, { what: 'the silent agent restarted' });
    expect(agentStarts(dir, sessionId)[1]).toMatchObject({ resumed: true });
  });

  it('a working agent with no progress is shown stalled with its interrupt and restart actions, never killed; /restart restarts it', async () => {
    const { a1, id, dir, sessionId, childPid } = await viewedAgent({ tabsStallNoticeSeconds: 1 });
    controlAgent(dir, sessionId, '/work');
    await waitForChipGlyph(a1, 'bot', '⧗');
    await a1.waitForText(STALLED_NOTICE);
    // Many stall windows, and past the unresponsive restart deadline: still the same child, still stalled.
    await holdsFor(OUTAGE_MS, 'while stalled', () => {
      if (!a1.screenText().some((l) => l.includes(STALLED_NOTICE))) return 'the stalled notice went away';
      const starts = agentStarts(dir, sessionId).length;
      if (starts !== 1) return `the agent started ${starts} times`;
      return isAlive(childPid) ? null : 'the child is gone';
    });
    expect(listedTab(await listing(t), id).childPid).toBe(childPid);
    // The notice's restart action: the agent starts again, resuming its session.
    await runPromptCommand(a1, 'restart');
    await waitFor(() => agentStarts(dir, sessionId).length === 2, { what: 'the stalled agent restarted by /restart' });
    expect(agentStarts(dir, sessionId)[1]).toMatchObject({ resumed: true });
    await a1.waitForScreen((lines) => !lines.some((l) => l.includes(STALLED_NOTICE)), undefined, 'the stalled notice gone');
    await waitForChipGlyph(a1, 'bot', '');
  });
});
