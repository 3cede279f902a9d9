// The real Claude Code 2.1.328 and Codex 0.169.0 answered from a phone (issue 20): a tool waiting
// for approval in a tab nobody views heads the page's inbox with `?`; the page views it read-only,
// takes control, and approves with its quick key; the tool runs and the tab ends idle, while the
// terminal client that asked goes on viewing another tab.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { waitFor } from '../../helpers/wait.js';
import { KEY } from '../harness.js';
import { launchBrowser, startWeb, stopWebProcess, type TestBrowser, type WebStart } from '../../helpers/browser.js';
import { AGENT_WAIT_MS, agentWorld, ensureAgents, INSTALL_TIMEOUT_MS, newAgentTab, ran, submit, waitForEntry, waitForGlyph, type AgentWorld } from './agentHarness.js';
import type { AgentName } from '../../agents/rig.js';

interface Profile {
  kind: AgentName;
  /** Shown at an empty prompt that takes keys. */
  ready: string;
  /** Shown while the permission dialog waits. */
  dialog: string;
  /** The quick key that approves the dialog's first option. */
  approve: string;
}

const PROFILES: Profile[] = [
  { kind: 'claude', ready: '? for shortcuts', dialog: 'Do you want to proceed?', approve: '1' },
  { kind: 'codex', ready: 'Ask Codex to do anything', dialog: 'Would you like to run the following command?', approve: 'y' },
];

let w: AgentWorld | null = null;
let browser: TestBrowser | undefined;
let web: WebStart | undefined;
afterEach(async () => {
  await browser?.close();
  if (web) stopWebProcess(web);
  await w?.teardown();
  browser = undefined;
  web = undefined;
  w = null;
});
beforeAll(() => ensureAgents(), INSTALL_TIMEOUT_MS);

function pageText(page: Page): Promise<string> {
  return page.evaluate(() => (window as unknown as { a1web: { screenText(): string } }).a1web.screenText());
}

describe.each(PROFILES)('$kind answered from the phone', (p) => {
  it('a tool waiting for approval heads the inbox with ?; the page takes control and approves it with a quick key', { timeout: 240_000 }, async () => {
    w = await agentWorld();
    const id = await newAgentTab(w, p.kind, 'ag');
    await w.t.run('new', '--name', 'sh');
    const a1 = w.t.attach();
    await a1.waitForText(p.ready, AGENT_WAIT_MS);
    await submit(a1, 'run touch from-phone.txt');
    // The terminal client looks at the shell tab: the agent asks in the background.
    a1.write(KEY.nextTab);
    await waitForGlyph(a1, 'ag', 'needs-input');

    web = await startWeb(w.t.run);
    browser = await launchBrowser();
    const phone = await (await browser.phone()).newPage();
    await phone.goto(web.url);
    await waitFor(async () => (await phone.getAttribute('#inbox .inbox-item >> nth=0', 'data-tab-id')) === id, { what: 'the asking agent first in the inbox' });
    expect(await phone.getAttribute(`#inbox .inbox-item[data-tab-id="${id}"]`, 'data-attention')).toBe('needs-input');
    expect(await phone.textContent(`#strip .chip[data-tab-id="${id}"]`)).toBe('? ag');

    await phone.click(`#inbox .inbox-item[data-tab-id="${id}"]`);
    await waitFor(async () => (await pageText(phone)).includes(p.dialog), { timeoutMs: AGENT_WAIT_MS, what: 'the dialog on the page' });
    // Read-only until it takes control: the quick key is not sent.
    expect(await phone.getAttribute('#control', 'data-control')).not.toBe('you');
    await phone.click(`#keys button[data-key="${p.approve}"]`);
    await phone.click('#control');
    await waitFor(async () => (await phone.getAttribute('#control', 'data-control')) === 'you', { what: 'the page in control' });
    expect(ran(w, 'from-phone.txt')).toBe(false);
    await phone.click(`#keys button[data-key="${p.approve}"]`);
    await waitFor(() => ran(w!, 'from-phone.txt'), { timeoutMs: AGENT_WAIT_MS, what: 'the approved tool to run' });
    await waitFor(async () => (await pageText(phone)).includes('ran touch from-phone.txt'), { timeoutMs: AGENT_WAIT_MS, what: "the agent's answer on the page" });
    await waitForEntry(w.t, id, (e) => e.agent?.state === 'idle' && e.attention === null, 'the agent idle, wanting nothing');
    await waitFor(async () => (await phone.getAttribute(`#strip .chip[data-tab-id="${id}"]`, 'data-glyph')) === 'none', { what: 'the chip calm on the page' });
  });
});
