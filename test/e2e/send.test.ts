// `a1 send TAB [-l|--literal] TEXT|KEYS…` (issue 18): input to a tab under the controller rules of
// SPEC §15, keys encoded by the holder for the child, text delivered whole; refused in one
// sentence while another client controls the tab.
import { describe, it, expect, afterEach } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { detach, e2e, foregroundJob, KEY, listing, probeViewed, waitForForegroundJob, waitForListing, waitForStrip, type E2E } from './harness.js';
import { waitFor } from '../helpers/wait.js';

let t: E2E;
afterEach(async () => {
  await t?.teardown();
});

async function twoTabs(): Promise<{ first: string; second: string }> {
  for (const name of ['one', 'two']) {
    const r = await t.run('new', '--name', name);
    expect(r.code, r.stderr).toBe(0);
  }
  const l = await waitForListing(t, ['one', 'two']);
  return { first: l.tabs[0].id, second: l.tabs[1].id };
}

async function send(...args: string[]): Promise<void> {
  const r = await t.run('send', ...args);
  expect(r.code, `a1 send ${args.join(' ')}: ${r.stderr}`).toBe(0);
  expect(r.stderr).toBe('');
}

/** Waits until the file in the test's home holds exactly `text`. */
function waitForFile(name: string, text: string): Promise<unknown> {
  const file = path.join(t.home.dir, name);
  return waitFor(() => fs.existsSync(file) && fs.readFileSync(file, 'utf8') === text, { what: `${name} holding what was sent` });
}

describe('a1 send', () => {
  it('runs a command in a background tab: its output is on that tab’s screen', async () => {
    t = e2e();
    const { first, second } = await twoTabs();
    const a1 = t.attach('attach', '1');
    await waitForStrip(a1, ['one', 'two'], 'one');
    await probeViewed(a1, first);
    // Tab 2 has no controller (the client views tab 1): a1 send may type into it.
    await send('2', 'echo sent-$((6*7))', 'Enter');
    a1.write(KEY.jump2);
    await waitForStrip(a1, ['one', 'two'], 'two');
    await a1.waitForText('sent-42');
    await probeViewed(a1, second);
  });

  it('--literal sends key names as text; without it they are keys', async () => {
    t = e2e();
    await twoTabs();
    await send('--literal', 'two', 'echo word-', 'Enter', ' C-c > literal.txt');
    await send('two', 'Enter');
    await waitForFile('literal.txt', 'word-Enter C-c\n');
  });

  it('--literal and -l never take the next word as their value: "false" and "true" are typed, as tmux\'s send-keys -l types them', async () => {
    t = e2e();
    await twoTabs();
    await send('two', 'echo ');
    await send('two', '--literal', 'false');
    await send('-l', 'two', 'true');
    await send('two', '-l', 'false', 'Enter');
    await send('two', ' > flags.txt', 'Enter');
    await waitForFile('flags.txt', 'falsetruefalseEnter\n');
  });

  it('C-c interrupts the job in the foreground, as typed Ctrl+C would', async () => {
    t = e2e();
    const { second } = await twoTabs();
    await send('2', 'sleep 1000', 'Enter');
    const job = await waitForForegroundJob(t, second);
    await send('2', 'C-c');
    const shell = (await listing(t)).tabs[1].childPid!;
    await waitFor(() => foregroundJob(shell) !== job, { what: 'sleep interrupted' });
    await send('2', 'echo after-interrupt > interrupted.txt', 'Enter');
    await waitForFile('interrupted.txt', 'after-interrupt\n');
  });

  it('keys reach the child encoded for its keyboard mode: Escape under the kitty protocol is CSI 27 u', async () => {
    t = e2e();
    const { second } = await twoTabs();
    // The job turns on the kitty protocol's disambiguation (flag 1), then reads one key's bytes.
    await send('2', `printf '\\033[>1u'; head -c 5 | od -An -c > kitty.txt`, 'Enter');
    await waitForForegroundJob(t, second);
    await send('2', 'Escape', 'Enter');
    await waitFor(() => fs.existsSync(path.join(t.home.dir, 'kitty.txt')) && fs.readFileSync(path.join(t.home.dir, 'kitty.txt'), 'utf8').trim() !== '', { what: 'kitty.txt written' });
    expect(fs.readFileSync(path.join(t.home.dir, 'kitty.txt'), 'utf8').trim().split(/\s+/)).toEqual(['033', '[', '2', '7', 'u']);
  });

  it('lines with an Enter each, from one a1 send and the next, run in the order sent', async () => {
    t = e2e();
    await twoTabs();
    // Each Enter after text waits until the shell has taken the text (issue 28): what follows it,
    // in the same a1 send or the next, waits behind it.
    await send('2', 'printf 1 >> order.txt', 'Enter', 'printf 2 >> order.txt', 'Enter');
    await send('2', 'printf 3 >> order.txt', 'Enter', 'C-u', 'printf 4 >> order.txt', 'Enter');
    await waitForFile('order.txt', '1234');
  });

  it('large text arrives whole, in order', async () => {
    t = e2e();
    await twoTabs();
    // ~100 KB: more than one of a1 send's batches, less than the kernel's limit on one argument.
    const lines = Array.from({ length: 1400 }, (_, i) => `line ${i} ${'x'.repeat(60)}`);
    const text = lines.join('\n') + '\n';
    await send('2', 'cat > big.txt', 'Enter');
    await waitForForegroundJob(t, (await listing(t)).tabs[1].id);
    await send('--literal', '2', text);
    await send('2', 'C-d');
    await waitForFile('big.txt', text);
  });

  it('is refused in one sentence while another client controls the tab, and types nothing', async () => {
    t = e2e();
    const { first } = await twoTabs();
    const a1 = t.attach('attach', 'one');
    await waitForStrip(a1, ['one', 'two'], 'one');
    await probeViewed(a1, first);
    const r = await t.run('send', 'one', 'echo typed-by-send > refused.txt', 'Enter');
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim()).toBe('a1: Another client controls tab one; nothing was sent.');
    // The client still controls the tab and its keys reach it; the refused text never did.
    await probeViewed(a1, first);
    expect(a1.screenText().join('\n')).not.toContain('typed-by-send');
    expect(fs.existsSync(path.join(t.home.dir, 'refused.txt'))).toBe(false);
  });

  it('leaves the last viewed tab as it was: bare a1 still views it after a1 send to another', async () => {
    t = e2e();
    const { first } = await twoTabs();
    const a1 = t.attach('attach', '1');
    await waitForStrip(a1, ['one', 'two'], 'one');
    await probeViewed(a1, first);
    await detach(a1);
    await send('2', 'echo x', 'Enter');
    const again = t.attach();
    await waitForStrip(again, ['one', 'two'], 'one');
  });

  it('an unknown tab or nothing to send fails in one sentence', async () => {
    t = e2e();
    await twoTabs();
    const unknown = await t.run('send', 'nope', 'x');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr.trim()).toBe('a1: No tab has the id or name "nope".');
    const empty = await t.run('send', '2');
    expect(empty.code).toBe(1);
    expect(empty.stderr.trim()).toBe('a1: Name what to send: text or key names.');
  });
});
