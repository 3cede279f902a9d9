// Key echo latency in the viewed tab while 9 other tabs (tmux: windows) each print coloured text
// as fast as they can. The same instance first measures its idle latency, so the target ("p99
// under flood ≤ 1.25x the system's own idle p99") compares like with like in one run.

import fs from 'node:fs';
import path from 'node:path';
import { echoLatencies, latencySummary, phaseKeys, startEchoTarget } from './echo.mjs';
import { pollUntil } from '../lib/poll.mjs';
import { a1, tmux, withSystem } from '../lib/systems.mjs';

/** The figure: nine busy neighbours of the viewed tab. */
export const FLOODING_TABS = 9;
/** Every flood is running (has a child) well within this, even on a loaded machine. */
const FLOODS_UP_TIMEOUT_MS = 30_000;

/** `yes` of one line in 16-colour, 256-colour and truecolour SGR: coloured text, as fast as it goes. */
const FLOOD_SCRIPT = `#!/bin/sh
exec yes "$(printf '\\033[31mflood \\033[1;32mgreen \\033[38;5;208morange \\033[38;2;90;140;250mtruecolour\\033[0m the quick brown fox jumps over the lazy dog')"
`;

async function floodedEcho(client, keys, startFloods) {
  const inputRow = await startEchoTarget(client);
  const idle = latencySummary(await echoLatencies(client, inputRow, keys));
  await startFloods();
  const flooded = latencySummary(await echoLatencies(client, inputRow, keys));
  return { idleP99: idle.p99, p50: flooded.p50, p95: flooded.p95, p99: flooded.p99, ratio: flooded.p99 / idle.p99 };
}

export const flood = {
  name: 'flood',
  description: 'echo p99 with 9 tabs flooding output, over the same instance idle (a1, tmux)',
  metrics: [
    { key: 'idleP99', label: 'echo p99, idle (same instance, before the floods)', unit: 'ms' },
    { key: 'p50', label: `echo p50 with ${FLOODING_TABS} flooding tabs`, unit: 'ms' },
    { key: 'p95', label: `echo p95 with ${FLOODING_TABS} flooding tabs`, unit: 'ms' },
    { key: 'p99', label: `echo p99 with ${FLOODING_TABS} flooding tabs`, unit: 'ms' },
    { key: 'ratio', label: 'echo p99 flooded / idle', unit: 'x' },
  ],
  prepare(ctx) {
    const script = path.join(ctx.runDir, 'flood.sh');
    fs.writeFileSync(script, FLOOD_SCRIPT, { mode: 0o700 });
    return { keys: phaseKeys(ctx.keys), script };
  },
  drivers: {
    a1: (ctx, { keys, script }) =>
      withSystem(a1, ctx, (client, instance) =>
        floodedEcho(client, keys, async () => {
          // `a1 new` leaves every client's view where it is: the viewed tab stays the measured one.
          for (let i = 1; i <= FLOODING_TABS; i++) instance.cli(['new', '--name', `flood${i}`, '--', '/bin/sh', script]);
          await pollUntil(
            () => {
              const { tabs } = JSON.parse(instance.cli(['tabs', '--json']));
              return tabs.length === 1 + FLOODING_TABS && tabs.every((tab) => tab.childPid);
            },
            { timeoutMs: FLOODS_UP_TIMEOUT_MS, what: `${FLOODING_TABS} flooding tabs to run` },
          );
        }),
      ),
    tmux: (ctx, { keys, script }) =>
      withSystem(tmux, ctx, (client, instance) =>
        floodedEcho(client, keys, async () => {
          // -d: the new window does not become the current one.
          for (let i = 1; i <= FLOODING_TABS; i++) instance.cli(['new-window', '-d', '-n', `flood${i}`, '/bin/sh', script]);
        }),
      ),
  },
};
