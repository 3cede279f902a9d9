// Tab restart (a1 only; tmux does not restart a pane's program): the time from `kill -9` of the
// viewed tab's shell until the client's screen shows the new shell's prompt. Before the kill the
// screen holds exactly one prompt, with a pending command typed after it, so the condition can
// only become true once a fresh prompt is drawn.

import { performance } from 'node:perf_hooks';
import { sigkill } from '../lib/procs.mjs';
import { PROMPT, a1, withSystem } from '../lib/systems.mjs';

const PENDING = 'echo pending-before-the-kill';
const PROMPT_SEEN = PROMPT.trimEnd();
const SETUP_TIMEOUT_MS = 10_000;
/** Far above the 500 ms target: a slow restart is measured, a missing one fails. */
const RESTART_TIMEOUT_MS = 15_000;

const promptCount = (lines) => lines.reduce((n, line) => n + line.split(PROMPT_SEEN).length - 1, 0);

async function timeRestart(client, instance) {
  client.write('clear\r');
  await client.waitForScreen((lines) => promptCount(lines) === 1 && lines.every((line) => !line.includes('clear')), {
    timeoutMs: SETUP_TIMEOUT_MS,
    what: 'a cleared screen',
  });
  client.write(PENDING);
  await client.waitForScreen((lines) => lines.some((line) => line.includes(PENDING)), { timeoutMs: SETUP_TIMEOUT_MS, what: 'the pending command' });
  const [tab] = JSON.parse(instance.cli(['tabs', '--json'])).tabs;
  if (!tab?.childPid) throw new Error('the tab has no running child to kill');
  const restarted = client.waitForScreen(
    // Either a fresh screen with a bare prompt, or a second prompt below the old one.
    (lines) => promptCount(lines) > 1 || (promptCount(lines) === 1 && !lines.some((line) => line.includes(PENDING))),
    { timeoutMs: RESTART_TIMEOUT_MS, what: 'the restarted shell prompt' },
  );
  const killedAt = performance.now();
  sigkill(tab.childPid);
  const { at } = await restarted;
  return { ms: at - killedAt };
}

export const restart = {
  name: 'restart',
  description: 'kill -9 of a tab\'s child to its new prompt (a1)',
  metrics: [{ key: 'ms', label: 'tab restart: kill -9 of the child to its new prompt', unit: 'ms' }],
  prepare: () => ({}),
  drivers: { a1: (ctx) => withSystem(a1, ctx, timeRestart) },
};
