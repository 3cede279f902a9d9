// `a1 web`'s limits (issue 20): a page that stops reading never stalls a tab (the web process
// keeps reading the holder and sends that page the whole surface once it drains), and a session
// with no page open ends after its idle time.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { e2e, listing, stateDir, type E2E } from './harness.js';
import { waitFor } from '../helpers/wait.js';
import type { WebToPage } from '../../src/web/protocol.js';
import { startWeb as startWebProcess, stopWebProcess, type WebStart } from '../helpers/browser.js';

/** Spends the link's token for the session cookie, as a browser following it would. */
async function sessionCookie(url: string): Promise<string> {
  const res = await fetch(url, { redirect: 'manual' });
  expect(res.status).toBe(303);
  const set = res.headers.get('set-cookie') ?? '';
  return set.split(';')[0];
}

function origin(url: string): string {
  return new URL(url).origin;
}

/** A page's WebSocket that records what it receives. */
function openPage(url: string, cookie: string): { ws: WebSocket; got: WebToPage[]; opened: Promise<void> } {
  const base = origin(url);
  const ws = new WebSocket(`${base.replace('http', 'ws')}/ws`, { headers: { Cookie: cookie, Origin: base } });
  const got: WebToPage[] = [];
  ws.on('message', (data) => got.push(JSON.parse(String(data)) as WebToPage));
  const opened = new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return { ws, got, opened };
}

function webLog(t: E2E): string {
  try {
    return fs.readFileSync(path.join(stateDir(t), 'logs', 'web.log'), 'utf8');
  } catch {
    return '';
  }
}

describe('a1 web limits', () => {
  let t: E2E;
  const webs: WebStart[] = [];
  const sockets: WebSocket[] = [];
  /** `a1 web --port 0 --json …`, ended by pid after the test. */
  const startWeb = async (t: E2E, ...extra: string[]): Promise<WebStart> => {
    const web = await startWebProcess(t.run, ...extra);
    webs.push(web);
    return web;
  };
  beforeEach(() => {
    t = e2e();
  });
  afterEach(async () => {
    for (const ws of sockets) ws.terminate();
    for (const web of webs.splice(0)) stopWebProcess(web);
    await t.teardown();
  });

  it('a page that stops reading never stalls its tab, and gets the whole surface once it reads again', async () => {
    const counter = path.join(t.home.dir, 'lines');
    // Prints as fast as the holder reads, and says how far it got every thousand lines.
    const script = `i=0; while :; do i=$((i+1)); echo "line $i ................................................................"; if [ $((i % 1000)) = 0 ]; then echo $i > ${counter}; fi; done`;
    expect((await t.run('new', '--name', 'flood', '--', '/bin/bash', '-c', script)).code).toBe(0);
    const tab = (await listing(t)).tabs.find((x) => x.name === 'flood')!;
    const web = await startWeb(t);
    const slow = openPage(web.url, await sessionCookie(web.url));
    sockets.push(slow.ws);
    await slow.opened;
    slow.ws.send(JSON.stringify({ t: 'view', tabId: tab.id }));
    await waitFor(() => slow.got.some((m) => m.t === 'surface'), { timeoutMs: 30_000, what: 'the first surface' });
    // The browser stops reading: its socket's receive side is paused, so the web process's sends back up.
    const raw = (slow.ws as unknown as { _socket: import('node:net').Socket })._socket;
    raw.pause();
    await waitFor(() => webLog(t).includes('"page-behind"'), { timeoutMs: 60_000, what: 'the web process to find the page behind' });
    // The tab goes on: its program prints thousands of lines more while the page reads nothing.
    const at = Number(fs.readFileSync(counter, 'utf8'));
    await waitFor(() => Number(fs.readFileSync(counter, 'utf8')) >= at + 20_000, { timeoutMs: 60_000, what: 'the flooding tab to go on printing' });
    // Another page of the same tab is served meanwhile.
    const other = openPage(web.url, await sessionCookie((await startWeb(t)).url));
    sockets.push(other.ws);
    await other.opened;
    other.ws.send(JSON.stringify({ t: 'view', tabId: tab.id }));
    await waitFor(() => other.got.filter((m) => m.t === 'surface').length >= 5, { timeoutMs: 30_000, what: 'a second page to get patches' });
    // The slow page reads again: what it is sent next is the whole surface, not the patches it missed.
    const before = slow.got.length;
    raw.resume();
    await waitFor(() => slow.got.slice(before).some((m) => m.t === 'surface' && m.patch.full), { timeoutMs: 60_000, what: 'the whole surface after draining' });
  });

  it('a page keeps its tab through a server crash: typing still reaches it, and the strip follows the new server', async () => {
    expect((await t.run('new', '--name', 'one')).code).toBe(0);
    const tab = (await listing(t)).tabs.find((x) => x.name === 'one')!;
    const web = await startWeb(t);
    const page = openPage(web.url, await sessionCookie(web.url));
    sockets.push(page.ws);
    await page.opened;
    page.ws.send(JSON.stringify({ t: 'view', tabId: tab.id }));
    page.ws.send(JSON.stringify({ t: 'claim' }));
    await waitFor(() => page.got.some((m) => m.t === 'control' && m.control === 'you'), { timeoutMs: 30_000, what: 'the page to control the tab' });
    const serverPid = (await listing(t)).server!.pid;
    process.kill(serverPid, 'SIGKILL');
    const screen = () =>
      page.got
        .filter((m): m is Extract<WebToPage, { t: 'surface' }> => m.t === 'surface')
        .flatMap((m) => m.patch.lines.map((l) => l.runs.map((r) => r.s).join('')))
        .join('\n');
    const type = (text: string) => page.ws.send(JSON.stringify({ t: 'input', events: [{ k: 'text', s: text }, { k: 'key', key: 'enter' }] }));
    // The data plane does not go through the server: the page types while it is gone or coming back.
    type('echo during-$((40+2))');
    await waitFor(() => screen().includes('during-42'), { timeoutMs: 30_000, what: 'the output typed across the crash' });
    // A replacement server comes up (the page's link starts one, as bare a1 would) and the strip follows it.
    await waitFor(async () => ((await listing(t)).server?.pid ?? serverPid) !== serverPid, { timeoutMs: 30_000, what: 'a new server' });
    expect((await t.run('new', '--name', 'two')).code).toBe(0);
    await waitFor(() => page.got.some((m) => m.t === 'tabs' && m.tabs.some((x) => x.name === 'two')), { timeoutMs: 30_000, what: 'the new tab on the strip' });
    type('echo after-$((40+3))');
    await waitFor(() => screen().includes('after-43'), { timeoutMs: 30_000, what: 'the output typed after the crash' });
    // The page was told the server was being replaced, and that notice was cleared once it was back.
    const notices = page.got.filter((m): m is Extract<WebToPage, { t: 'notice' }> => m.t === 'notice').map((m) => m.text);
    expect(notices).toContain('reconnecting…');
    expect(notices.at(-1)).toBe('');
  });

  it('a viewed tab that is closed leaves the page viewing nothing, told which tab closed', async () => {
    expect((await t.run('new', '--name', 'keep')).code).toBe(0);
    expect((await t.run('new', '--name', 'doomed')).code).toBe(0);
    const doomed = (await listing(t)).tabs.find((x) => x.name === 'doomed')!;
    const web = await startWeb(t);
    const page = openPage(web.url, await sessionCookie(web.url));
    sockets.push(page.ws);
    await page.opened;
    page.ws.send(JSON.stringify({ t: 'view', tabId: doomed.id }));
    await waitFor(() => page.got.some((m) => m.t === 'surface'), { timeoutMs: 30_000, what: 'the tab on the page' });
    expect((await t.run('tabs', 'stop', doomed.id)).code).toBe(0);
    await waitFor(() => page.got.some((m) => m.t === 'viewing' && m.tabId === null), { timeoutMs: 30_000, what: 'the page to view nothing' });
    expect(page.got).toContainEqual({ t: 'notice', text: 'Tab doomed was closed.' });
    const last = page.got.filter((m) => m.t === 'tabs').at(-1) as Extract<WebToPage, { t: 'tabs' }>;
    expect(last.tabs.map((x) => x.name)).toEqual(['keep']);
  });

  it('a killed web process is replaced by the next a1 web, on the same port', async () => {
    const first = await startWeb(t);
    process.kill(first.pid, 'SIGKILL');
    await waitFor(() => !fs.existsSync(`/proc/${first.pid}`) || fs.readFileSync(`/proc/${first.pid}/stat`, 'utf8').split(') ')[1]?.startsWith('Z'), { what: 'the web process to die' });
    const again = await startWeb(t, '--port', String(first.port));
    expect(again.pid).not.toBe(first.pid);
    expect(again.port).toBe(first.port);
    const cookie = await sessionCookie(again.url);
    expect((await fetch(`${origin(again.url)}/`, { headers: { Cookie: cookie } })).status).toBe(200);
  });

  it('a session with no page open ends after its idle time; its cookie then gets 401 and nothing else', async () => {
    // 0.02 minutes: 1.2 s.
    const web = await startWeb(t, '--idle-minutes', '0.02');
    const cookie = await sessionCookie(web.url);
    const base = origin(web.url);
    expect((await fetch(`${base}/`, { headers: { Cookie: cookie } })).status).toBe(200);
    // Asking the web process how many sessions live does not touch them; the page's requests would.
    await waitFor(
      async () => {
        const r = await t.run('web', '--json');
        return (JSON.parse(r.stdout) as WebStart).sessions === 0;
      },
      { timeoutMs: 30_000, what: 'the idle session to end' },
    );
    const res = await fetch(`${base}/`, { headers: { Cookie: cookie } });
    expect(res.status).toBe(401);
    expect(await res.text()).toBe('');
  });
});
