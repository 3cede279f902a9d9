// `a1 web` in a real browser (issue 20 acceptance): Debian's Chromium loads the page through the
// URL `a1 web` printed, at phone size and at desktop size. The strip shows every tab with its
// glyph, the tab that needs input heads the inbox, and the page and a terminal client view one
// shell tab under the controller rules of SPEC §15: the page types a command that runs, whose
// output both show; control moves from the terminal to the page and back. Screenshots of both
// layouts are saved to snapshots/ for the closing note.
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { describe, it, expect, afterEach } from 'vitest';
import type { Page } from 'playwright-core';
import { e2e, KEY, PROMPT_SEEN, tabId, waitForStrip, listing, type E2E, type Listing } from './harness.js';
import { a1Argv, REPO_ROOT, type PtyDriver } from '../helpers/pty.js';
import { holdsFor, waitFor } from '../helpers/wait.js';
import { launchBrowser, RUN_MARKER, startWeb, stopWebProcess, type TestBrowser, type WebStart } from '../helpers/browser.js';
import { isAlive, pidsWithEnv } from '../helpers/procs.js';
import { agentReports, agentTranscript, newAgentTab, useFakeAgent, waitForTabSession } from './lifecycleHarness.js';

/** What the page exposes for tests (the DOM contract of issue 20). */
interface A1WebHandle {
  screenText(): string;
  state(): { viewing: string | null; control: 'you' | 'other' | 'none'; tabs: unknown[] };
}
type WithA1Web = { a1web: A1WebHandle };

/** The terminal client's refusal of a key typed while another client controls the tab. */
const READ_ONLY_NOTICE = /read-only.*Alt\+I takes control/;
/** How long the page's keys, typed while read-only, are watched for reaching the tab anyway. */
const READ_ONLY_WATCH_MS = 1_500;
const SNAPSHOTS = path.join(REPO_ROOT, 'snapshots');

let t: E2E | undefined;
let browser: TestBrowser | undefined;
let web: WebStart | undefined;
afterEach(async () => {
  await browser?.close();
  if (web) stopWebProcess(web);
  await t?.teardown();
  browser = undefined;
  web = undefined;
  t = undefined;
});

/** `a1 new ...args`; returns the new tab's id. */
async function newTab(e: E2E, ...args: string[]): Promise<string> {
  const r = await e.run('new', ...args);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout.trim();
}

/** A tab whose program reports `state` over its bridge, as an agent's hook would, then waits. */
function reportingTab(e: E2E, name: string, state: string): Promise<string> {
  const report = a1Argv('status', state, '--agent', 'generic').map((a) => `'${a}'`).join(' ');
  return newTab(e, '--name', name, '--', '/bin/bash', '-c', `${report} && exec sleep 100000`);
}

function screenText(page: Page): Promise<string> {
  return page.evaluate(() => (window as unknown as WithA1Web).a1web.screenText());
}

/** Waits until the page's terminal shows `text` on some row. */
async function pageShows(page: Page, text: string): Promise<void> {
  await waitFor(async () => (await screenText(page)).includes(text), { what: `the page's terminal showing ${text}` }).catch(async (error: Error) => {
    throw new Error(`${error.message}; page screen:\n${await screenText(page).catch(() => '(unreadable)')}`);
  });
}

async function controlOf(page: Page): Promise<string | null> {
  return page.getAttribute('#control', 'data-control');
}

async function waitForControl(page: Page, control: 'you' | 'other' | 'none'): Promise<void> {
  await waitFor(async () => (await controlOf(page)) === control, { what: `#control data-control=${control}` });
}

interface ChipSeen {
  id: string | null;
  glyph: string | null;
  text: string;
}

function chips(page: Page): Promise<ChipSeen[]> {
  return page.$$eval('#strip .chip', (els) =>
    els.map((el) => ({ id: el.getAttribute('data-tab-id'), glyph: el.getAttribute('data-glyph'), text: (el.textContent ?? '').trim() })),
  );
}

function inboxItems(page: Page): Promise<{ id: string | null; attention: string | null }[]> {
  return page.$$eval('#inbox .inbox-item', (els) => els.map((el) => ({ id: el.getAttribute('data-tab-id'), attention: el.getAttribute('data-attention') })));
}

/** Waits until the listing says every tab is running and `ask`/`fin` report what they should. */
function waitForReports(e: E2E, askId: string, finId: string): Promise<Listing> {
  return waitFor(async () => {
    const l = await listing(e);
    const attention = (id: string) => l.tabs.find((x) => x.id === id)?.attention;
    const ready = l.tabs.every((x) => x.status === 'running') && attention(askId) === 'needs-input' && attention(finId) === 'done';
    return ready ? l : null;
  }, { what: 'every tab running, ask needing input and fin done' });
}

describe('the test browser', () => {
  it('is Debian\'s Chromium, and closing it leaves none of its processes', async () => {
    browser = await launchBrowser();
    const { run } = browser;
    expect(browser.browser.version()).toMatch(/^\d+\./);
    const page = await (await browser.phone()).newPage();
    // A page laid out for phones says so (as a1's does); else a mobile browser lays it out 980 wide.
    await page.setContent('<meta name="viewport" content="width=device-width, initial-scale=1"><p id="p">here</p>');
    expect(await page.textContent('#p')).toBe('here');
    expect(await page.evaluate(() => [innerWidth, innerHeight])).toEqual([390, 844]);
    expect(pidsWithEnv(RUN_MARKER, run).filter(isAlive).length).toBeGreaterThan(0);
    await browser.close();
    expect(pidsWithEnv(RUN_MARKER, run).filter(isAlive)).toEqual([]);
  });

  it('a missing Chromium fails the test, saying how to install it', async () => {
    await expect(launchBrowser('/nonexistent/chromium')).rejects.toThrow(/apt-get install -y chromium/);
  });
});

describe('a1 web in a real browser', () => {
  it('phone and desktop: the strip and inbox, a command typed on the page, control moving both ways', { timeout: 240_000 }, async () => {
    t = e2e();
    const e = t;
    const sh1 = await newTab(e, '--name', 'sh1');
    await newTab(e, '--name', 'sh2');
    const ask = await reportingTab(e, 'ask', 'needs-input');
    const fin = await reportingTab(e, 'fin', 'done');
    const names = ['sh1', 'sh2', 'ask', 'fin'];
    const listed = await waitForReports(e, ask, fin);
    expect(listed.tabs.map((x) => x.name)).toEqual(names);

    // A terminal client views sh1 and controls it (the first viewer of a tab does).
    const term = e.attach();
    await waitForStrip(term, names, 'sh1');
    await term.waitForScreen((lines) => lines.slice(1).some((l) => l === PROMPT_SEEN), undefined, 'the shell prompt in sh1');

    web = await startWeb(e.run);
    expect(web.bind).toBe('127.0.0.1');
    expect(new URL(web.url).hostname).toBe('127.0.0.1');
    browser = await launchBrowser();
    const phone = await (await browser.phone()).newPage();
    await phone.goto(web.url);

    // Laid out for the phone's own width (a viewport meta), not a zoomed-out desktop page.
    expect(await phone.evaluate(() => [innerWidth, innerHeight])).toEqual([390, 844]);
    // The strip: every tab in order, with its glyph's name and character before the name.
    const expected = [
      { id: sh1, glyph: 'none', text: 'sh1' },
      { id: tabId(listed, 'sh2'), glyph: 'none', text: 'sh2' },
      { id: ask, glyph: 'needs-input', text: '? ask' },
      { id: fin, glyph: 'done', text: '✓ fin' },
    ];
    await waitFor(async () => JSON.stringify(await chips(phone)) === JSON.stringify(expected), {
      what: `the strip ${JSON.stringify(expected)}`,
    }).catch(async (error: Error) => {
      throw new Error(`${error.message}; chips: ${JSON.stringify(await chips(phone))}`);
    });
    // The inbox, the phone's first screen: the tab that needs input first, then the finished one.
    expect(await phone.isVisible('#inbox')).toBe(true);
    const inbox = await waitFor(async () => {
      const items = await inboxItems(phone);
      return items.length === names.length ? items : null;
    }, { what: 'one inbox item per tab' });
    expect(inbox[0]).toEqual({ id: ask, attention: 'needs-input' });
    expect(inbox[1]).toEqual({ id: fin, attention: 'done' });
    expect(inbox.slice(2).map((x) => x.attention)).toEqual(['none', 'none']);

    // The page views sh1 too: its screen, read-only while the terminal client controls the tab.
    await phone.click(`#inbox .inbox-item[data-tab-id="${sh1}"]`);
    await waitFor(async () => (await phone.evaluate(() => (window as unknown as WithA1Web).a1web.state().viewing)) === sh1, { what: 'the page viewing sh1' });
    await pageShows(phone, PROMPT_SEEN);
    expect(await phone.isVisible('#back'), 'the phone tab view has a Back button').toBe(true);
    expect(await phone.isVisible('#term')).toBe(true);
    expect(await phone.getAttribute(`#strip .chip[data-tab-id="${sh1}"]`, 'class')).toMatch(/\bviewed\b/);
    await waitForControl(phone, 'other');
    expect(await phone.isVisible('#readonly')).toBe(true);
    const marker = randomBytes(4).toString('hex');
    await phone.click('#term');
    await phone.keyboard.type(`echo ro-${marker}-$((6*7))`);
    await phone.keyboard.press('Enter');
    await holdsFor(READ_ONLY_WATCH_MS, 'keys typed on a read-only page', async () => {
      await term.flush();
      const seen = `${term.screenText().join('\n')}\n${await screenText(phone)}`;
      return seen.includes(`ro-${marker}-42`) ? 'the command ran in the tab' : null;
    });
    expect(await phone.isVisible('#readonly')).toBe(true);

    // The page takes control: the terminal client is now read-only and says which key takes it back.
    await phone.click('#control');
    await waitForControl(phone, 'you');
    expect(await phone.isVisible('#readonly')).toBe(false);
    expect((await phone.textContent('#control'))?.trim()).toBe('You control this tab');
    term.write('x');
    await term.waitForText(READ_ONLY_NOTICE);

    // Typed into the page's terminal, the command runs; its output is on the page and in the terminal.
    await phone.click('#term');
    await phone.keyboard.type(`echo web-${marker}-$((1000+7))`);
    await phone.keyboard.press('Enter');
    await pageShows(phone, `web-${marker}-1007`);
    await term.waitForText(`web-${marker}-1007`);
    // Controlling the tab does not resize it: it keeps the terminal client's 120×40 less the strip.
    await phone.keyboard.type(`echo size-${marker}-$(stty size | tr ' ' x)`);
    await phone.keyboard.press('Enter');
    await pageShows(phone, `size-${marker}-39x120`);
    await phone.screenshot({ path: path.join(SNAPSHOTS, 'web-phone.png') });

    // The terminal client takes control back: the page is read-only again and says so.
    term.write(KEY.takeControl);
    await waitForControl(phone, 'other');
    expect(await phone.isVisible('#readonly')).toBe(true);
    expect((await phone.textContent('#control'))?.trim()).toBe('Take control');
    await typeUntilShown(term, `echo term-${marker}-$((2000+7))`, `term-${marker}-2007`);
    await pageShows(phone, `term-${marker}-2007`);
    // What the page typed while read-only was dropped, not held back until it had control.
    expect(term.screenText().join('\n')).not.toContain(`ro-${marker}-42`);

    // The desktop layout: a new one-time token from the same web process; the inbox beside the tab.
    const again = await startWeb(e.run);
    expect(again.pid).toBe(web.pid);
    expect(again.token).not.toBe(web.token);
    const desktop = await (await browser.desktop()).newPage();
    await desktop.goto(again.url);
    await waitFor(async () => (await chips(desktop)).length === names.length, { what: 'the desktop strip' });
    await desktop.click(`#strip .chip[data-tab-id="${sh1}"]`);
    await pageShows(desktop, `term-${marker}-2007`);
    expect(await desktop.isVisible('#inbox'), 'the inbox as a sidebar beside the tab').toBe(true);
    expect(await desktop.isVisible('#term')).toBe(true);
    expect(await desktop.isVisible('#back')).toBe(false);
    await desktop.screenshot({ path: path.join(SNAPSHOTS, 'web-desktop.png') });
  });
});

describe('an agent answered from the phone', () => {
  it('a line from the compose box reaches the agent, and its permission prompt is answered with the y quick key', { timeout: 180_000 }, async () => {
    t = e2e();
    const e = t;
    const dir = useFakeAgent(e);
    const bot = await newAgentTab(e, 'bot');
    await newTab(e, '--name', 'sh');
    const { sessionId } = await waitForTabSession(e, bot);
    web = await startWeb(e.run);
    browser = await launchBrowser();
    const phone = await (await browser.phone()).newPage();
    await phone.goto(web.url);
    await phone.click(`#inbox .inbox-item[data-tab-id="${bot}"]`);
    await pageShows(phone, 'fake-agent session');
    // Nobody else views the tab, and a page takes control only when asked to.
    await waitForControl(phone, 'none');
    await phone.click('#control');
    await waitForControl(phone, 'you');

    // A line typed in the compose box and sent with Enter: the agent's permission prompt.
    const marker = randomBytes(4).toString('hex');
    await phone.fill('#compose', `/ask may-i-${marker}`);
    await phone.press('#compose', 'Enter');
    await waitFor(() => agentTranscript(dir, sessionId).some((x) => x.role === 'user' && x.text === `/ask may-i-${marker}`), {
      what: 'the composed line in the agent\'s transcript',
    });
    await pageShows(phone, 'allow this [y/n]');
    await waitFor(async () => (await chips(phone)).find((c) => c.id === bot)?.glyph === 'needs-input', { what: 'the bot chip asking' });
    expect((await inboxItems(phone))[0]).toEqual({ id: bot, attention: 'needs-input' });

    // Answered with the quick key: the agent goes on, replies and finishes its turn.
    await phone.click('#keys button[data-key="y"]');
    await waitFor(() => agentReports(dir, sessionId).some((r) => r.ok && r.state === 'done'), { what: 'the agent\'s turn done after y' });
    expect(agentTranscript(dir, sessionId).filter((x) => x.role === 'agent').map((x) => x.text)).toEqual([`reply 1 to: /ask may-i-${marker}`]);
    await pageShows(phone, `reply 1 to: /ask may-i-${marker}`);
  });
});

describe('a page whose session ends', () => {
  it('says so and stops, whether revoked or lost with a web process that was stopped and started again', { timeout: 120_000 }, async () => {
    t = e2e();
    const e = t;
    await newTab(e, '--name', 'sh');
    web = await startWeb(e.run);
    browser = await launchBrowser();
    const ended = async (page: Page) =>
      waitFor(async () => (await page.textContent('#notice'))?.includes('This session ended; run a1 web for a new link.') && (await page.getAttribute('#conn', 'data-state')) === 'ended', {
        what: 'the page saying its session ended',
      });
    // Revoked: the open socket is closed with 4401.
    const first = await (await browser.desktop()).newPage();
    await first.goto(web.url);
    await first.waitForSelector('#strip .chip');
    expect((await e.run('web', '--revoke')).code).toBe(0);
    await ended(first);
    // Lost: the web process stops, and the next one (same port) knows nothing of the old session.
    const second = await (await browser.desktop()).newPage();
    const link = await startWeb(e.run, '--port', String(web.port));
    await second.goto(link.url);
    await second.waitForSelector('#strip .chip');
    expect((await e.run('web', '--stop')).code).toBe(0);
    web = await startWeb(e.run, '--port', String(web.port));
    await ended(second);
  });
});

/** Types `command` + Enter in the terminal client until `output` shows: its regained control
 * reaches it asynchronously, and keys typed before it arrives are refused. */
async function typeUntilShown(term: PtyDriver, command: string, output: string): Promise<void> {
  await waitFor(async () => {
    term.write(`${command}\r`);
    return term.waitForText(output, 2_000).then(
      () => true,
      () => false,
    );
  }, { what: `${output} in the terminal client` });
}
