// The detach that sends nothing (issue 16): its key and /detach leave without a byte reaching
// the tab, and the tab keeps running.
import fs from 'node:fs';
import path from 'node:path';
import { describe, it, expect, afterEach } from 'vitest';
import { e2e, KEY, PROMPT_SEEN, type E2E } from './harness.js';
import { REPO_ROOT } from '../helpers/pty.js';
import { waitFor } from '../helpers/wait.js';

const COUNTER = path.join(REPO_ROOT, 'test', 'fixtures', 'byte-counter.mjs');

let t: E2E;
afterEach(async () => {
  await t?.teardown();
});

describe('detach that sends nothing', () => {
  it('the detach key and /detach leave; the counting child saw no byte and still runs', async () => {
    t = e2e();
    const counted = path.join(t.home.dir, 'counted.txt');
    const total = () => fs.readFileSync(counted, 'utf8');
    let a1 = t.attach();
    await a1.waitForText(PROMPT_SEEN);
    a1.write(`exec ${process.execPath} ${COUNTER} ${counted}\r`);
    await a1.waitForText(/^counted 0$/m);

    a1.write(KEY.detach);
    expect((await a1.exited).exitCode).toBe(0);
    await a1.flush();
    expect(a1.screenText().join('\n')).toContain('1 tab still running · run a1 to return');
    expect(total()).toBe('0');

    // Back again: the same child is there and counts what is typed now, so it was running.
    a1 = t.attach();
    await a1.waitForText(/^counted 0$/m);
    a1.write('x');
    await a1.waitForText(/^counted 1$/m);

    a1.write(KEY.commandPrompt);
    await a1.waitForText(/│ (?: |│|$)/);
    a1.write('/detach');
    await a1.waitForText('│ /detach');
    a1.write('\r');
    expect((await a1.exited).exitCode).toBe(0);
    expect(total()).toBe('1');

    a1 = t.attach();
    await a1.waitForText(/^counted 1$/m);
    a1.write('y');
    await a1.waitForText(/^counted 2$/m);
    await waitFor(() => total() === '2', { what: 'the child counted only the y' });
  });
});
