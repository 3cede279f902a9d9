// Tabs outlive their terminal, their client and their server.
import { describe, it, expect, afterEach } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { e2e, listing as readListing, PROMPT, PROMPT_SEEN, takeLeaseNow, type E2E } from './harness.js';
import { waitFor } from '../helpers/wait.js';
import { isAlive, pidsWithEnv } from '../helpers/procs.js';
import { PtyDriver } from '../helpers/pty.js';

let t: E2E;
afterEach(async () => {
  await t?.teardown();
});

interface Listing {
  server: { pid: number; epoch: number } | null;
  tabs: { id: string; name: string; status: string; cwd: string; holderPid: number | null; childPid: number | null }[];
}

async function listing(t: E2E): Promise<Listing> {
  return readListing(t);
}

async function detach(a1: PtyDriver): Promise<void> {
  a1.write('\x03\x03');
  await a1.exited;
}

describe('resident tabs', () => {
  it('shows what a tab printed while detached, without replaying it', async () => {
    t = e2e();
    const a1 = t.attach();
    await a1.waitForText(PROMPT_SEEN);
    // In the background: the first Ctrl+C of the detach goes to the tab's foreground job.
    a1.write("{ while [ ! -f go ]; do sleep 0.05; done; seq -f 'num-%.0f' 1 1000000; echo END-$((40+2)); echo finished > done.txt; } &\r");
    await a1.waitForText(/^\[1\] \d+/);
    await detach(a1);
    fs.writeFileSync(path.join(t.home.dir, 'go'), '');
    await waitFor(() => fs.existsSync(path.join(t.home.dir, 'done.txt')), { what: 'the loop finished while detached', timeoutMs: 60_000 });
    const again = t.attach();
    const screen = await again.waitForText('END-42', 30_000);
    const text = screen.map((l) => l.trim());
    expect(text).toContain('num-1000000');
    expect(text).toContain('num-999990');
    // About 7 MiB were printed; the reattaching client gets the screen, not the stream.
    expect(again.mark()).toBeLessThan(64 * 1024);
  });

  it('survives kill -9 of the server: same child, live surface, higher epoch, re-adopted', async () => {
    t = e2e();
    const a1 = t.attach();
    await a1.waitForText(PROMPT_SEEN);
    const before = await listing(t);
    expect(before.server).not.toBeNull();
    const childPid = before.tabs[0].childPid!;
    a1.write("for i in $(seq 1 100000); do echo tick-$i; sleep 0.05; done\r");
    await a1.waitForText(/tick-\d+/);
    // Hold the writer lease so that no replacement can start during the whole check. The lock
    // is taken in a tight loop the moment the kernel releases it: a replacement needs a whole
    // Node start before it even asks.
    process.kill(before.server!.pid, 'SIGKILL');
    const lease = takeLeaseNow(t);
    try {
      const status = await t.run('tabs', 'host', 'status');
      expect(status.code).toBe(0);
      expect(status.stdout).toMatch(/No a1 server is running/);
      await a1.waitForText('reconnecting…');
      // Output keeps arriving and input is accepted over the data plane.
      const tickNow = () => Math.max(0, ...a1.screenText().map((l) => Number(/tick-(\d+)/.exec(l)?.[1] ?? 0)));
      const seen = tickNow();
      await a1.waitForScreen(() => tickNow() > seen + 3, undefined, 'ticks during the outage');
      a1.write('\x03');
      await a1.waitForText(PROMPT_SEEN);
      a1.write('echo outage-$((2+3))\r');
      await a1.waitForText('outage-5');
      // Still no server: the client's replacement attempts meet the held lease and give up (one
      // may be starting right now, so the check is that none serves, not that none exists).
      const still = await t.run('tabs', 'host', 'status');
      expect(still.stdout).toMatch(/No a1 server is running/);
    } finally {
      lease.release();
    }
    await a1.waitForScreen((lines) => !lines.join('\n').includes('reconnecting…'), 30_000, 'reconnected');
    const after = await listing(t);
    expect(after.server!.epoch).toBeGreaterThan(before.server!.epoch);
    expect(after.tabs[0].childPid).toBe(childPid);
    expect(after.tabs[0].holderPid).toBe(before.tabs[0].holderPid);
    expect(isAlive(childPid)).toBe(true);
    a1.write('echo same-$((3*3))\r');
    await a1.waitForText('same-9');
    const other = t.attach();
    await other.waitForText('same-9');
    await other.waitForText('outage-5');
  });

  it('a kill -9 of the client leaves the tab running; the next a1 restores the terminal', async () => {
    t = e2e();
    const shell = new PtyDriver({ argv: ['/bin/bash', '--norc', '--noprofile'], env: { ...t.env, PS1: 'outer$ ' }, cwd: t.home.dir });
    try {
      const attached = (lines: string[]) => /\bagent\b/.test(lines[0]) && lines.some((l) => l.startsWith(PROMPT_SEEN));
      await shell.waitForText('outer$');
      shell.write(`PS1='${PROMPT}' ${process.execPath} ${path.resolve('bin/a1')}\r`);
      await shell.waitForScreen(attached, undefined, 'a1 attached');
      const before = await listing(t);
      const clientPid = pidsWithEnv('A1_HOME', t.home.dir).find((pid) => {
        const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
        return cmd.some((c) => c.endsWith('bin/a1')) && !cmd.includes('__server') && !cmd.includes('__holder') && !cmd.includes('tabs');
      })!;
      expect(clientPid).toBeGreaterThan(0);
      process.kill(clientPid, 'SIGKILL');
      await shell.waitForScreen((lines) => lines.some((l) => l.trim() === 'outer$'), undefined, 'the outer prompt after the kill');
      expect(shell.bufferType()).toBe('alternate'); // left dirty by the killed client
      // Wipe the dead client's picture, so that only the next client can satisfy the wait.
      shell.write('clear\r');
      await shell.waitForScreen((lines) => !lines.some((l) => l.includes('agent')), undefined, 'a cleared screen');
      shell.write(`PS1='${PROMPT}' ${process.execPath} ${path.resolve('bin/a1')}\r`);
      await shell.waitForScreen(attached, undefined, 'a1 attached again');
      const mark = shell.mark();
      shell.write('\x03\x03');
      await shell.waitForText('still running');
      await shell.flush();
      expect(shell.bufferType()).toBe('normal');
      const out = shell.rawOutput(mark);
      for (const off of ['\x1b[?1000l', '\x1b[?1002l', '\x1b[?1006l', '\x1b[?2004l', '\x1b[?1004l']) expect(out).toContain(off);
      const after = await listing(t);
      expect(after.tabs[0].childPid).toBe(before.tabs[0].childPid);
      expect(isAlive(after.tabs[0].childPid!)).toBe(true);
    } finally {
      shell.dispose();
    }
  });

});
