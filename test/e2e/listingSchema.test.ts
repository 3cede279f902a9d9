// `a1 tabs --json` and `a1 sessions --json` (issue 18): version 1 of the schema declared in
// src/status/scripting.ts, read from the real binary against a real server, real tabs and a real
// agent's reports, and from the registry once no server runs.
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/wait.js';
import { commandListing, e2e, hostStop, type E2E } from './harness.js';
import { commandSessions, controlAgent, listedTab, newAgentTab, useFakeAgent, waitForStatus, waitForTabSession } from './lifecycleHarness.js';

const TAB_FIELDS = ['agent', 'attention', 'childPid', 'cwd', 'exit', 'glyph', 'holderPid', 'id', 'name', 'position', 'startCwd', 'status', 'title'];
const SESSION_FIELDS = ['agent', 'at', 'cwd', 'name', 'record', 'sessionId', 'state', 'tabId'];

let t: E2E;
afterEach(async () => {
  await t?.teardown();
});

describe('a1 tabs --json', () => {
  it('is version 1: every field, positions in strip order, the agent state, glyph and attention; from the registry too', async () => {
    t = e2e({ closeGraceMs: 300 });
    const dir = useFakeAgent(t);
    const sh = (await t.run('new', '--name', 'sh')).stdout.trim();
    const bot = await newAgentTab(t, 'bot');
    const { sessionId } = await waitForTabSession(t, bot);
    controlAgent(dir, sessionId, '/ask may I');
    const l = await waitFor(async () => {
      const now = await commandListing(t);
      return listedTab(now, bot).attention === 'needs-input' ? now : null;
    }, { what: 'the agent asking, in the listing' });

    expect(Object.keys(l).sort()).toEqual(['server', 'tabs', 'version']);
    expect(l.version).toBe(1);
    expect(l.server).toMatchObject({ pid: expect.any(Number), epoch: expect.any(Number) });
    for (const row of l.tabs) expect(Object.keys(row).sort()).toEqual(TAB_FIELDS);
    expect(l.tabs.map((x) => [x.position, x.id])).toEqual([
      [1, sh],
      [2, bot],
    ]);
    expect(listedTab(l, sh)).toMatchObject({ name: 'sh', status: 'running', agent: null, glyph: 'none', attention: null, title: expect.any(String), exit: null });
    expect(listedTab(l, bot)).toMatchObject({
      name: 'bot',
      status: 'running',
      agent: { kind: 'generic', state: 'needs-input', sessionId },
      glyph: 'needs-input',
      attention: 'needs-input',
      holderPid: expect.any(Number),
      childPid: expect.any(Number),
    });

    // No server: the registry's tabs, in the same shape; what agents do now is unknown.
    await hostStop(t);
    const saved = await commandListing(t);
    expect(saved).toMatchObject({ version: 1, server: null });
    for (const row of saved.tabs) expect(Object.keys(row).sort()).toEqual(TAB_FIELDS);
    expect(saved.tabs.map((x) => [x.position, x.id, x.status, x.glyph, x.attention])).toEqual([
      [1, sh, 'asleep', 'asleep', null],
      [2, bot, 'asleep', 'asleep', null],
    ]);
    expect(listedTab(saved, bot).agent).toEqual({ kind: 'generic', state: null, sessionId });
  });
});

describe('a1 sessions --json', () => {
  it('is version 1: every field; open in its tab, asleep when the tab sleeps, with its record kind apart', async () => {
    t = e2e({ closeGraceMs: 300 });
    useFakeAgent(t);
    const bot = await newAgentTab(t, 'bot');
    const { sessionId } = await waitForTabSession(t, bot);
    const r = await t.run('sessions', '--json');
    const out = JSON.parse(r.stdout) as { version: number; sessions: Record<string, unknown>[] };
    expect(Object.keys(out).sort()).toEqual(['sessions', 'version']);
    expect(out.version).toBe(1);
    for (const row of out.sessions) expect(Object.keys(row).sort()).toEqual(SESSION_FIELDS);
    expect(out.sessions.find((s) => s.sessionId === sessionId)).toMatchObject({ agent: 'generic', name: 'bot', state: 'open', tabId: bot, record: 'live', at: expect.any(Number) });
    expect((await t.run('sessions')).stdout).toContain(`open in ${bot}`);

    expect((await t.run('tabs', 'sleep', bot)).code).toBe(0);
    await waitForStatus(t, bot, 'asleep');
    expect((await commandSessions(t)).find((s) => s.sessionId === sessionId)).toMatchObject({ state: 'asleep', tabId: bot, record: 'sleep' });
    expect((await t.run('sessions')).stdout).toContain(`asleep in ${bot}`);
  });
});
