// Resize is desired state (SPEC §7): the controller's latest size is applied again until the
// holder reports it, so the holder's model, the PTY and the child's `stty size` converge on it
// after a resize lost in transit (the test-only fault `holder=drop-resize` drops one), a child
// restart, a holder restart (whose replacement starts at the tab's size, not at 120×40), a resize
// made while the holder is down, and a server restart.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { e2e, holderControl, listing, logEntries, PROMPT, PROMPT_SEEN, serverPids, waitForStrip, type E2E } from './harness.js';
import { listedTab, waitForNewChild } from './lifecycleHarness.js';
import { isAlive } from '../helpers/procs.js';
import type { PtyDriver } from '../helpers/pty.js';
import { waitFor } from '../helpers/wait.js';

let t: E2E;
afterEach(async () => {
  await t?.teardown();
});

/** The size of the PTY the child runs in, read from outside (`stty -F`): "rows cols". */
function ptySize(childPid: number): string {
  const tty = fs.readlinkSync(`/proc/${childPid}/fd/0`);
  return execFileSync('stty', ['-F', tty, 'size'], { encoding: 'utf8' }).trim();
}

/** The holder's model size as it reports it: "rows cols". */
async function modelSize(e: E2E, tabId: string): Promise<string> {
  const { conn, state } = await holderControl(e, tabId);
  conn.close();
  return `${state.rows} ${state.cols}`;
}

/** Waits until the tab's model and its PTY both have `size` ("rows cols"). */
async function waitForSize(e: E2E, tabId: string, size: string): Promise<void> {
  let seen = '';
  await waitFor(async () => {
    const tab = listedTab(await listing(e), tabId);
    if (tab.status !== 'running' || !tab.childPid) return false;
    seen = `model ${await modelSize(e, tabId)}, pty ${ptySize(tab.childPid)}`;
    return seen === `model ${size}, pty ${size}`;
  }, { what: `tab ${tabId} at ${size}` }).catch((err: Error) => {
    throw new Error(`${err.message}; last seen ${seen}`);
  });
}

let asked = 0;

/** What `stty size` says inside the tab, typed there; the awaited text is computed by the shell. */
async function sttyInTab(a1: PtyDriver, size: string): Promise<void> {
  const n = ++asked;
  a1.write(`echo sz${n}-$(stty size | tr ' ' x)\r`);
  await a1.waitForText(`sz${n}-${size.replace(' ', 'x')}`);
}

/** The sizes the tab's children started at, one line per start (the tab's command records it). */
function startSizes(file: string): string[] {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

/** SIGKILLs the tab's holder and waits for its replacement to run a new child. */
async function killHolder(e: E2E, tabId: string): Promise<void> {
  const before = listedTab(await listing(e), tabId);
  process.kill(before.holderPid!, 'SIGKILL');
  await waitFor(async () => {
    const now = listedTab(await listing(e), tabId);
    return now.status === 'running' && now.holderPid && now.holderPid !== before.holderPid && now.childPid && now.childPid !== before.childPid;
  }, { what: `a new holder and child for tab ${tabId}` });
}

describe('resize is desired state', () => {
  it('a resize lost in transit is sent again until the model, the PTY and the child have the controller\'s size', async () => {
    t = e2e();
    t.env.A1_TEST_FAULT_SIGUSR2 = 'holder=drop-resize';
    const a1 = t.attach();
    await a1.waitForText(PROMPT_SEEN);
    const tab = (await listing(t)).tabs[0];
    await waitForSize(t, tab.id, '39 120');
    process.kill(tab.holderPid!, 'SIGUSR2');
    await waitFor(() => logEntries(t, /^holder-/).some((l) => l.event === 'test-fault-armed'), { what: 'the holder armed to drop the next resize' });
    a1.resize(100, 30);
    await waitFor(() => logEntries(t, /^holder-/).some((l) => l.event === 'test-resize-dropped'), { what: 'the resize dropped' });
    await waitForSize(t, tab.id, '29 100');
    await sttyInTab(a1, '29 100');
    expect(listedTab(await listing(t), tab.id)).toMatchObject({ holderPid: tab.holderPid, childPid: tab.childPid });
  });

  it('after a child restart, a holder restart, a resize while the holder is down and a server restart, the child has the controller\'s size', async () => {
    t = e2e();
    const sizes = path.join(t.home.dir, 'start-sizes');
    t.env.START_SIZES = sizes;
    // A non-interactive bash drops PS1, so the shell it becomes is given it again.
    // An agent tab: only an agent is restarted after it crashes (issue 28).
    const made = await t.run('new', '--agent', 'generic', '--name', 'sized', '--', '/bin/bash', '-c', `stty size >> "$START_SIZES"; PS1='${PROMPT}' exec /bin/bash --norc --noprofile`);
    expect(made.code, made.stderr).toBe(0);
    const id = made.stdout.trim();
    const a1 = t.attach();
    await waitForStrip(a1, ['sized'], 'sized');
    await a1.waitForText(PROMPT_SEEN);
    a1.resize(100, 30);
    await waitForSize(t, id, '29 100');
    await sttyInTab(a1, '29 100');

    // A child restart: the new child starts at the tab's size.
    const crashed = listedTab(await listing(t), id).childPid!;
    process.kill(crashed, 'SIGKILL');
    await waitForNewChild(t, id, crashed);
    await waitForSize(t, id, '29 100');
    await sttyInTab(a1, '29 100');
    expect(startSizes(sizes).at(-1)).toBe('29 100');

    // A holder restart: the replacement holder starts its child at the tab's size, not 120×40.
    await killHolder(t, id);
    await waitFor(() => startSizes(sizes).length === 3, { what: 'the third child recording its start size' });
    expect(startSizes(sizes)[2]).toBe('29 100');
    await waitForSize(t, id, '29 100');
    await sttyInTab(a1, '29 100');

    // A resize while no holder runs: the replacement takes it once the client is back.
    const gone = listedTab(await listing(t), id);
    process.kill(gone.holderPid!, 'SIGKILL');
    await waitFor(() => !isAlive(gone.holderPid!), { what: 'the holder gone' });
    a1.resize(90, 25);
    await waitFor(async () => {
      const now = listedTab(await listing(t), id);
      return now.status === 'running' && now.holderPid !== gone.holderPid && now.childPid !== gone.childPid;
    }, { what: 'a new holder after the resize' });
    await waitForSize(t, id, '24 90');
    await sttyInTab(a1, '24 90');

    // A server restart: the replacement learns the tab's size from the holder it adopts, so a
    // holder lost after it starts at that size too.
    const server = (await listing(t)).server!.pid;
    process.kill(server, 'SIGKILL');
    await waitFor(async () => {
      const l = await listing(t);
      return l.server && l.server.pid !== server && l.tabs[0]?.status === 'running';
    }, { what: 'a replacement server' });
    expect(serverPids(t)).toHaveLength(1);
    await waitForSize(t, id, '24 90');
    const starts = startSizes(sizes).length;
    await killHolder(t, id);
    await waitFor(() => startSizes(sizes).length === starts + 1, { what: 'the next child recording its start size' });
    expect(startSizes(sizes).at(-1)).toBe('24 90');
    await waitForSize(t, id, '24 90');
    await sttyInTab(a1, '24 90');
  });
});
