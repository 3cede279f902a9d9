// Revoking is not forgetting (SPEC §9): a closed agent session is listed in the /tabs picker,
// and Enter on it reopens it on purpose in a new tab, resumed with its session id.
import { describe, it, expect, afterEach } from 'vitest';
import { e2e, KEY, listing, waitForStrip, type E2E } from './harness.js';
import { waitFor } from '../helpers/wait.js';
import { useFakeAgent, fakeAgentArgv, waitForTabSession, agentStarts, sessionsOf } from './lifecycleHarness.js';

let t: E2E;
afterEach(async () => {
  await t?.teardown();
});


describe('the /tabs picker and past sessions', () => {
  it('lists a closed agent session and reopens it with Enter', async () => {
    t = e2e({ closeGraceMs: 300 });
    const dir = useFakeAgent(t);
    const a1 = t.attach();
    await waitForStrip(a1, ['agent']);
    const created = await t.run('new', '--name', 'helper', '--agent', 'generic', '--', ...fakeAgentArgv());
    expect(created.code, created.stderr).toBe(0);
    const { sessionId } = await waitForTabSession(t, created.stdout.trim());
    const stop = await t.run('tabs', 'stop', created.stdout.trim());
    expect(stop.code, stop.stderr).toBe(0);
    await waitForStrip(a1, ['agent']);
    a1.write(KEY.tabsPicker);
    await a1.waitForScreen((lines) => lines.slice(1).some((l) => / helper +closed /.test(l)), undefined, 'the closed session in the picker');
    // Filter to it, then Enter.
    a1.write('helper');
    await a1.waitForScreen((lines) => !lines.slice(1).some((l) => / agent +running /.test(l)), undefined, 'the filter applied');
    a1.write('\r');
    await waitForStrip(a1, ['agent', 'helper'], 'helper');
    await waitFor(() => agentStarts(dir, sessionId).length === 2, { what: 'the session started again' });
    expect(agentStarts(dir, sessionId)[1]).toMatchObject({ resumed: true, argv: ['--resume', sessionId] });
    const l = await listing(t);
    expect(l.tabs.map((x) => x.name)).toEqual(['agent', 'helper']);
    expect((await sessionsOf(t)).find((s) => s.sessionId === sessionId)).toMatchObject({ tabId: l.tabs[1].id });
  });
});
