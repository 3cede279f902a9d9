// Keys typed while a tab starts (SPEC §7; issue 16): the holder keeps them in order up to the
// tab's input bound and gives them to the new child once it is ready; past the bound a batch is
// refused whole and the typist sees it. Here the start is a restart after a crash, held open by a
// test clock (A1_TEST_RESTART_DELAY_MS) so the keys certainly arrive while the tab starts.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { e2e, listing, type E2E } from './harness.js';
import { listedTab, waitForStatus } from './lifecycleHarness.js';
import { waitFor } from '../helpers/wait.js';
import type { PtyDriver } from '../helpers/pty.js';

/** Long enough that the test sees the tab starting and types into it before the restart. */
const RESTART_DELAY_MS = 10_000;
const REJECTED = 'not accepting input';

/** Reads in raw mode and appends every byte to OUT.<n> for its n-th start. */
const RECORDER = `
import fs from 'node:fs';
const out = process.argv[2];
let n = 1;
while (fs.existsSync(out + '.' + n)) n++;
fs.writeFileSync(out + '.' + n, '');
process.stdin.setRawMode(true);
process.stdin.on('data', (d) => fs.appendFileSync(out + '.' + n, d));
process.stdout.write('REC' + '-UP ' + n + '\\r\\n');
`;

let t: E2E;
afterEach(async () => {
  await t?.teardown();
});

function homePath(name: string): string {
  return path.join(t.home.dir, name);
}

function received(n: number): string {
  const file = homePath(`got.${n}`);
  return fs.existsSync(file) ? fs.readFileSync(file, 'latin1') : '';
}

/** A tab running the recorder, viewed; its first child is SIGKILLed and the tab is starting again
 * (held by the test clock) when this returns. */
async function crashedRecorderTab(config: object = {}): Promise<PtyDriver> {
  t = e2e(config);
  t.env.A1_TEST_RESTART_DELAY_MS = String(RESTART_DELAY_MS);
  fs.writeFileSync(homePath('recorder.mjs'), RECORDER);
  // An agent tab: only an agent is restarted after it crashes (issue 28).
  const made = await t.run('new', '--agent', 'generic', '--', process.execPath, homePath('recorder.mjs'), homePath('got'));
  expect(made.code, made.stderr).toBe(0);
  const id = made.stdout.trim();
  const a1 = t.attach();
  await a1.waitForText('REC-UP 1');
  const pid = listedTab(await listing(t), id).childPid;
  expect(pid).not.toBeNull();
  process.kill(pid!, 'SIGKILL');
  await waitForStatus(t, id, 'starting');
  return a1;
}

describe('keys typed while a tab starts', () => {
  it('reach the restarted child in order once it is ready, none lost, none twice', async () => {
    const a1 = await crashedRecorderTab();
    a1.write('one ');
    a1.write('two\r');
    a1.write('\x1b[200~three\x1b[201~');
    await a1.waitForText('REC-UP 2');
    await waitFor(() => received(2) === 'one two\rthree', { what: `the restarted child to read the keys (has ${JSON.stringify(received(2))})` });
    // Keys typed once it runs follow them, as ever.
    a1.write('four');
    await waitFor(() => received(2) === 'one two\rthreefour', { what: `the later keys (has ${JSON.stringify(received(2))})` });
    expect(received(1)).toBe('');
  });

  it('past the tab input bound a batch is refused whole and visibly; the rest arrives in order', async () => {
    // The smallest queue the config allows.
    const queueBytes = 64 * 1024;
    const a1 = await crashedRecorderTab({ inputQueueBytes: queueBytes });
    const size = (queueBytes * 5) / 8;
    a1.write(`\x1b[200~${'a'.repeat(size)}\x1b[201~`);
    a1.write(`\x1b[200~${'b'.repeat(size)}\x1b[201~`);
    await a1.waitForText(REJECTED);
    a1.write('c');
    await a1.waitForText('REC-UP 2');
    await waitFor(() => received(2).endsWith('c'), { what: `the restarted child to read the keys (has ${received(2).length} bytes)` });
    expect(received(2)).toBe(`${'a'.repeat(size)}c`);
  });
});
