// Chords and the prefix (issue 16): a binding such as "ctrl+b d" works as tmux users expect, and
// with a prefix set, prefix then an action's key runs it while prefix then any other key reaches
// the tab as typed.
import fs from 'node:fs';
import path from 'node:path';
import { describe, it, expect, afterEach } from 'vitest';
import { e2e, PROMPT_SEEN, waitForStrip, type E2E } from './harness.js';
import { REPO_ROOT, type PtyDriver } from '../helpers/pty.js';
import { waitFor } from '../helpers/wait.js';

const COUNTER = path.join(REPO_ROOT, 'test', 'fixtures', 'byte-counter.mjs');
const CTRL_B = '\x02';

let t: E2E;
afterEach(async () => {
  await t?.teardown();
});

function writeBindings(bindings: object): void {
  fs.writeFileSync(path.join(t.home.dir, 'config', 'keybindings.json'), JSON.stringify(bindings), { mode: 0o600 });
}

/** Replaces the first tab's shell with the byte counter; returns a reader of its total. */
async function startCounter(a1: PtyDriver): Promise<() => string> {
  const counted = path.join(t.home.dir, 'counted.txt');
  await a1.waitForText(PROMPT_SEEN);
  a1.write(`exec ${process.execPath} ${COUNTER} ${counted}\r`);
  await a1.waitForText(/^counted 0$/m);
  return () => fs.readFileSync(counted, 'utf8');
}

describe('chords and the prefix', () => {
  it('{"detach": "ctrl+b d"} detaches, and neither key reaches the tab', async () => {
    t = e2e();
    writeBindings({ detach: 'ctrl+b d' });
    let a1 = t.attach();
    const total = await startCounter(a1);
    a1.write(CTRL_B);
    a1.write('d');
    expect((await a1.exited).exitCode).toBe(0);
    expect(total()).toBe('0');
    a1 = t.attach();
    await a1.waitForText(/^counted 0$/m);
    a1.write('x');
    await a1.waitForText(/^counted 1$/m);
  });

  it('with a prefix: prefix then an action key runs it; prefix then an unbound key sends both', async () => {
    t = e2e();
    writeBindings({ prefix: 'ctrl+b' });
    let a1 = t.attach();
    const total = await startCounter(a1);

    // Ctrl+B then z: not a binding, so the tab gets both, in order.
    a1.write(CTRL_B + 'z');
    await a1.waitForText(/^counted 2$/m);
    // Ctrl+B twice: the tab gets one Ctrl+B.
    a1.write(CTRL_B + CTRL_B);
    await a1.waitForText(/^counted 3$/m);

    // Ctrl+B c opens a tab (tmux's new-window), Ctrl+B p goes back (previous-window).
    a1.write(CTRL_B + 'c');
    await waitForStrip(a1, ['agent', 'agent 2'], 'agent 2');
    a1.write(CTRL_B + 'p');
    await waitForStrip(a1, ['agent', 'agent 2'], 'agent');
    // Alt+A is the agents' again: it reaches the tab as Esc a.
    a1.write('\x1ba');
    await a1.waitForText(/^counted 5$/m);

    a1.write(CTRL_B + 'd');
    expect((await a1.exited).exitCode).toBe(0);
    expect(total()).toBe('5');
    a1 = t.attach();
    await a1.waitForText(/^counted 5$/m);
    a1.write('y');
    await waitFor(() => total() === '6', { what: 'the counter still running after the prefix detach' });
  });
});
