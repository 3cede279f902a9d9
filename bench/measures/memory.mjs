// Marginal memory per tab, as PSS (lib/memory.mjs), for an empty tab (a bare shell) and for a
// tab whose shell has 2,000 coloured lines of history above it; and, for the history tab, its
// private pages (USS), which do not move with what else runs on the machine.
//   a1:   the new tab's holder + child, read from `a1 tabs --json`.
//   tmux: the server's growth from adding the window + the window's child.

import fs from 'node:fs';
import path from 'node:path';
import { privateKiB, settledPssKiB } from '../lib/memory.mjs';
import { pollUntil } from '../lib/poll.mjs';
import { SHELL_ARGV, a1, tmux, withSystem } from '../lib/systems.mjs';
import { colouredLine } from './throughput.mjs';

/** The figure. */
export const HISTORY_LINES = 2_000;
/** Starting a holder and a shell; generous for a loaded machine. */
const TAB_UP_TIMEOUT_MS = 30_000;
/** Parsing 2,000 lines and settling the heap takes well under this. */
const SETTLE_TIMEOUT_MS = 15_000;
const KIB_PER_MIB = 1024;

/** The shell runs only after the history is printed, so a settled PSS includes the history. */
function historyArgv(file) {
  const shell = SHELL_ARGV.join(' ');
  return [SHELL_ARGV[0], '--norc', '--noprofile', '-c', `cat ${file}; exec ${shell}`];
}

async function a1TabMemory(ctx, instance, name, command) {
  const id = instance.cli(['new', '--name', name, ...(command ? ['--', ...command] : [])]).trim();
  const tab = await pollUntil(
    () => {
      const found = JSON.parse(instance.cli(['tabs', '--json'])).tabs.find((t) => t.id === id);
      return found?.holderPid && found.childPid && isShell(found.childPid) ? found : null;
    },
    { timeoutMs: TAB_UP_TIMEOUT_MS, what: `tab ${name} to run its shell` },
  );
  const pss = (await settledPssKiB([tab.holderPid, tab.childPid], { timeoutMs: SETTLE_TIMEOUT_MS, log: ctx.log })) / KIB_PER_MIB;
  return { pss, private: (privateKiB(tab.holderPid) + privateKiB(tab.childPid)) / KIB_PER_MIB };
}

async function tmuxWindowMemory(ctx, instance, serverPid, command) {
  const before = await settledPssKiB([serverPid], { timeoutMs: SETTLE_TIMEOUT_MS, log: ctx.log });
  const privateBefore = privateKiB(serverPid);
  const childPid = Number(instance.cli(['new-window', '-d', '-P', '-F', '#{pane_pid}', ...(command ?? SHELL_ARGV)]).trim());
  await pollUntil(() => isShell(childPid), { timeoutMs: TAB_UP_TIMEOUT_MS, what: 'the window to run its shell' });
  const after = await settledPssKiB([serverPid, childPid], { timeoutMs: SETTLE_TIMEOUT_MS, log: ctx.log });
  const privateAfter = privateKiB(serverPid) + privateKiB(childPid);
  return { pss: (after - before) / KIB_PER_MIB, private: (privateAfter - privateBefore) / KIB_PER_MIB };
}

/** True once the process runs the interactive shell (for the history tab: after `exec`). */
function isShell(pid) {
  try {
    const argv = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    return argv.length === SHELL_ARGV.length && argv.every((arg, i) => arg === SHELL_ARGV[i]);
  } catch {
    return false;
  }
}

export const memory = {
  name: 'memory',
  description: 'memory per tab, empty and with 2,000 lines: PSS and USS (a1, tmux)',
  metrics: [
    { key: 'emptyMiB', label: 'memory per tab, empty (PSS)', unit: 'MiB' },
    { key: 'historyMiB', label: `memory per tab, ${HISTORY_LINES} lines of history (PSS)`, unit: 'MiB' },
    // PSS splits the node binary's shared pages among every process on the machine that maps
    // them, so it moves with what else runs; private pages (USS) do not.
    { key: 'historyPrivateMiB', label: `memory per tab, ${HISTORY_LINES} lines of history, private pages only (USS)`, unit: 'MiB' },
  ],
  prepare(ctx) {
    const file = path.join(ctx.runDir, 'history.txt');
    const lines = [];
    for (let n = 1; n <= HISTORY_LINES; n++) lines.push(colouredLine(n));
    fs.writeFileSync(file, lines.join(''), { mode: 0o600 });
    return { file };
  },
  drivers: {
    a1: (ctx, { file }) =>
      withSystem(a1, ctx, async (_client, instance) => {
        const empty = await a1TabMemory(ctx, instance, 'mem-empty', null);
        const history = await a1TabMemory(ctx, instance, 'mem-history', historyArgv(file));
        return { emptyMiB: empty.pss, historyMiB: history.pss, historyPrivateMiB: history.private };
      }),
    tmux: (ctx, { file }) =>
      withSystem(tmux, ctx, async (_client, instance) => {
        const serverPid = Number(instance.cli(['display-message', '-p', '#{pid}']).trim());
        const empty = await tmuxWindowMemory(ctx, instance, serverPid, null);
        const history = await tmuxWindowMemory(ctx, instance, serverPid, historyArgv(file));
        return { emptyMiB: empty.pss, historyMiB: history.pss, historyPrivateMiB: history.private };
      }),
  },
};
