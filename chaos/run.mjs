// `npm run chaos`: tabs print numbered lines while the server is killed with SIGKILL again and
// again (issue 7); prints the figures and exits non-zero on any failure. The reduced run in
// `npm test` is test/e2e/chaos.test.ts, over the same library.

import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { parseArgs } from 'node:util';
import { killAllWithEnv } from '../bench/lib/procs.mjs';
import { A1_BIN, CHAOS_MARKER, DEFAULTS, runChaos, runRoot } from './lib/chaos.mjs';
import { failuresOf, toMarkdown } from './lib/report.mjs';

const USAGE = `usage: node chaos/run.mjs [--tabs T] [--kills N] [--seconds S] [--seed N] [--interval MS] [--a1 PATH]
  --tabs T       tabs printing numbered lines (default ${DEFAULTS.tabs})
  --kills N      kill -9 of the server, at random moments (default ${DEFAULTS.kills})
  --seconds S    over this many seconds (default ${DEFAULTS.seconds})
  --seed N       the random spacing of the kills; a run prints its seed (default random)
  --interval MS  ms between a tab's lines (default: as fast as the recovery file still holds every line)
  --a1 PATH      the a1 entry to run with node (default: this checkout's bin/a1)`;

function positive(name, text) {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a positive integer, not "${text}".`);
  return n;
}

function seedOf(text) {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0 || n > 0xffffffff) throw new Error(`--seed must be an integer from 0 to ${0xffffffff}, not "${text}".`);
  return n;
}

function parseOptions(argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      tabs: { type: 'string' },
      kills: { type: 'string' },
      seconds: { type: 'string' },
      seed: { type: 'string' },
      interval: { type: 'string' },
      a1: { type: 'string', default: A1_BIN },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const optional = (name, text) => (text === undefined ? undefined : positive(name, text));
  return {
    tabs: optional('tabs', values.tabs),
    kills: optional('kills', values.kills),
    seconds: optional('seconds', values.seconds),
    seed: values.seed === undefined ? undefined : seedOf(values.seed),
    intervalMs: optional('interval', values.interval),
    a1Bin: path.resolve(values.a1),
  };
}

async function main() {
  const options = parseOptions(process.argv.slice(2));
  const runId = crypto.randomBytes(4).toString('hex');
  const log = (message) => console.error(`[chaos] ${message}`);
  process.once('SIGINT', () => {
    log('interrupted; ending every process this run started');
    killAllWithEnv(CHAOS_MARKER, runId)
      .catch((error) => log(error.message))
      .finally(() => {
        fs.rmSync(runRoot(runId), { recursive: true, force: true });
        process.exit(130);
      });
  });
  const started = Date.now();
  const result = await runChaos({ ...options, runId, log });
  console.log(toMarkdown(result));
  log(`total: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  process.exitCode = failuresOf(result).length === 0 ? 0 : 1;
}

main().catch((error) => {
  console.error(`chaos: ${error.message}`);
  process.exit(2);
});
