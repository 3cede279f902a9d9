// The floor under the echo targets: the echo routine of echo.mjs on tmux and on a bare Node relay
// in the same run. `relay` is a1's process topology (a client relaying its raw terminal over a
// Unix socket to a holder that writes the shell's PTY) with no parsing and no compositing. A Node
// client and holder doing a1's work cannot echo faster than `relay` does with none, so a1's echo
// p50 and p99 are judged against relay's from the same run (lib/targets.mjs); the echo targets
// need this measure to run. Reported in its own table (lib/report.mjs), with relay's ratio to tmux.

import { measureEcho } from './echo.mjs';
import { relay, tmux, withSystem } from '../lib/systems.mjs';

const echoOn = (system) => (ctx, { keys }) => withSystem(system, ctx, (client) => measureEcho(client, keys));

export const echoFloor = {
  name: 'echo-floor',
  description: 'key echo latency through a bare Node client and holder: the echo targets\' floor (tmux, relay)',
  informational: true,
  title: 'Echo-latency floor: a bare Node relay against tmux (the floor the echo targets are judged against)',
  note:
    'relay = a1\'s topology (client and holder over a Unix socket) relaying bytes only: what a Node client and holder ' +
    'cost doing no work. a1\'s echo p50 and p99 are judged against it.',
  metrics: [
    { key: 'p50', label: 'key echo latency p50', unit: 'ms' },
    { key: 'p95', label: 'key echo latency p95', unit: 'ms' },
    { key: 'p99', label: 'key echo latency p99', unit: 'ms' },
  ],
  prepare: (ctx) => ({ keys: ctx.keys }),
  drivers: { tmux: echoOn(tmux), relay: echoOn(relay) },
};
