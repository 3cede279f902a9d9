// `a1 events --json` (issue 18): the real binary watching a real server: a snapshot, then the
// tabs' topology, status and lifecycle changes in order, NDJSON, until the host stops; it never
// attaches or starts a server, and ends quietly when its reader leaves or on Ctrl+C.
import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { A1_BIN, a1Argv } from '../helpers/pty.js';
import { waitFor } from '../helpers/wait.js';
import { isAlive } from '../helpers/procs.js';
import { e2e, hostStop, listing, protocolClient, serverPids, type E2E } from './harness.js';
import { controlAgent, newAgentTab, useFakeAgent, waitForTabSession } from './lifecycleHarness.js';

interface Event {
  version: number;
  event: string;
  at: number;
  tab?: { id: string; name: string; position: number; status: string; glyph: string | null; attention: string | null; agent: { state: string | null } | null };
  tabs?: { id: string; name: string }[];
  change?: string;
  changed?: string[];
  from?: unknown;
  reason?: string;
}

let t: E2E;
const started: ChildProcess[] = [];
afterEach(async () => {
  for (const p of started.splice(0)) if (p.exitCode === null && p.pid && isAlive(p.pid)) process.kill(p.pid, 'SIGKILL');
  await t?.teardown();
});

/** `a1 events --json` as a process whose lines the test reads as they come. */
function watchEvents(): { proc: ChildProcess; events: Event[]; stderr: () => string; exited: Promise<number | null> } {
  const [file, ...args] = a1Argv('events', '--json');
  const proc = spawn(file, args, { env: t.env, cwd: t.home.dir, stdio: ['ignore', 'pipe', 'pipe'] });
  started.push(proc);
  const events: Event[] = [];
  let buf = '';
  let err = '';
  proc.stdout!.on('data', (d: Buffer) => {
    buf += d.toString('utf8');
    for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
      events.push(JSON.parse(buf.slice(0, nl)) as Event);
      buf = buf.slice(nl + 1);
    }
  });
  proc.stderr!.on('data', (d: Buffer) => (err += d.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  return { proc, events, stderr: () => err, exited };
}

/** The index of the first event at or after `from` that `match` accepts, once it has come. */
function eventAfter(events: Event[], from: number, match: (e: Event) => boolean, what: string): Promise<number> {
  // Wrapped: waitFor takes a falsy 0 for "not yet".
  return waitFor(() => {
    const i = events.findIndex((e, n) => n >= from && match(e));
    return i >= 0 ? { i } : null;
  }, { what }).then(({ i }) => i);
}

describe('a1 events --json', () => {
  it('streams a snapshot, then create, rename, move, an agent status, close and the host stop, in order', async () => {
    t = e2e({ closeGraceMs: 300 });
    const dir = useFakeAgent(t);
    const sh = (await t.run('new', '--name', 'sh')).stdout.trim();
    await waitFor(async () => (await listing(t)).tabs.find((x) => x.id === sh && x.status === 'running'), { what: 'the sh tab running' });
    const w = watchEvents();
    const snap = await eventAfter(w.events, 0, (e) => e.event === 'snapshot', 'the snapshot');
    expect(snap).toBe(0);
    expect(w.events[0]).toMatchObject({ version: 1, event: 'snapshot', tabs: [{ id: sh, name: 'sh', position: 1, status: 'running' }] });
    expect(typeof w.events[0].at).toBe('number');

    // A watcher is no attached client: host status counts none.
    const host = JSON.parse((await t.run('tabs', 'host', 'status', '--json')).stdout) as { server: { clients: number } };
    expect(host.server.clients).toBe(0);

    const bot = await newAgentTab(t, 'bot');
    const created = await eventAfter(w.events, 1, (e) => e.event === 'tab-created' && e.tab?.id === bot, 'bot created');
    expect(w.events[created].tab).toMatchObject({ name: 'bot', position: 2 });
    const running = await eventAfter(w.events, created, (e) => e.event === 'lifecycle' && e.change === 'started' && e.tab?.id === bot, 'bot started');

    const client = await protocolClient(t);
    try {
      await client.request('rename', { tabId: bot, name: 'helper' });
      const renamed = await eventAfter(w.events, running, (e) => e.event === 'tab-renamed' && e.tab?.id === bot, 'bot renamed');
      expect(w.events[renamed]).toMatchObject({ from: 'bot', tab: { name: 'helper' } });
      await client.request('reorder', { tabId: bot, toIndex: 0 });
      const moved = await eventAfter(w.events, renamed, (e) => e.event === 'tab-moved' && e.tab?.id === bot, 'bot moved');
      expect(w.events[moved]).toMatchObject({ from: 2, tab: { position: 1 } });

      // The agent asks: its status, glyph and attention say so.
      const { sessionId } = await waitForTabSession(t, bot);
      controlAgent(dir, sessionId, '/ask may I');
      const asks = await eventAfter(w.events, moved, (e) => e.event === 'status' && e.tab?.id === bot && e.tab.attention === 'needs-input', 'bot asking');
      expect(w.events[asks]).toMatchObject({ tab: { glyph: 'needs-input', agent: { state: 'needs-input' } } });
      expect(w.events[asks].changed).toEqual(expect.arrayContaining(['glyph', 'attention', 'agent']));

      expect((await t.run('tabs', 'stop', sh)).code).toBe(0);
      const closed = await eventAfter(w.events, asks, (e) => e.event === 'tab-closed' && e.tab?.id === sh, 'sh closed');
      expect(w.events[closed].tab).toMatchObject({ name: 'sh' });
    } finally {
      client.close();
    }

    await hostStop(t);
    expect(await w.exited).toBe(0);
    const last = w.events[w.events.length - 1];
    expect(last).toMatchObject({ version: 1, event: 'server-stopped', reason: 'host-stop' });
    expect(w.events.every((e) => e.version === 1)).toBe(true);
    expect(w.stderr()).toBe('');
  });

  it('ends at once, exit 0 and silent, when its reader leaves (| head -1) and on Ctrl+C', async () => {
    t = e2e();
    expect((await t.run('new', '--name', 'sh')).code).toBe(0);
    const pipeline = spawn('/bin/sh', ['-c', `"${process.execPath}" "${A1_BIN}" events --json | head -1`], { env: t.env, cwd: t.home.dir, stdio: ['ignore', 'pipe', 'pipe'] });
    started.push(pipeline);
    let out = '';
    let err = '';
    pipeline.stdout!.on('data', (d: Buffer) => (out += d.toString('utf8')));
    pipeline.stderr!.on('data', (d: Buffer) => (err += d.toString('utf8')));
    // No event follows the snapshot: the pipeline ends because the watcher saw its reader go.
    const code = await new Promise<number | null>((resolve) => pipeline.on('exit', resolve));
    expect(code).toBe(0);
    expect(err).toBe('');
    expect(out.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(out)).toMatchObject({ version: 1, event: 'snapshot' });

    const w = watchEvents();
    await eventAfter(w.events, 0, (e) => e.event === 'snapshot', 'the snapshot');
    w.proc.kill('SIGINT');
    expect(await w.exited).toBe(0);
    expect(w.stderr()).toBe('');
    expect((await listing(t)).tabs).toHaveLength(1);
  });

  it('with no server says so in one sentence, exits 1 and starts none', async () => {
    t = e2e();
    const r = await t.run('events', '--json');
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/No a1 server is running for profile "default"/);
    expect(serverPids(t)).toEqual([]);
  });
});
