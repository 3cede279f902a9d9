// The floor under the echo target: the echo routine of echo.mjs on tmux and on two bare Node
// relays in the same run. `relay` is a1's process topology (a client relaying its raw terminal
// over a Unix socket to a holder that writes the shell's PTY) with no parsing and no compositing;
// `direct` is one Node process between the terminal and the PTY. A Node client and holder doing
// a1's work cannot echo faster than `relay` does with none, so `relay / tmux` is the floor under
// the "echo p50 (a1 / tmux)" target.
// Informational: no target (lib/targets.mjs), reported in its own table (lib/report.mjs).

import { measureEcho } from './echo.mjs';
import { direct, relay, tmux, withSystem } from '../lib/systems.mjs';

const echoOn = (system) => (ctx, { keys }) => withSystem(system, ctx, (client) => measureEcho(client, keys));

export const echoFloor = {
  name: 'echo-floor',
  informational: true,
  title: 'Echo-latency floor: bare Node relays against tmux (informational, no target)',
  note:
    'relay = a1\'s topology (client and holder over a Unix socket) relaying bytes only; direct = one Node process ' +
    'between terminal and PTY. relay/tmux p50 is what a Node client and holder cost doing no work: the floor under the "echo p50 (a1 / tmux)" target.',
  metrics: [
    { key: 'p50', label: 'key echo latency p50', unit: 'ms' },
    { key: 'p95', label: 'key echo latency p95', unit: 'ms' },
    { key: 'p99', label: 'key echo latency p99', unit: 'ms' },
  ],
  prepare: (ctx) => ({ keys: ctx.keys }),
  drivers: { tmux: echoOn(tmux), relay: echoOn(relay), direct: echoOn(direct) },
};
