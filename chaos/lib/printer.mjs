// The program each chaos tab runs: `chaos <tab> ready`, then, once the run's go file exists,
// `chaos <tab> <n>` for n = 1, 2, ... on a fixed schedule (line n is due at go + (n-1) * interval,
// so a late turn catches up instead of drifting), and, once the stop file exists, `chaos <tab>
// end <n>` before exiting 0. What it printed is also written to `<dir>/<tab>.json`: the ground
// truth the tab's retained lines are checked against, independent of any terminal.
//
// usage: node printer.mjs <tab> <intervalMs> <dir>

import fs from 'node:fs';
import path from 'node:path';

/** How often the go file is looked for before printing starts. */
const GO_POLL_MS = 20;
/** A turn that wakes late prints at most this many due lines, then yields, so a stalled
 * process does not answer with one huge burst. */
const MAX_BURST_LINES = 64;

const [tab, intervalArg, dir] = process.argv.slice(2);
const intervalMs = Number(intervalArg);
if (!tab || !dir || !Number.isFinite(intervalMs) || intervalMs <= 0) {
  process.stderr.write('usage: node printer.mjs <tab> <intervalMs> <dir>\n');
  process.exit(2);
}
const goFile = path.join(dir, 'go');
const stopFile = path.join(dir, 'stop');

// No echo: only what this program prints reaches the tab's terminal. Raw mode may also drop
// output processing, so lines end in CR LF explicitly.
if (process.stdin.isTTY) process.stdin.setRawMode(true);
const out = (line) => process.stdout.write(`chaos ${tab} ${line}\r\n`);

let printed = 0;
let goAt = 0;

function finish() {
  out(`end ${printed}`);
  fs.writeFileSync(path.join(dir, `${tab}.json`), JSON.stringify({ tab, pid: process.pid, intervalMs, goAt, last: printed, endAt: Date.now() }));
  process.exit(0);
}

function tick() {
  const due = Math.floor((Date.now() - goAt) / intervalMs) + 1;
  const upTo = Math.min(due, printed + MAX_BURST_LINES);
  while (printed < upTo) out(String(++printed));
  if (fs.existsSync(stopFile)) return finish();
  setTimeout(tick, Math.max(0, goAt + printed * intervalMs - Date.now()));
}

function waitForGo() {
  if (fs.existsSync(stopFile)) return finish();
  if (!fs.existsSync(goFile)) return void setTimeout(waitForGo, GO_POLL_MS);
  goAt = Date.now();
  tick();
}

out('ready');
waitForGo();
