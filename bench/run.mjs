// `npm run bench`: a1 and tmux side by side, in the same run and the same 120x40 PTY, over every
// measure in measures/index.mjs.

import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { MEASURES } from './measures/index.mjs';
import { DEFAULT_KEYS } from './measures/echo.mjs';
import { killAllWithEnv } from './lib/procs.mjs';
import { summarise, toMarkdown, writeResults } from './lib/report.mjs';
import { judgeTargets } from './lib/targets.mjs';
import { A1_BIN, REPO_ROOT, SYSTEMS, describeSystems } from './lib/systems.mjs';

/** The size the issue measures at. */
const COLS = 120;
const ROWS = 40;
/** An odd count, so the median is one measured round. */
const DEFAULT_ROUNDS = 3;
/** Marks every process of this run, so an interrupted run still ends all of them by pid. */
const RUN_MARKER = 'BENCH_RUN';
const RESULTS_DIR = path.join(REPO_ROOT, 'bench', 'results');

const USAGE = `usage: node bench/run.mjs [--rounds N] [--only NAME[,NAME]] [--keys N] [--a1 PATH] [--profile DIR]
  --rounds N   rounds per measure and system; the table shows the median (default ${DEFAULT_ROUNDS})
  --only NAME  run only these measures (default: all, in this order):
${MEASURES.map((m) => `                 ${m.name.padEnd(12)} ${describe(m)}`).join('\n')}
  --keys N     keys typed per echo-latency run of echo and echo-floor; each phase of flood and hung
               types half as many (default ${DEFAULT_KEYS})
  --a1 PATH    the a1 entry to run with node (default: this checkout's bin/a1)
  --profile DIR  CPU-profile every Node the run starts (a1's client, server, holders; the relay floor)
               into DIR; then \`node bench/profile/top.mjs DIR\` says where the time went per role.
               The profiler slows what it samples: a profiled run's figures are not the bench's`;

/** A measure's one-line description for --help: its own, else its title or first metric. */
function describe(measure) {
  return measure.description ?? measure.title ?? measure.metrics[0]?.label ?? '';
}

function parseOptions(argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      rounds: { type: 'string', default: String(DEFAULT_ROUNDS) },
      only: { type: 'string', multiple: true },
      keys: { type: 'string', default: String(DEFAULT_KEYS) },
      a1: { type: 'string', default: A1_BIN },
      profile: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const rounds = Number(values.rounds);
  const keys = Number(values.keys);
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`--rounds must be a positive integer, not "${values.rounds}".`);
  if (!Number.isInteger(keys) || keys < 1) throw new Error(`--keys must be a positive integer, not "${values.keys}".`);
  const only = (values.only ?? []).flatMap((names) => names.split(',')).filter(Boolean);
  const unknown = only.filter((name) => !MEASURES.some((m) => m.name === name));
  if (unknown.length > 0) throw new Error(`unknown measure ${unknown.join(', ')}; known: ${MEASURES.map((m) => m.name).join(', ')}.`);
  const measures = only.length > 0 ? MEASURES.filter((m) => only.includes(m.name)) : MEASURES;
  return { rounds, keys, only, measures, a1Bin: path.resolve(values.a1), profileDir: values.profile ? path.resolve(values.profile) : null };
}

function formatResult(value) {
  return Object.entries(value)
    .map(([key, v]) => `${key}=${v.toFixed(2)}`)
    .join(' ');
}

async function main() {
  const benchStart = performance.now();
  const options = parseOptions(process.argv.slice(2));
  const runId = crypto.randomBytes(4).toString('hex');
  // Short, because a1's sockets live under each A1_HOME made inside it.
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'a1b-'));
  process.env[RUN_MARKER] = runId;
  if (options.profileDir) {
    fs.mkdirSync(options.profileDir, { recursive: true });
    // Every process the run starts inherits the environment (lib/systems.mjs benchEnv).
    process.env.BENCH_PROFILE_DIR = options.profileDir;
    process.env.NODE_OPTIONS = [process.env.NODE_OPTIONS, `--require ${path.join(REPO_ROOT, 'bench', 'profile', 'preload.cjs')}`].filter(Boolean).join(' ');
  }
  const log = (message) => console.error(`[bench] ${message}`);
  const cleanup = async () => {
    await killAllWithEnv(RUN_MARKER, runId);
    fs.rmSync(runDir, { recursive: true, force: true });
  };
  process.once('SIGINT', () => {
    log('interrupted; ending every process this run started');
    cleanup().finally(() => process.exit(130));
  });

  const ctx = { runId, runDir, cols: COLS, rows: ROWS, keys: options.keys, a1Bin: options.a1Bin, log };
  const startedAt = new Date().toISOString();
  const collected = {};
  /** Wall time per measure (prepare and every round), to see which measure the run's length goes to. */
  const seconds = {};
  try {
    const inputs = {};
    for (const measure of options.measures) {
      collected[measure.name] = { rounds: Object.fromEntries(Object.keys(measure.drivers).map((system) => [system, []])), errors: [] };
      seconds[measure.name] = 0;
      const preparedAt = performance.now();
      try {
        inputs[measure.name] = await measure.prepare(ctx);
      } catch (error) {
        // One measure that cannot be set up is reported as failed; the others still run.
        collected[measure.name].errors.push({ system: 'all', round: 0, message: `prepare: ${error.message}` });
        log(`${measure.name} prepare failed: ${error.message}`);
      }
      seconds[measure.name] += (performance.now() - preparedAt) / 1000;
    }
    for (let round = 1; round <= options.rounds; round++) {
      for (const measure of options.measures.filter((m) => m.name in inputs)) {
        const measureStart = performance.now();
        for (const system of runOrder(measure, round)) {
          const label = `round ${round}/${options.rounds} ${measure.name} ${system}`;
          log(`${label} ...`);
          const driverStart = performance.now();
          try {
            const value = await measure.drivers[system](ctx, inputs[measure.name]);
            collected[measure.name].rounds[system].push(value);
            log(`${label}: ${formatResult(value)} (${formatSeconds(performance.now() - driverStart)})`);
          } catch (error) {
            collected[measure.name].errors.push({ system, round, message: error.message });
            log(`${label} failed after ${formatSeconds(performance.now() - driverStart)}: ${error.message}`);
          }
        }
        seconds[measure.name] += (performance.now() - measureStart) / 1000;
      }
    }
  } finally {
    await cleanup();
  }

  const results = {
    startedAt,
    finishedAt: new Date().toISOString(),
    host: { node: process.version, platform: `${process.platform} ${os.release()}`, cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model ?? 'unknown' },
    systems: describeSystems(options.a1Bin),
    settings: { rounds: options.rounds, cols: COLS, rows: ROWS, keys: options.keys, only: options.only },
    measures: summarise(options.measures, collected),
  };
  results.targets = judgeTargets(results.measures);
  results.seconds = { ...seconds, total: (performance.now() - benchStart) / 1000 };
  const files = writeResults(RESULTS_DIR, results);
  console.log(toMarkdown(results));
  log(`results: ${[files.md, files.json, files.svg].map((file) => path.relative(process.cwd(), file)).join(', ')}`);
  log(`total: ${results.seconds.total.toFixed(1)} s`);
  if (options.profileDir) log(`profiles: ${options.profileDir}; where the time went: node bench/profile/top.mjs ${path.relative(process.cwd(), options.profileDir)}`);
}

/**
 * The systems a measure drives in one round: the known systems in their order (alternating who
 * goes first keeps a warming or cooling machine from favouring one side), then any other driver
 * (a reference such as the start-up floor) in its own order.
 */
function runOrder(measure, round) {
  const known = SYSTEMS.map(({ name }) => name);
  const ordered = round % 2 === 1 ? known : [...known].reverse();
  const others = Object.keys(measure.drivers).filter((name) => !known.includes(name));
  return [...ordered.filter((name) => measure.drivers[name]), ...others];
}

function formatSeconds(ms) {
  return `${(ms / 1000).toFixed(1)} s`;
}

main().catch((error) => {
  console.error(`bench: ${error.message}`);
  process.exit(1);
});
