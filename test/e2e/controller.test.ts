// Two terminals on one profile (SPEC §6, §8, §15 "Controller"): each keeps its own viewed tab,
// a tab has at most one input controller, Alt+I takes control, control follows viewers,
// and two mutations at one revision have exactly one winner that every client converges on.
// Keystrokes are counted from a file a fixture writes in the tab, never from screen text.
import { describe, it, expect, afterEach } from 'vitest';
import {
  detach,
  e2e,
  KEY,
  homeFile,
  listing,
  probeViewed,
  protocolClient,
  PROMPT_SEEN,
  subscribe,
  waitForForegroundJob,
  waitForStrip,
  type E2E,
  tabId,
  tabNames,
  waitForListing,
} from './harness.js';
import type { PtyDriver } from '../helpers/pty.js';
import { waitFor } from '../helpers/wait.js';
import { ServerError, type ServerClient } from '../../src/client/serverClient.js';
import { connectUnix, type Connection } from '../../src/protocol/connection.js';
import { connectHandshake } from '../../src/protocol/handshake.js';
import { dataSchema } from '../../src/protocol/messages.js';

/** Names the take-control key, as the read-only notice must (default Alt+I). */
const READ_ONLY_NOTICE = /read-only.*Alt\+I takes control/;
/** Between attempts to type while a controller transfer is still on its way. */
const RETYPE_INTERVAL_MS = 300;

let t: E2E;
let protocolClients: ServerClient[] = [];
let dataConns: Connection[] = [];
afterEach(async () => {
  for (const c of dataConns) c.close();
  for (const c of protocolClients) c.close();
  dataConns = [];
  protocolClients = [];
  await t?.teardown();
});

/** The keystroke counter: the tab's terminal stops echoing and stops collecting lines, and `cat`
 * appends every byte the child receives to `file` as it arrives. SIGINT is ignored so that the
 * first Ctrl+C of a detach (which reaches the tab by design) leaves the counter running. */
async function startCounter(a1: PtyDriver, tabId: string, file: string): Promise<void> {
  a1.write(`trap '' INT; stty -icanon -echo; cat > ${file}\r`);
  await waitForForegroundJob(t, tabId);
}

/** Types `ch` every few hundred ms until the fixture has received it: a controller transfer
 * reaches a client asynchronously, and what it typed before holding control is refused. */
async function typeUntilReceived(a1: PtyDriver, ch: string, file: string): Promise<void> {
  await waitFor(() => {
    if (homeFile(t, file).includes(ch)) return true;
    a1.write(ch);
    return false;
  }, { intervalMs: RETYPE_INTERVAL_MS, what: `"${ch}" received by the tab` });
}

async function attachViewing(expectedNames: readonly string[], viewed: string): Promise<PtyDriver> {
  const a1 = t.attach();
  await waitForStrip(a1, expectedNames, viewed);
  return a1;
}

describe('two clients', () => {
  it('show the same tabs and each keeps its own viewed tab', async () => {
    t = e2e();
    const a = t.attach();
    await a.waitForText(PROMPT_SEEN);
    const first = tabId(await waitForListing(t, ['agent']), 'agent');
    const b = await attachViewing(['agent'], 'agent');
    b.write(KEY.newTab);
    await waitForStrip(b, ['agent', 'agent 2'], 'agent 2');
    const second = tabId(await waitForListing(t, ['agent', 'agent 2']), 'agent 2');
    await probeViewed(b, second);
    await waitForStrip(a, ['agent', 'agent 2'], 'agent');
    await probeViewed(a, first);
    a.write(KEY.newTab);
    await waitForStrip(a, ['agent', 'agent 2', 'agent 3'], 'agent 3');
    const third = tabId(await waitForListing(t, ['agent', 'agent 2', 'agent 3']), 'agent 3');
    await probeViewed(a, third);
    await waitForStrip(b, ['agent', 'agent 2', 'agent 3'], 'agent 2');
    await probeViewed(b, second);
  });

  it('only the controller’s keystrokes reach the child; after Alt+I the old controller’s are refused', async () => {
    t = e2e();
    const a = t.attach();
    await a.waitForText(PROMPT_SEEN);
    const tab = tabId(await waitForListing(t, ['agent']), 'agent');
    // A views a tab nobody controls, so A controls it.
    await startCounter(a, tab, 'keys.txt');
    const b = await attachViewing(['agent'], 'agent');

    b.write('b');
    await b.waitForText(READ_ONLY_NOTICE);
    a.write('a');
    await waitFor(() => homeFile(t, 'keys.txt').includes('a'), { what: 'A’s key received' });
    expect(homeFile(t, 'keys.txt')).toBe('a');
    b.write('bbb');
    a.write('aa');
    await waitFor(() => homeFile(t, 'keys.txt').split('a').length - 1 === 3, { what: 'A’s keys received' });
    expect(homeFile(t, 'keys.txt')).toBe('aaa');

    // B takes control; from then on B's keys arrive and A's never do.
    b.write(KEY.takeControl);
    await typeUntilReceived(b, 'c', 'keys.txt');
    a.write('xx');
    await a.waitForText(READ_ONLY_NOTICE);
    b.write('Z');
    await waitFor(() => homeFile(t, 'keys.txt').endsWith('Z'), { what: 'B’s key after A’s attempt' });
    expect(homeFile(t, 'keys.txt')).toMatch(/^aaac+Z$/);
  });

  it('the holder refuses input that carries a stale controller revision, without delivering a byte', async () => {
    t = e2e();
    const a = t.attach();
    await a.waitForText(PROMPT_SEEN);
    const tab = tabId(await waitForListing(t, ['agent']), 'agent');
    await startCounter(a, tab, 'keys.txt');
    // A protocol-level sender that, unlike the client, never checks whether it still controls.
    const p = await protocolClient(t);
    protocolClients.push(p);
    await subscribe(p, 'cl_stale');
    const grant = await p.request('view', { tabId: tab });
    expect(await p.request('claim', { tabId: tab, force: true })).toEqual({ controller: true });
    const data = await connectUnix(grant.socketPath, dataSchema, 5_000);
    dataConns.push(data);
    await connectHandshake(data, {
      role: 'data',
      key: Buffer.from(grant.proofKey, 'base64'),
      methods: ['surface', 'input', 'resize'],
      extra: { ticket: grant.ticket },
      timeoutMs: 5_000,
    });
    const controllers: { clientId: string | null; rev: number }[] = [];
    const rejections: string[] = [];
    data.onMessage((msg) => {
      const m = msg as { t: string; clientId?: string | null; rev?: number; reason?: string };
      if (m.t === 'controller') controllers.push({ clientId: m.clientId ?? null, rev: m.rev! });
      if (m.t === 'inputRejected') rejections.push(m.reason!);
    });
    data.send({ t: 'attach', cols: 80, rows: 24 });
    const mine = await waitFor(() => controllers.find((c) => c.clientId === 'cl_stale'), { what: 'the probe controls the tab' });
    data.send({ t: 'input', rev: mine.rev, events: [{ k: 'text', s: 'p' }] });
    await waitFor(() => homeFile(t, 'keys.txt') === 'p', { what: 'the probe’s key received while it controls' });

    // The real client takes control back: the probe's revision is now stale.
    a.write(KEY.takeControl);
    const next = await waitFor(() => controllers.find((c) => c.rev > mine.rev), { what: 'a controller transfer' });
    expect(next.clientId).not.toBe('cl_stale');
    data.send({ t: 'input', rev: mine.rev, events: [{ k: 'text', s: 'STALE' }] });
    data.send({ t: 'input', rev: next.rev, events: [{ k: 'text', s: 'OTHER' }] });
    await waitFor(() => rejections.length === 2, { what: 'both inputs refused' });
    expect(rejections).toEqual(['read-only', 'read-only']);
    await typeUntilReceived(a, 'q', 'keys.txt');

    // The probe takes control again: input under its first revision is still stale, though
    // the client id matches; only the current revision is admitted.
    expect(await p.request('claim', { tabId: tab, force: true })).toEqual({ controller: true });
    const again = await waitFor(() => controllers.find((c) => c.clientId === 'cl_stale' && c.rev > next.rev), { what: 'the probe controls again' });
    data.send({ t: 'input', rev: mine.rev, events: [{ k: 'text', s: 'OLD' }] });
    await waitFor(() => rejections.length === 3, { what: 'the old revision refused' });
    expect(rejections[2]).toBe('read-only');
    data.send({ t: 'input', rev: again.rev, events: [{ k: 'text', s: 'r' }] });
    await waitFor(() => homeFile(t, 'keys.txt').endsWith('r'), { what: 'the current revision admitted' });
    expect(homeFile(t, 'keys.txt')).toMatch(/^pq+r$/);
  });

  it('control passes to another viewer when the controller looks away, or to nobody until a client views it', async () => {
    t = e2e();
    const a = t.attach();
    await a.waitForText(PROMPT_SEEN);
    const tab = tabId(await waitForListing(t, ['agent']), 'agent');
    await startCounter(a, tab, 'keys.txt');
    const b = await attachViewing(['agent'], 'agent');
    b.write('b');
    await b.waitForText(READ_ONLY_NOTICE);

    // A views a new tab: B, still viewing the first, takes over.
    a.write(KEY.newTab);
    await waitForStrip(a, ['agent', 'agent 2'], 'agent 2');
    const second = tabId(await waitForListing(t, ['agent', 'agent 2']), 'agent 2');
    await typeUntilReceived(b, 'B', 'keys.txt');
    expect(homeFile(t, 'keys.txt')).toMatch(/^B+$/);

    // B looks away too: nobody controls the first tab, and A, coming back, controls it.
    b.write(KEY.nextTab);
    await waitForStrip(b, ['agent', 'agent 2'], 'agent 2');
    a.write('\x1b1');
    await waitForStrip(a, ['agent', 'agent 2'], 'agent');
    await typeUntilReceived(a, 'A', 'keys.txt');
    expect(homeFile(t, 'keys.txt')).toMatch(/^B+A+$/);
    // A left the second tab to B, who now types there.
    await probeViewed(b, second);

    // A detaches: B, viewing the first tab again, controls it.
    b.write('\x1b1');
    await waitForStrip(b, ['agent', 'agent 2'], 'agent');
    await detach(a);
    await typeUntilReceived(b, 'D', 'keys.txt');
    expect(homeFile(t, 'keys.txt')).toMatch(/^B+A+D+$/);
  });

  it('two clients reorder at one revision: exactly one commits, the other gets a conflict, both strips converge', async () => {
    t = e2e();
    const a = t.attach();
    await a.waitForText(PROMPT_SEEN);
    a.write(KEY.newTab);
    await waitForStrip(a, ['agent', 'agent 2'], 'agent 2');
    a.write(KEY.newTab);
    await waitForStrip(a, ['agent', 'agent 2', 'agent 3'], 'agent 3');
    const l = await waitForListing(t, ['agent', 'agent 2', 'agent 3']);
    const b = await attachViewing(['agent', 'agent 2', 'agent 3'], 'agent 3');
    b.write('\x1b1');
    await waitForStrip(b, ['agent', 'agent 2', 'agent 3'], 'agent');

    const p1 = await protocolClient(t);
    const p2 = await protocolClient(t);
    protocolClients.push(p1, p2);
    // Both read the same revision, then both mutate against it.
    const [rev1, rev2] = await Promise.all([subscribe(p1, 'cl_race1'), subscribe(p2, 'cl_race2')]);
    expect(rev1).toBe(rev2);
    const [agent, , agent3] = l.tabs.map((x) => x.id);
    const results = await Promise.allSettled([
      p1.request('reorder', { tabId: agent3, toIndex: 0, expectedRev: rev1 }),
      p2.request('reorder', { tabId: agent, toIndex: 2, expectedRev: rev2 }),
    ]);
    const won = results.filter((r) => r.status === 'fulfilled');
    const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect(lost[0].reason).toBeInstanceOf(ServerError);
    expect((lost[0].reason as ServerError).code).toBe('conflict');
    const committed = results[0].status === 'fulfilled' ? ['agent 3', 'agent', 'agent 2'] : ['agent 2', 'agent 3', 'agent'];
    await waitForStrip(a, committed, 'agent 3');
    await waitForStrip(b, committed, 'agent');
    expect(tabNames(await listing(t))).toEqual(committed);
  });
});
