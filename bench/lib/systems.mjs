// The two multiplexers under comparison, each started fresh in a person's 120x40 terminal with a
// bare bash in its first tab/pane, and stopped by pid: `start(ctx)` resolves once the shell's
// prompt is on the client's screen, with `{ client, stop, cli, attach }`: `cli(args)` runs one of
// the system's own commands (`a1 ...`, `tmux -L <socket> ...`) against this instance, and
// `attach()` starts another client of it in a fresh 120x40 PTY. A bare Node relay (`relay`)
// starts the same way with `{ client, stop }`, as the floor a Node client and holder can reach.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BenchClient } from './client.mjs';
import { killAllWithEnv } from './procs.mjs';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The a1 this checkout builds; `--a1 PATH` runs another entry instead. */
export const A1_BIN = path.join(REPO_ROOT, 'bin', 'a1');

/** The same bare shell in both: no rc files, so neither side pays for a user's prompt setup. */
export const SHELL_ARGV = ['/bin/bash', '--norc', '--noprofile'];
/** Distinct from anything either client draws around the shell (tab strip, status line). */
export const PROMPT = 'bench> ';
/** Marks every process one started system owns, so all of them can be found and ended by pid. */
export const INSTANCE_MARKER = 'BENCH_INSTANCE';
/** a1 starts a server and a holder before the shell; generous for a loaded machine. */
const START_TIMEOUT_MS = 30_000;
/** One maintenance command (`a1 new`, `tmux new-window`); generous for a flooded machine. */
const CLI_TIMEOUT_MS = 30_000;

let instanceSeq = 0;

/** A person's environment minus anything that would make either client nest or attach elsewhere. */
export function benchEnv(instance, extra) {
  const env = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (key.startsWith('A1_') || key === 'TMUX' || key === 'TMUX_PANE' || key === 'PROMPT_COMMAND') continue;
    env[key] = value;
  }
  if (!env.LC_ALL && !env.LC_CTYPE && !env.LANG) env.LANG = 'C.UTF-8';
  return {
    ...env,
    SHELL: SHELL_ARGV[0],
    TERM: 'xterm-256color',
    PS1: PROMPT,
    HISTFILE: '', // an interactive bash would otherwise append the bench's commands to ~/.bash_history
    [INSTANCE_MARKER]: instance,
    ...extra,
  };
}

async function waitForPrompt(client) {
  await client.waitForScreen((lines) => lines.some((line) => line.includes(PROMPT.trimEnd())), {
    timeoutMs: START_TIMEOUT_MS,
    what: 'the shell prompt',
  });
}

/** Starts the client; if the prompt never shows, stops everything before rethrowing. */
async function started(instance) {
  try {
    await waitForPrompt(instance.client);
  } catch (error) {
    await instance.stop();
    throw error;
  }
  return instance;
}

/** Runs a command of the system under test to completion; throws with its stderr if it fails. */
function runCli(argv, env, cwd) {
  const [file, ...args] = argv;
  const result = spawnSync(file, args, { env, cwd, encoding: 'utf8', timeout: CLI_TIMEOUT_MS });
  if (result.error) throw result.error;
  if (result.status !== 0) {
    // `node <a1 entry> new ...` reads as `a1 new ...`.
    const shown = (file === process.execPath ? args : argv).map((arg) => path.basename(arg)).join(' ');
    throw new Error(`${shown} failed: ${result.stderr.trim() || `exit ${result.status ?? result.signal}`}`);
  }
  return result.stdout;
}

/** A unique marker for one started system (or one cold start), under this run's. */
export function newInstance(ctx) {
  return `${ctx.runId}-${++instanceSeq}`;
}

/**
 * A fresh, empty A1_HOME under the run dir whose tabs run the bench's bare shell, with the
 * environment a1 runs in there (a returning user's, unless `firstRun`); `a1Client()` spawns `a1` in a fresh 120x40 PTY as a person would,
 * and `remove()` ends every process of that home by pid and deletes it.
 */
export function freshA1Home(ctx, instance, { firstRun = false } = {}) {
  const home = fs.mkdtempSync(path.join(ctx.runDir, 'h-'));
  fs.mkdirSync(path.join(home, 'config'), { mode: 0o700 });
  fs.writeFileSync(path.join(home, 'config', 'config.json'), JSON.stringify({ tabCommand: SHELL_ARGV }), { mode: 0o600 });
  if (!firstRun) {
    // A returning user's: the first-run hint (src/app/attach/firstRunHint.ts) dismissed, so it does
    // not share the prompt's row or repaint over what a measure watches on the screen.
    const stateDir = path.join(home, 'state', 'default');
    fs.mkdirSync(stateDir, { recursive: true, mode: 0o700 });
    fs.writeFileSync(path.join(stateDir, 'first-run-hint-dismissed'), '', { mode: 0o600 });
  }
  const env = benchEnv(instance, { A1_HOME: home });
  const a1Client = () => new BenchClient({ argv: [process.execPath, ctx.a1Bin], env, cwd: ctx.runDir, cols: ctx.cols, rows: ctx.rows });
  const remove = async () => {
    await killAllWithEnv('A1_HOME', home);
    await killAllWithEnv(INSTANCE_MARKER, instance);
    fs.rmSync(home, { recursive: true, force: true });
  };
  return { home, env, a1Client, remove };
}

export const a1 = {
  name: 'a1',
  async start(ctx) {
    const instance = newInstance(ctx);
    const { env, a1Client: attach, remove } = freshA1Home(ctx, instance);
    const client = attach();
    const stop = async () => {
      client.dispose();
      await remove();
    };
    const cli = (args) => runCli([process.execPath, ctx.a1Bin, ...args], env, ctx.runDir);
    return started({ client, stop, cli, attach });
  },
};

export const tmux = {
  name: 'tmux',
  async start(ctx) {
    const instance = newInstance(ctx);
    const socket = `a1bench-${instance}`;
    const env = benchEnv(instance, {});
    const tmuxClient = (args) => new BenchClient({ argv: ['tmux', '-L', socket, '-f', '/dev/null', ...args], env, cwd: ctx.runDir, cols: ctx.cols, rows: ctx.rows });
    const client = tmuxClient(['new-session', ...SHELL_ARGV]);
    const stop = async () => {
      spawnSync('tmux', ['-L', socket, 'kill-server'], { env, stdio: 'ignore' });
      client.dispose();
      await killAllWithEnv(INSTANCE_MARKER, instance);
      // A server that had to be SIGKILLed leaves its socket behind.
      const socketDir = path.join(env.TMUX_TMPDIR || '/tmp', `tmux-${process.getuid()}`);
      fs.rmSync(path.join(socketDir, socket), { force: true });
    };
    const cli = (args) => runCli(['tmux', '-L', socket, ...args], env, ctx.runDir);
    return started({ client, stop, cli, attach: () => tmuxClient(['attach']) });
  },
};

/** The bare Node relay: the reference for the echo floor, not a multiplexer. */
const RELAY_DIR = path.join(REPO_ROOT, 'bench', 'lib', 'relay');

/**
 * Starts `node RELAY_DIR/<script> ...args SHELL_ARGV` in the bench's PTY, where `relayArgs(instance)`
 * gives `{ args, files }`. Every process it starts carries the instance marker and is ended by it;
 * `files` are removed after.
 */
function startRelay(ctx, script, relayArgs) {
  const instance = newInstance(ctx);
  const { args, files } = relayArgs(instance);
  const argv = [process.execPath, path.join(RELAY_DIR, script), ...args, ...SHELL_ARGV];
  const client = new BenchClient({ argv, env: benchEnv(instance, {}), cwd: ctx.runDir, cols: ctx.cols, rows: ctx.rows });
  const stop = async () => {
    client.dispose();
    await killAllWithEnv(INSTANCE_MARKER, instance);
    for (const file of files) fs.rmSync(file, { force: true });
  };
  return started({ client, stop });
}

/** a1's process topology with none of a1's work: a client and a holder relaying bytes over a Unix socket. */
export const relay = {
  name: 'relay',
  start: (ctx) =>
    startRelay(ctx, 'client.mjs', (instance) => {
      const socket = path.join(ctx.runDir, `relay-${instance}.sock`);
      return { args: [socket], files: [socket] };
    }),
};

/**
 * Every system, in the order a round runs them; a measure runs those it has drivers for. The
 * targets compare a1 with tmux; relay is the reference for the echo floor only.
 */
export const SYSTEMS = [a1, tmux, relay];

/** Runs `fn(client, instance)` on a freshly started system and always stops it. */
export async function withSystem(system, ctx, fn) {
  const instance = await system.start(ctx);
  try {
    return await fn(instance.client, instance);
  } finally {
    await instance.stop();
  }
}

/** Versions and commit, for the results file. */
export function describeSystems(a1Bin) {
  const run = (cmd, args) => spawnSync(cmd, args, { encoding: 'utf8', cwd: REPO_ROOT }).stdout?.trim() || null;
  return {
    tmux: run('tmux', ['-V']),
    a1: { commit: run('git', ['rev-parse', '--short', 'HEAD']), bin: a1Bin },
  };
}
