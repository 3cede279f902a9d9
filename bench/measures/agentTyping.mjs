// Typing into the real Claude Code of the test rig (bench/lib/agentRig.mjs): the time from
// writing one printable key to the bench's PTY until Claude Code's input box shows it, for Claude
// Code run directly in that PTY and for Claude Code in an a1 tab viewed by an a1 client in the
// same kind of PTY (120x40), in the same run. Judged on what a1 adds: a1 minus direct.
//
// Both start together and are typed into key by key in turn (one key here, the same key there),
// so a machine that gets busier or quieter meanwhile, as a shared one does from second to second,
// weighs on both alike. Keys wait for their echo, as echo.mjs does, and
// the echo is found on the parsed screen: the input row `❯ <typed so far>` (distinct keys, so it
// only holds once the newest key is drawn). Enter is never pressed: no prompt reaches the model.
// a1 only (no tmux driver); 'not run' with the reason when the pinned Claude Code is not installed.

import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { CLAUDE_BIN, claudeMissing, personEnv, prepareClaudeHome, startMockModel } from '../lib/agentRig.mjs';
import { BenchClient } from '../lib/client.mjs';
import { killAllWithEnv } from '../lib/procs.mjs';
import { percentile, seededRandom } from '../lib/stats.mjs';
import { INSTANCE_MARKER } from '../lib/systems.mjs';

/** Keys measured per side and round: a p99 that is not the single worst key, in about a minute a round. */
const KEYS_PER_SIDE = 150;
/** Keys per line, erased after: shorter than the input box, so it never wraps. */
const LINE_KEYS = 50;
/** Claude Code keeps loading for a while after its prompt shows: its first keys echo late. */
const WARMUP_KEYS = 20;
/** A person's irregular typing rhythm, as echo.mjs types. */
const PAUSE_MIN_MS = 5;
const PAUSE_MAX_MS = 30;
const PAUSE_SEED = 0xa1;
/** Distinct keys, none of which opens one of Claude Code's menus or modes (/, @, !, #, ?). */
const KEY_CYCLE = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
/** Claude Code's input box: the prompt mark, a no-break space, then what was typed. */
const INPUT_MARK = '❯\u00a0';
/** Shown under an empty input box once Claude Code takes keys. */
const READY_TEXT = '? for shortcuts';
/** Ctrl+U: Claude Code erases the input line to its start. */
const KILL_LINE = '\x15';
/** Claude Code starts in seconds, in tens of them on a loaded machine. */
const READY_TIMEOUT_MS = 120_000;
/** A warm-up key may wait out Claude Code's start-up work; a measured one never should. */
const KEY_TIMEOUT_MS = 15_000;
const A1_CLI_TIMEOUT_MS = 60_000;

const shows = (client, pred, what, timeoutMs = KEY_TIMEOUT_MS) => client.waitForScreen((lines) => lines.some(pred), { timeoutMs, what });

async function clearInput(client) {
  client.write(KILL_LINE);
  const start = `${INPUT_MARK}${KEY_CYCLE[0]}`;
  await client.waitForScreen((lines) => !lines.some((line) => line.includes(start)), { timeoutMs: KEY_TIMEOUT_MS, what: 'the input line to be erased' });
}

/** Types key `i` of the line into `client`'s input box, which shows keys `0..i-1`; its echo latency in ms. */
async function typeKey(client, i) {
  const expected = `${INPUT_MARK}${KEY_CYCLE.slice(0, i + 1)}`;
  const echoed = shows(client, (line) => line.includes(expected), `the echo of key ${i + 1}`);
  const sent = client.write(KEY_CYCLE[i]);
  const { at } = await echoed;
  return at - sent;
}

/**
 * Types one line of `count` keys into each side's empty input box, key by key in turn (who goes
 * first alternates), then erases them; adds the echo latencies in ms to `samples[side]`.
 */
async function typeLines(sides, order, count, random, samples) {
  for (let i = 0; i < count; i++) {
    for (const name of i % 2 === 0 ? order : [...order].reverse()) {
      samples[name].push(await typeKey(sides[name], i));
      await delay(PAUSE_MIN_MS + random() * (PAUSE_MAX_MS - PAUSE_MIN_MS));
    }
  }
  for (const name of order) await clearInput(sides[name]);
}

/** `a1 new --agent claude`: the tab (and the server) start while the direct side starts too. */
async function startA1Tab(ctx, env, work) {
  try {
    await promisify(execFile)(process.execPath, [ctx.a1Bin, 'new', '--agent', 'claude', '--name', 'claude', '--cwd', work], { env, cwd: work, timeout: A1_CLI_TIMEOUT_MS });
  } catch (error) {
    throw new Error(`a1 new --agent claude failed: ${error.stderr?.trim() || error.message}`);
  }
}

/** The profile is not new: no first-run hint over the tab (as test/e2e/harness.ts dismisses it). */
function dismissFirstRunHint(a1Home) {
  const dir = path.join(a1Home, 'state', 'default');
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.chmodSync(path.join(a1Home, 'state'), 0o700);
  fs.chmodSync(a1Home, 0o700);
  fs.writeFileSync(path.join(dir, 'first-run-hint-dismissed'), 'dismissed by the bench\n', { mode: 0o600 });
}

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const summary = (samples) => ({ p50: percentile(samples, 50), p99: percentile(samples, 99) });

/** One round: both sides started, warmed up and typed into key by key in turn. */
async function measureAgentTyping(ctx, input) {
  const missing = claudeMissing();
  if (missing) throw new Error(`not run: ${missing}`);
  const round = ++input.rounds;
  const instance = `${ctx.runId}-typing-${round}`;
  const root = fs.mkdtempSync(path.join(ctx.runDir, 't-'));
  const a1Home = path.join(root, 'a1');
  const clients = [];
  let mock = null;
  try {
    mock = await startMockModel();
    dismissFirstRunHint(a1Home);
    const base = personEnv(INSTANCE_MARKER, instance);
    const agent = prepareClaudeHome(root, mock.port, ctx.a1Bin, { ...base, A1_HOME: a1Home });
    const env = { ...base, ...agent.env };
    const a1Env = { ...env, A1_HOME: a1Home };
    const open = (argv, clientEnv) => {
      const client = new BenchClient({ argv, env: clientEnv, cwd: agent.work, cols: ctx.cols, rows: ctx.rows });
      clients.push(client);
      return client;
    };
    const startedAt = performance.now();
    const direct = open([CLAUDE_BIN], env);
    await startA1Tab(ctx, a1Env, agent.work);
    const sides = { direct, a1: open([process.execPath, ctx.a1Bin], a1Env) };
    await Promise.all(Object.entries(sides).map(([name, client]) => shows(client, (line) => line.includes(READY_TEXT), `Claude Code ${name} to take keys`, READY_TIMEOUT_MS)));
    // Alternating which side goes first keeps either from always typing on a fresher machine.
    const order = round % 2 === 1 ? ['direct', 'a1'] : ['a1', 'direct'];
    const typingAt = performance.now();
    const random = seededRandom(PAUSE_SEED);
    await typeLines(sides, order, WARMUP_KEYS, random, { direct: [], a1: [] });
    const samples = { direct: [], a1: [] };
    for (let typed = 0; typed < KEYS_PER_SIDE; typed += LINE_KEYS) await typeLines(sides, order, Math.min(LINE_KEYS, KEYS_PER_SIDE - typed), random, samples);
    ctx.log(`agent-typing: both took keys after ${seconds(typingAt - startedAt)}, typing took ${seconds(performance.now() - typingAt)}`);
    const alone = summary(samples.direct);
    const viaA1 = summary(samples.a1);
    return {
      addedP50: viaA1.p50 - alone.p50,
      addedP99: viaA1.p99 - alone.p99,
      a1P50: viaA1.p50,
      a1P99: viaA1.p99,
      directP50: alone.p50,
      directP99: alone.p99,
    };
  } finally {
    for (const client of clients) client.dispose();
    mock?.stop();
    await killAllWithEnv('A1_HOME', a1Home);
    await killAllWithEnv(INSTANCE_MARKER, instance);
    fs.rmSync(root, { recursive: true, force: true });
  }
}

export const agentTyping = {
  name: 'agent-typing',
  metrics: [
    { key: 'addedP50', label: 'typing into Claude Code: a1 over direct, p50', unit: 'ms' },
    { key: 'addedP99', label: 'typing into Claude Code: a1 over direct, p99', unit: 'ms' },
    { key: 'a1P50', label: 'typing into Claude Code in an a1 tab, key to echo p50', unit: 'ms' },
    { key: 'a1P99', label: 'typing into Claude Code in an a1 tab, key to echo p99', unit: 'ms' },
    { key: 'directP50', label: 'typing into Claude Code run directly, key to echo p50', unit: 'ms' },
    { key: 'directP99', label: 'typing into Claude Code run directly, key to echo p99', unit: 'ms' },
  ],
  // Counts the rounds, for the alternating order.
  prepare: () => ({ rounds: 0 }),
  drivers: { a1: measureAgentTyping },
};
