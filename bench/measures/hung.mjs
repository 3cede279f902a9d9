// Key echo latency in the viewed tab while another tab (tmux: window) hangs: its program is
// stopped (SIGSTOP) and 1.25 MiB pasted into it waits, as much of it as the system will hold.
// The same instance first measures its idle latency, so the ratios compare like with like in one
// run. a1 takes the paste as a person's, through its client (it has no paste command), queues up
// to its 1 MiB input bound and refuses the rest ("not accepting input"); tmux takes it through
// `paste-buffer` (pasted through its client, a paste is only told from typing by its pace, and
// the prefix key after it is taken as text) and holds all of it.

import fs from 'node:fs';
import path from 'node:path';
import { echoLatencies, latencySummary, phaseKeys, startEchoTarget } from './echo.mjs';
import { pollUntil } from '../lib/poll.mjs';
import { a1, tmux, withSystem } from '../lib/systems.mjs';

/**
 * The hung tab's program: cat in raw mode (in canonical mode the line discipline drops what
 * passes its 4 KiB line limit, so unread input would never back up), as a child of the tab's
 * shell, since tmux continues a stopped pane process at once.
 */
const HUNG_ARGV = ['/bin/sh', '-c', 'stty raw -echo; cat; exit'];
/** a1's input queue holds 1 MiB by default: four of these fill it, the fifth is refused. */
const PASTE_BYTES = 256 * 1024;
const PASTES = 5;
/** Setting up the hang (a tab's start, 1.25 MiB through the client, a refusal after 2 s). */
const SETUP_TIMEOUT_MS = 30_000;
/** How long a1 shows "not accepting input"; the measure starts once it is gone. */
const NOTICE_TIMEOUT_MS = 20_000;
const REFUSED = 'not accepting input';
const ALT = (n) => `\x1b${n}`;

/** The parent pid and command name of `pid`, from /proc/<pid>/stat; null once it is gone. */
function statOf(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return { comm: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')), ppid: Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) };
  } catch {
    return null;
  }
}

/** Waits until the tab's shell `shellPid` runs cat (its terminal is raw by then), then stops cat. */
async function stopCat(shellPid) {
  const cat = await pollUntil(
    () =>
      fs
        .readdirSync('/proc')
        .map(Number)
        .find((pid) => {
          const stat = Number.isInteger(pid) ? statOf(pid) : null;
          return stat?.ppid === shellPid && stat.comm === 'cat';
        }),
    { timeoutMs: SETUP_TIMEOUT_MS, what: 'the hung tab to run cat' },
  );
  process.kill(cat, 'SIGSTOP');
}

const showsEchoTarget = (lines) => lines.some((line) => line.includes('ECHO-READY'));
const showsRefused = (lines) => lines.some((line) => line.includes(REFUSED));

async function hungEcho(client, keys, hang) {
  const inputRow = await startEchoTarget(client);
  const idle = latencySummary(await echoLatencies(client, inputRow, keys));
  await hang();
  const hung = latencySummary(await echoLatencies(client, inputRow, keys));
  return {
    idleP50: idle.p50,
    idleP99: idle.p99,
    p50: hung.p50,
    p99: hung.p99,
    ratioP50: hung.p50 / idle.p50,
    ratioP99: hung.p99 / idle.p99,
  };
}

export const hung = {
  name: 'hung',
  description: 'echo with one tab\'s child stopped and its input queue full, over idle (a1, tmux)',
  metrics: [
    { key: 'idleP50', label: 'echo p50, idle (same instance, before the hang)', unit: 'ms' },
    { key: 'idleP99', label: 'echo p99, idle (same instance, before the hang)', unit: 'ms' },
    { key: 'p50', label: 'echo p50 with one hung tab (child stopped, input queue full)', unit: 'ms' },
    { key: 'p99', label: 'echo p99 with one hung tab (child stopped, input queue full)', unit: 'ms' },
    { key: 'ratioP50', label: 'echo p50 with one hung tab / idle', unit: 'x' },
    { key: 'ratioP99', label: 'echo p99 with one hung tab / idle', unit: 'x' },
  ],
  prepare(ctx) {
    const pasteFile = path.join(ctx.runDir, 'paste.txt');
    fs.writeFileSync(pasteFile, 'x'.repeat(PASTE_BYTES));
    return { keys: phaseKeys(ctx.keys), pasteFile };
  },
  drivers: {
    a1: (ctx, { keys }) =>
      withSystem(a1, ctx, (client, instance) =>
        hungEcho(client, keys, async () => {
          instance.cli(['new', '--name', 'hung', '--', ...HUNG_ARGV]);
          const shell = await pollUntil(
            () => JSON.parse(instance.cli(['tabs', '--json'])).tabs.find((tab) => tab.name === 'hung')?.childPid,
            { timeoutMs: SETUP_TIMEOUT_MS, what: 'the hung tab to run' },
          );
          await stopCat(shell);
          // `a1 new` left the view where it was: Alt+2 views the new tab, Alt+1 comes back.
          client.write(ALT(2));
          await client.waitForScreen((lines) => !showsEchoTarget(lines), { timeoutMs: SETUP_TIMEOUT_MS, what: 'the hung tab in view' });
          const paste = `\x1b[200~${'x'.repeat(PASTE_BYTES)}\x1b[201~`;
          for (let i = 0; i < PASTES; i++) client.write(paste);
          await client.waitForScreen(showsRefused, { timeoutMs: SETUP_TIMEOUT_MS, what: 'a paste refused' });
          client.write(ALT(1));
          await client.waitForScreen(showsEchoTarget, { timeoutMs: SETUP_TIMEOUT_MS, what: 'the echo tab back in view' });
          await client.waitForScreen((lines) => !showsRefused(lines), { timeoutMs: NOTICE_TIMEOUT_MS, what: 'the notice gone' });
        }),
      ),
    tmux: (ctx, { keys, pasteFile }) =>
      withSystem(tmux, ctx, (client, instance) =>
        hungEcho(client, keys, async () => {
          // -d: the new window does not become the current one.
          instance.cli(['new-window', '-d', '-n', 'hung', ...HUNG_ARGV]);
          await stopCat(Number(instance.cli(['list-panes', '-t', 'hung', '-F', '#{pane_pid}']).trim()));
          instance.cli(['load-buffer', '-b', 'hung', pasteFile]);
          for (let i = 0; i < PASTES; i++) instance.cli(['paste-buffer', '-b', 'hung', '-t', 'hung']);
        }),
      ),
  },
};
