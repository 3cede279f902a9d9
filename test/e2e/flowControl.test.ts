// Flow control under stress (SPEC §7; issue 7): a child that stops reading its input gets no
// paste the tab cannot queue whole (refused visibly, before any byte of it is delivered), and a
// client that stops reading (SIGSTOP) holds up neither other tabs nor other clients, and shows the
// current surface once it runs again.
import fs from 'node:fs';
import path from 'node:path';
import { describe, it, expect, afterEach } from 'vitest';
import { e2e, KEY, listing, logEntries, probeViewed, PROMPT_SEEN, waitForStrip, type E2E } from './harness.js';
import { argvOf, tabProcesses } from './lifecycleHarness.js';
import { isAlive } from '../helpers/procs.js';
import { waitFor } from '../helpers/wait.js';
import type { PtyDriver } from '../helpers/pty.js';

const REJECTED = 'not accepting input';

let t: E2E;
const stopped: number[] = [];
afterEach(async () => {
  // Continued first, so nothing this test stopped is ever left stopped.
  for (const pid of stopped.splice(0)) signal(pid, 'SIGCONT');
  await t?.teardown();
});

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // Already gone.
  }
}

/** For a failure of the "delivery uncertain" test: what each reader read, and the holder's and
 * server's log events in order (the logs hold no terminal content). */
function whatTheReadersGot(): string {
  const read = (n: number) => {
    const file = homePath(`got.${n}`);
    if (!fs.existsSync(file)) return `got.${n}: none`;
    const bytes = fs.readFileSync(file, 'latin1');
    return `got.${n}: ${bytes.length} bytes, ${bytes.replace(/p/g, '').length} not "p", starting ${JSON.stringify(bytes.slice(0, 12))}`;
  };
  const events = (file: RegExp) => logEntries(t, file).map((e) => `${e.event}${e.level === 'info' ? '' : `(${e.level})`}`).join(' ');
  return [read(1), read(2), `holder: ${events(/^holder-/)}`, `server: ${events(/^server/)}`].join('\n');
}

function homePath(name: string): string {
  return path.join(t.home.dir, name);
}

function paste(a1: PtyDriver, text: string): void {
  a1.write(`\x1b[200~${text}\x1b[201~`);
}

/** Pastes a "!" marker every 250 ms until `arrived` holds: since input is never reordered, every
 * paste admitted before it reached the child first. */
function pasteMarkerUntil(a1: PtyDriver, arrived: () => boolean, what: string): Promise<unknown> {
  return waitFor(() => {
    if (arrived()) return true;
    paste(a1, '!');
    return false;
  }, { what, intervalMs: 250 });
}

/**
 * A child that stops reading: it puts its terminal in raw mode, says so, and reads nothing until
 * SIGUSR1; from then on it appends every byte it reads to OUT, so the test sees exactly what
 * reached it.
 */
const READER = `
import fs from 'node:fs';
const out = process.argv[2];
process.stdin.setRawMode(true);
process.stdout.write('READER' + '-UP\\n');
process.on('SIGUSR1', () => process.stdin.on('data', (d) => fs.appendFileSync(out, d)));
setInterval(() => {}, 1 << 30);
`;

/** Reads its input in raw mode at a bounded pace (a pause after every read), writing how many
 * bytes it has read so far to OUT. */
const SLOW_READER = `
import fs from 'node:fs';
const out = process.argv[2];
let total = 0;
process.stdin.setRawMode(true);
process.stdout.write('SLOW' + '-UP\\r\\n');
process.stdin.on('data', (d) => {
  total += d.length;
  fs.writeFileSync(out, String(total));
  process.stdin.pause();
  setTimeout(() => process.stdin.resume(), 5);
});
`;

/**
 * Reads input in raw mode, appending it to OUT.<n> for its n-th start; the first start ends
 * (exit 1, a crash) after its first read, leaving the rest of the input unread.
 */
const ONCE_READER = `
import fs from 'node:fs';
const out = process.argv[2];
let n = 1;
while (fs.existsSync(out + '.' + n)) n++;
fs.writeFileSync(out + '.' + n, '');
process.stdin.setRawMode(true);
process.stdout.write('ONCE' + '-UP ' + n + '\\r\\n');
process.stdin.on('data', (d) => {
  fs.appendFileSync(out + '.' + n, d);
  if (n === 1) process.exit(1);
});
`;

describe('flow control', () => {
  it('a child that stops reading: a paste that cannot be queued whole is refused visibly, and none of it is ever delivered', async () => {
    // The smallest queue the config allows, so the kernel's own PTY buffer plus the queue fill fast.
    const queueBytes = 64 * 1024;
    t = e2e({ inputQueueBytes: queueBytes });
    fs.writeFileSync(homePath('reader.mjs'), READER);
    const a1 = t.attach();
    await a1.waitForText(PROMPT_SEEN);
    const tabId = (await listing(t)).tabs[0].id;
    a1.write(`'${process.execPath}' reader.mjs got.bin\r`);
    await a1.waitForText('READER-UP');
    const reader = await waitFor(() => tabProcesses(tabId).find((p) => argvOf(p.pid).includes('reader.mjs')), { what: 'the reader process' });

    // Pastes of 3/4 of the queue, each of its own letter: 768 KiB in all, far more than the
    // kernel's PTY buffer (about 15 KiB here) and the queue hold while nobody reads.
    const size = (queueBytes * 3) / 4;
    const letters = 'abcdefghijklmnop';
    for (const letter of letters) paste(a1, letter.repeat(size));
    await a1.waitForText(REJECTED);

    signal(reader.pid, 'SIGUSR1');
    const got = () => (fs.existsSync(homePath('got.bin')) ? fs.readFileSync(homePath('got.bin'), 'latin1') : '');
    // Admission works again once the child reads: a marker pasted until one arrives, and since
    // input is never reordered, every admitted paste arrived before it.
    await pasteMarkerUntil(a1, () => got().endsWith('!'), 'a paste after the child read again');

    // What reached the child is whole pastes, in the order sent; a refused paste left no byte.
    const runs = [...got().matchAll(/(.)\1*/g)].map((m) => ({ letter: m[1], length: m[0].length }));
    expect(runs.pop()?.letter).toBe('!');
    const delivered = runs.map((r) => r.letter).join('');
    expect(runs.every((r) => r.length === size), JSON.stringify(runs)).toBe(true);
    expect([...delivered].map((l) => letters.indexOf(l)).every((i, n, all) => i >= 0 && (n === 0 || i > all[n - 1])), delivered).toBe(true);
    expect(delivered[0]).toBe('a');
    expect(delivered.length).toBeLessThan(letters.length);
    expect(isAlive(reader.pid)).toBe(true);
  });

  it('2 MB typed without bracketed paste (as tmux paste-buffer sends it) reaches a child that reads slower than it arrives, every byte', async () => {
    t = e2e();
    fs.writeFileSync(homePath('slow.mjs'), SLOW_READER);
    const a1 = t.attach();
    await a1.waitForText(PROMPT_SEEN);
    a1.write(`'${process.execPath}' slow.mjs counted.txt\r`);
    await a1.waitForText('SLOW-UP');
    // Lines of 99 characters and Enter: 2,000,000 bytes, twice the 1 MiB bound, sent at once.
    const chunk = ('x'.repeat(99) + '\r').repeat(1000);
    for (let i = 0; i < 20; i++) a1.write(chunk);
    const counted = () => (fs.existsSync(homePath('counted.txt')) ? Number(fs.readFileSync(homePath('counted.txt'), 'utf8')) : 0);
    await waitFor(() => {
      if (a1.screenText().join('\n').includes(REJECTED)) throw new Error(`input refused after ${counted()} bytes`);
      return counted() >= 2_000_000;
    }, { what: 'every byte read', timeoutMs: 90_000 });
    expect(counted()).toBe(2_000_000);
  });

  it('a child that ends with admitted input unread: "delivery uncertain" is shown and nothing is sent again', async () => {
    t = e2e();
    fs.writeFileSync(homePath('once.mjs'), ONCE_READER);
    // An agent tab: only an agent is restarted after it crashes (issue 28).
    const made = await t.run('new', '--agent', 'generic', '--name', 'once', '--', process.execPath, homePath('once.mjs'), homePath('got'));
    expect(made.code, made.stderr).toBe(0);
    const a1 = t.attach();
    await a1.waitForText('ONCE-UP 1');
    // Far more than the PTY holds: most of it is still queued when the first reader ends.
    paste(a1, 'p'.repeat(400 * 1024));
    await a1.waitForText('delivery uncertain').catch((err: Error) => {
      throw new Error(`${err.message}\n${whatTheReadersGot()}`);
    });
    // The crash restarts it; what the first one left unread never reaches the second.
    await a1.waitForText('ONCE-UP 2');
    const got2 = () => (fs.existsSync(homePath('got.2')) ? fs.readFileSync(homePath('got.2'), 'latin1') : '');
    await pasteMarkerUntil(a1, () => got2().includes('!'), 'the restarted reader reading');
    expect(got2()[0]).toBe('!');
    expect(got2()).not.toContain('p');
    expect(fs.readFileSync(homePath('got.1'), 'latin1').length).toBeGreaterThan(0);
  });

  it('a client stopped while its tab floods: other tabs and clients keep working, and it shows the current surface once continued', async () => {
    t = e2e();
    const a = t.attach();
    await a.waitForText(PROMPT_SEEN);
    const floodTab = (await listing(t)).tabs[0].id;
    const made = await t.run('new', '--name', 'other');
    expect(made.code, made.stderr).toBe(0);
    const otherTab = made.stdout.trim();

    // The flood waits for a file, so it starts only once client A is stopped, and runs until
    // another; `flooded` says it has run 3 s (a few hundred frames, far more than A's socket
    // holds: the holder stops sending A frames until it drains).
    a.write('while [ ! -e go ]; do sleep 0.05; done; : > flooding; SECONDS=0; while [ ! -e stop ]; do seq 1 5000; [ $SECONDS -ge 3 ] && : > flooded; done; echo flood-$((6*7))-done\r');
    await waitFor(() => tabProcesses(floodTab).some((p) => argvOf(p.pid).includes('sleep')), { what: 'the flood waiting for its go' });
    signal(a.pid, 'SIGSTOP');
    stopped.push(a.pid);
    fs.writeFileSync(homePath('go'), '');
    await waitFor(() => fs.existsSync(homePath('flooding')), { what: 'the flood started' });

    // Another client, in another tab, echoes while the flood runs and A reads nothing.
    const b = t.attach();
    // It opens on the flooding tab, the one last viewed.
    await waitForStrip(b, ['agent', 'other'], 'agent');
    b.write(KEY.jump2);
    await waitForStrip(b, ['agent', 'other'], 'other');
    for (let i = 0; i < 3; i++) await probeViewed(b, otherTab);
    expect(fs.existsSync(homePath('stop'))).toBe(false);
    await waitFor(() => fs.existsSync(homePath('flooded')), { what: 'the flood went on', timeoutMs: 60_000 });

    // B watches the flooding tab end.
    b.write(KEY.jump1);
    await waitForStrip(b, ['agent', 'other'], 'agent');
    fs.writeFileSync(homePath('stop'), '');
    await b.waitForText('flood-42-done');
    await b.waitForText(PROMPT_SEEN);

    // A, stopped, has drawn none of it yet.
    await a.flush();
    expect(a.screenText().join('\n')).not.toContain('flood-42-done');
    signal(a.pid, 'SIGCONT');
    const surface = (d: PtyDriver) => d.screenText().slice(1).join('\n');
    await waitFor(async () => {
      await Promise.all([a.flush(), b.flush()]);
      return surface(a).includes('flood-42-done') && surface(a) === surface(b);
    }, { what: 'client A showing the same surface as client B' });
    // And A still types into its tab.
    a.write('echo after-$((1+1))\r');
    await waitFor(async () => {
      await b.flush();
      return surface(b).includes('after-2');
    }, { what: 'A typing into the tab after it continued' });
    await a.waitForText('after-2');
  });
});
