// One vocabulary (issue 18): a state has one word in the strip, `a1 tabs`, `a1 sessions`, their
// JSON and the README; host status counts each thing under a name that says what it counts, and
// a tab program's own non-zero exits are not a1's crashes.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/wait.js';
import { e2e, hostStop, listing, type E2E } from './harness.js';
import { listedTab, newAgentTab, runPromptCommand, sessionsOf, useFakeAgent, waitForStatus, waitForTabSession } from './lifecycleHarness.js';

const README = fs.readFileSync(path.join(__dirname, '..', '..', 'README.md'), 'utf8');

let t: E2E;
afterEach(async () => {
  await t?.teardown();
});

/** Every place a person reads a sleeping tab's state says `asleep`, and none says `suspended`. */
async function expectAsleepEverywhere(tabId: string, sessionId: string, record: string): Promise<void> {
  const json = await t.run('tabs', '--json');
  expect(listedTab(JSON.parse(json.stdout), tabId)).toMatchObject({ status: 'asleep', glyph: 'asleep' });
  const text = await t.run('tabs');
  expect(text.stdout.split('\n').find((l) => l.startsWith(tabId))).toMatch(/\basleep\b/);
  expect((await sessionsOf(t)).find((s) => s.sessionId === sessionId)).toMatchObject({ state: 'asleep', record });
  const sessions = await t.run('sessions');
  expect(sessions.stdout).toContain(`asleep in ${tabId}`);
  for (const out of [json.stdout, text.stdout, sessions.stdout]) expect(out).not.toMatch(/suspended|\bopen in\b/);
}

describe('one word per state', () => {
  it('asleep after /sleep and after a host stop (a quit record): strip, a1 tabs, a1 sessions, JSON and README', async () => {
    t = e2e({ closeGraceMs: 300 });
    useFakeAgent(t);
    const bot = await newAgentTab(t, 'bot');
    const { sessionId } = await waitForTabSession(t, bot);
    const a1 = t.attach();
    await a1.waitForText(`fake-agent session ${sessionId} (new)`);
    await runPromptCommand(a1, 'sleep');
    await a1.waitForText('◌ asleep · press any key to wake it');
    await waitForStatus(t, bot, 'asleep');
    await expectAsleepEverywhere(bot, sessionId, 'sleep');
    expect(README).toContain('| tab | `asleep` | `◌` |');
    expect(README).toContain('| session | `asleep` | `◌` |');
    expect(README).not.toMatch(/`suspended`/);

    // Woken, then stopped with the host: the tab is kept asleep, its session under a quit record.
    a1.write('x');
    await waitForStatus(t, bot, 'running');
    await waitFor(async () => (await sessionsOf(t)).find((s) => s.sessionId === sessionId && s.state === 'open'), { what: 'the session open again' });
    await hostStop(t);
    await expectAsleepEverywhere(bot, sessionId, 'quit');
  });
});

describe('a1 tabs host status', () => {
  it("counts an agent's own non-zero exits as program restarts, never as a1's crashes, with one figure per counter", async () => {
    t = e2e();
    // An agent tab: only an agent's exit is a crash (issue 28).
    const id = (await t.run('new', '--agent', 'generic', '--name', 'falls', '--', '/bin/sh', '-c', 'exit 1')).stdout.trim();
    await waitFor(async () => listedTab(await listing(t), id).status === 'failed', { what: 'the tab failed after three exits' });
    const r = await t.run('tabs', 'host', 'status', '--json');
    expect(r.code, r.stderr).toBe(0);
    const s = JSON.parse(r.stdout) as { server: Record<string, unknown>; counters: Record<string, number>; crashes: unknown[]; programExits: { reason: string }[] };
    // One figure: the server's own counts are in `counters`, added up, not a second `restarts`.
    expect(s.server.counters).toBeUndefined();
    expect(Object.keys(s.counters).sort()).toEqual(['degraded', 'forcedRestarts', 'holderDeaths', 'programRestarts', 'rejectedInputs', 'resyncs', 'stalls']);
    expect(s.counters.programRestarts).toBeGreaterThanOrEqual(2);
    expect(s.counters.holderDeaths).toBe(0);
    expect(s.counters.forcedRestarts).toBe(0);
    expect(s.crashes).toEqual([]);
    expect(s.programExits.length).toBeGreaterThanOrEqual(1);
    expect(s.programExits.every((c) => c.reason === 'child-exit')).toBe(true);

    const text = (await t.run('tabs', 'host', 'status')).stdout;
    expect(text).toMatch(/^counters holder deaths 0 · program restarts \d+ · forced restarts 0 · /m);
    expect(text).toMatch(/^crashes {2}none$/m);
    expect(text).toMatch(/^exits {4}\d+ tab programs ended by themselves; newest .* with status 1$/m);
  });
});
