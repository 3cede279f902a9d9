// Closing the viewed tab views its neighbour (issue 18): the tab to its right, or the one to its
// left when it was last, as tmux, zellij and browsers do, whichever way the tab went (this
// client's Alt+W, `a1 tabs stop`); the last tab closed leaves `+` and a hint.
import { afterEach, describe, expect, it } from 'vitest';
import { e2e, KEY, probeViewed, PROMPT_SEEN, tabId, waitForListing, waitForStrip, type E2E } from './harness.js';
import type { PtyDriver } from '../helpers/pty.js';
import { waitFor } from '../helpers/wait.js';

let t: E2E;
afterEach(async () => {
  await t?.teardown();
});

/** A client viewing three running tabs: agent, agent 2, agent 3. */
async function threeTabs(): Promise<{ a1: PtyDriver; ids: string[] }> {
  const a1 = t.attach();
  await a1.waitForText(PROMPT_SEEN);
  a1.write(KEY.newTab);
  await waitForStrip(a1, ['agent', 'agent 2'], 'agent 2');
  a1.write(KEY.newTab);
  await waitForStrip(a1, ['agent', 'agent 2', 'agent 3'], 'agent 3');
  const l = await waitForListing(t, ['agent', 'agent 2', 'agent 3']);
  return { a1, ids: ['agent', 'agent 2', 'agent 3'].map((name) => tabId(l, name)) };
}

describe('closing the viewed tab', () => {
  it('Alt+W on the middle tab views the one to its right; on the last tab, the one to its left', async () => {
    t = e2e();
    const { a1, ids } = await threeTabs();
    a1.write(KEY.jump2);
    await waitForStrip(a1, ['agent', 'agent 2', 'agent 3'], 'agent 2');
    await probeViewed(a1, ids[1]);
    a1.write(KEY.closeTab);
    await waitForStrip(a1, ['agent', 'agent 3'], 'agent 3');
    // The surface and the keys are the neighbour's too, not only the strip's marker.
    await probeViewed(a1, ids[2]);
    a1.write(KEY.closeTab);
    await waitForStrip(a1, ['agent'], 'agent');
    await probeViewed(a1, ids[0]);
  });

  it('`a1 tabs stop` of the tab this client views views its right neighbour', async () => {
    t = e2e();
    const { a1, ids } = await threeTabs();
    a1.write(KEY.jump2);
    await waitForStrip(a1, ['agent', 'agent 2', 'agent 3'], 'agent 2');
    const r = await t.run('tabs', 'stop', ids[1]);
    expect(r.code, r.stderr).toBe(0);
    await waitForStrip(a1, ['agent', 'agent 3'], 'agent 3');
    await probeViewed(a1, ids[2]);
  });

  it('the last tab closed leaves `+` and a hint naming how to open a tab and how to detach', async () => {
    t = e2e();
    const a1 = t.attach();
    await a1.waitForText(PROMPT_SEEN);
    await waitForStrip(a1, ['agent'], 'agent');
    a1.write(KEY.closeTab);
    await waitFor(() => a1.line(0).trimEnd() === ' +   no tabs · Alt+A or + opens one · Alt+E detaches', {
      what: 'the empty strip with its hint',
    }).catch((error: Error) => {
      throw new Error(`${error.message}; strip "${a1.line(0)}"`);
    });
    // The hint's keys do what it says: Alt+A opens a tab, and Alt+E leaves.
    a1.write(KEY.newTab);
    await waitForStrip(a1, ['agent'], 'agent');
    await a1.waitForText(PROMPT_SEEN);
    a1.write(KEY.detach);
    expect((await a1.exited).exitCode).toBe(0);
  });
});
