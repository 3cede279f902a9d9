// The chaos run (issue 7): tabs print numbered lines while the server is killed with SIGKILL
// again and again; afterwards no tab or child process changed, every line is there once and in
// order, no process is orphaned and no tab duplicated. Shared by `npm run chaos` (full run) and
// test/e2e/chaos.test.ts (reduced run).
//
// How each thing is observed, through what the product offers:
// - tabs, holder and child pids: `a1 tabs --json`, with start times from /proc;
// - the replacement: the attached client (a real `a1` in a 120x40 PTY, read through a headless
//   terminal) starts it; after three automatic starts in a minute it shows a stopped state, and
//   the run presses its [r] as a person would (SPEC §10), counted apart;
// - retained lines: each tab's printer exits 0 at the end, and its holder writes the recovery
//   file (the model's screen and history, src/holder/recovery.ts), which is then read;
// - processes: /proc, by the profile's A1_HOME marker and the tab markers.

import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { BenchClient } from '../../bench/lib/client.mjs';
import { killAllWithEnv } from '../../bench/lib/procs.mjs';
import { accountProcesses, checkTabLines, comparePids, duplicateTabCount, linesIntact } from './checks.mjs';
import { isProfileServer, profileProcesses, startTimeOf } from './procs.mjs';
import { killOffsets, printIntervalMs, seededRandom } from './schedule.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const A1_BIN = path.resolve(HERE, '../../bin/a1');
const PRINTER = path.join(HERE, 'printer.mjs');

export const DEFAULTS = Object.freeze({ tabs: 5, kills: 10, seconds: 60 });
/** The size the issues measure and test at. */
const COLS = 120;
const ROWS = 40;
/** What the client shows while it has no server, and once it stopped starting one itself. */
const NOTICE_RECONNECTING = 'reconnecting…';
const NOTICE_STOPPED = 'a1 server stopped';
/** Generous for five other workers on two cores: a slow step passes, a missing one fails. */
const CLI_TIMEOUT_MS = 30_000;
const START_TIMEOUT_MS = 60_000;
const REPLACEMENT_TIMEOUT_MS = 30_000;
const SETTLE_TIMEOUT_MS = 30_000;
/** Reconciliation retires an orphan after a short grace (SPEC §10): one that outlives this is counted. */
const ORPHAN_GRACE_MS = 15_000;
/** One [r] per stopped notice: the next press only once a started replacement had time to show. */
const PRESS_AGAIN_AFTER_MS = 3_000;
/** Between two `a1 tabs --json` polls: each is a whole Node start already. */
const LIST_POLL_MS = 100;

/** The environment a person's shell would give `a1`, minus anything that would make it nest. */
function chaosEnv(extra) {
  const env = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value === undefined || key.startsWith('A1_') || key === 'TMUX' || key.startsWith('TMUX_')) continue;
    env[key] = value;
  }
  if (!env.LC_ALL && !env.LC_CTYPE && !env.LANG) env.LANG = 'C.UTF-8';
  return { ...env, SHELL: '/bin/bash', TERM: 'xterm-256color', ...extra };
}

/** Polls `probe` until it returns a truthy value; a timeout names what was awaited and last seen. */
async function until(probe, { timeoutMs, what, intervalMs = LIST_POLL_MS }) {
  const deadline = Date.now() + timeoutMs;
  let last = 'nothing yet';
  for (;;) {
    try {
      const value = await probe((seen) => {
        last = seen;
      });
      if (value) return value;
    } catch (error) {
      last = error.message;
    }
    if (Date.now() >= deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; last seen: ${last}`);
    await delay(intervalMs);
  }
}

function median(values) {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Every listed tab running, with a holder and a child, and a server listed. */
function steady(listing, count) {
  return listing.server !== null && listing.tabs.length >= count && listing.tabs.every((t) => t.status === 'running' && t.holderPid && t.childPid);
}

/** Tabs as comparePids wants them: pids with their /proc start times. */
function withStartTimes(listing) {
  return listing.tabs.map((t) => ({ ...t, holderStart: startTimeOf(t.holderPid), childStart: startTimeOf(t.childPid) }));
}

/**
 * Runs one chaos run and resolves with its result (it throws only on bad options; a run that
 * breaks off is a result with a failure). Options: tabs, kills, seconds, seed (default random),
 * intervalMs (default from seconds), runId (marks every process, for an interrupted run's
 * cleanup), a1Bin, log(message).
 */
export async function runChaos(options = {}) {
  const settings = {
    tabs: options.tabs ?? DEFAULTS.tabs,
    kills: options.kills ?? DEFAULTS.kills,
    seconds: options.seconds ?? DEFAULTS.seconds,
    seed: options.seed ?? crypto.randomBytes(4).readUInt32BE(0),
    intervalMs: options.intervalMs ?? printIntervalMs(options.seconds ?? DEFAULTS.seconds),
  };
  for (const key of ['tabs', 'kills', 'seconds', 'intervalMs']) {
    if (!Number.isInteger(settings[key]) || settings[key] < 1) throw new Error(`${key} must be a positive integer, not ${settings[key]}.`);
  }
  const runId = options.runId ?? crypto.randomBytes(4).toString('hex');
  const a1Bin = options.a1Bin ?? A1_BIN;
  const log = options.log ?? (() => {});

  // Short: a1's sockets live under A1_HOME, and socket paths are limited to ~107 bytes.
  const root = runRoot(runId);
  fs.mkdirSync(root, { mode: 0o700 });
  const home = path.join(root, 'h');
  const ctl = path.join(root, 'ctl');
  fs.mkdirSync(path.join(home, 'config'), { recursive: true, mode: 0o700 });
  fs.mkdirSync(ctl, { mode: 0o700 });
  fs.writeFileSync(path.join(home, 'config', 'config.json'), JSON.stringify({ tabCommand: ['/bin/bash', '--norc', '--noprofile'] }), { mode: 0o600 });
  const env = chaosEnv({ A1_HOME: home, [CHAOS_MARKER]: runId });

  const a1 = (args) =>
    new Promise((resolve, reject) => {
      execFile(process.execPath, [a1Bin, ...args], { env, cwd: home, timeout: CLI_TIMEOUT_MS }, (error, stdout, stderr) => {
        if (error) reject(new Error(`a1 ${args.join(' ')} failed: ${stderr.trim() || error.message}`));
        else resolve(stdout);
      });
    });
  const listing = async () => JSON.parse(await a1(['tabs', '--json']));

  const result = { settings, figures: emptyFigures(), kills: [], tabs: [], evidence: [], failures: [] };
  const figures = result.figures;
  let client = null;
  try {
    // The tabs, each printing `chaos <name> ready` and waiting for the go file.
    const names = Array.from({ length: settings.tabs }, (_, i) => `chaos-${i + 1}`);
    for (const name of names) await a1(['new', '--name', name, '--', process.execPath, PRINTER, name, String(settings.intervalMs), ctl]);
    client = new BenchClient({ argv: [process.execPath, a1Bin], env, cwd: home, cols: COLS, rows: ROWS });
    await client.waitForScreen((lines) => lines.some((l) => /^chaos chaos-\d+ ready/.test(l)), { timeoutMs: START_TIMEOUT_MS, what: 'the client showing a tab' });
    const first = await until(async (seen) => {
      const l = await listing();
      seen(JSON.stringify(l));
      return steady(l, settings.tabs) ? l : null;
    }, { timeoutMs: START_TIMEOUT_MS, what: `${settings.tabs} tabs running` });
    const before = withStartTimes(first);
    figures.tabs = first.tabs.length;
    log(`${first.tabs.length} tabs running (${first.tabs.map((t) => `${t.name}: holder ${t.holderPid}, child ${t.childPid}`).join('; ')}); server ${first.server.pid} epoch ${first.server.epoch}`);

    // The kill phase.
    const offsets = killOffsets(settings.kills, settings.seconds, seededRandom(settings.seed));
    let server = { pid: first.server.pid, epoch: first.server.epoch, startTime: startTimeOf(first.server.pid) };
    fs.writeFileSync(path.join(ctl, 'go'), '');
    const t0 = performance.now();
    for (let i = 0; i < offsets.length; i++) {
      const wait = t0 + offsets[i] - performance.now();
      // The schedule is the run's input (random spacing), not a wait for a condition.
      if (wait > 0) await delay(wait);
      if (!isProfileServer(server.pid, home, server.startTime)) throw new Error(`server ${server.pid} (epoch ${server.epoch}) was not running when kill ${i + 1} was due`);
      const killedAt = performance.now();
      process.kill(server.pid, 'SIGKILL');
      const kill = { n: i + 1, atS: (killedAt - t0) / 1000, pid: server.pid, epoch: server.epoch };
      result.kills.push(kill);
      const next = await awaitReplacement(client, listing, server);
      Object.assign(kill, { replacementPid: next.pid, replacementEpoch: next.epoch, recoveryMs: next.readyAt - killedAt, by: next.pressed > 0 ? '[r]' : 'client' });
      log(`kill ${kill.n}/${settings.kills} at ${kill.atS.toFixed(1)} s: server ${kill.pid} (epoch ${kill.epoch}) → ${next.pid} (epoch ${next.epoch}) in ${Math.round(kill.recoveryMs)} ms, started by ${kill.by}`);
      server = next;
    }
    // Lines keep streaming for the whole phase, after the last kill too.
    const rest = t0 + settings.seconds * 1000 - performance.now();
    if (rest > 0) await delay(rest);
    figures.kills = result.kills.length;
    figures.killPhaseS = (performance.now() - t0) / 1000;
    figures.startedByClient = result.kills.filter((k) => k.by === 'client').length;
    figures.startedByR = result.kills.filter((k) => k.by === '[r]').length;
    figures.recoveryMedianMs = median(result.kills.map((k) => k.recoveryMs));
    figures.recoveryMaxMs = Math.max(...result.kills.map((k) => k.recoveryMs));

    // Afterwards: the same tabs, holders and children.
    const last = await until(async (seen) => {
      const l = await listing();
      seen(JSON.stringify(l));
      return steady(l, settings.tabs) && l.server.pid === server.pid ? l : null;
    }, { timeoutMs: SETTLE_TIMEOUT_MS, what: 'every tab running under the last replacement' });
    const pids = comparePids(before, withStartTimes(last));
    Object.assign(figures, { holderPidChanges: pids.holderChanges, childPidChanges: pids.childChanges, tabsGone: pids.tabsGone, tabsNew: pids.tabsNew });
    result.evidence.push(...pids.details);
    figures.duplicateTabs = duplicateTabCount(last, settings.tabs);

    // No process beyond the server, the client, and each tab's holder and child.
    let account = null;
    try {
      await until(async () => {
        account = accountProcesses(profileProcesses(home), { listing: last, clientPid: client.pid });
        return account.orphans === 0 && account.missing === 0;
      }, { timeoutMs: ORPHAN_GRACE_MS, what: 'the profile\'s processes to be exactly the listed ones' });
    } catch {
      // Counted below from the last account.
    }
    Object.assign(figures, { orphans: account.orphans, missingProcesses: account.missing, servers: account.servers });
    result.evidence.push(...account.details);

    // Every line, from the recovery file each holder writes when its printer exits 0.
    fs.writeFileSync(path.join(ctl, 'stop'), '');
    for (const tab of before) {
      const check = await readTabLines(home, ctl, tab);
      result.tabs.push(check);
      if (check.printerPid !== tab.childPid) result.evidence.push(`tab ${tab.name}: the printer that exited was ${check.printerPid}, not the child ${tab.childPid} seen before the kills`);
      if (check.recoveryFiles !== 1) result.evidence.push(`tab ${tab.name}: ${check.recoveryFiles} recovery files (one per child that ended)`);
      if (!linesIntact(check)) {
        if (!check.ready && check.missingRanges[0]?.startsWith('1-') && check.missingRanges.length === 1) {
          result.evidence.push(`tab ${tab.name}: only the first lines are missing, as when more were printed than the recovery file keeps; a longer --interval fits them`);
        }
        result.evidence.push(`tab ${tab.name}: ${check.seen}/${check.printed} lines; missing ${check.missingRanges.join(', ') || 'none'}; ${check.outOfOrder} out of order, ${check.duplicates} repeated, ${check.foreign} foreign ${JSON.stringify(check.foreignSample)}; ready ${check.ready}, end ${check.end}`);
      }
    }
    figures.linesPrinted = sum(result.tabs.map((c) => c.printed));
    figures.linesMinPerTab = Math.min(...result.tabs.map((c) => c.printed));
    figures.linesLost = sum(result.tabs.map((c) => c.missing + (c.ready ? 0 : 1) + (c.end === c.printed ? 0 : 1)));
    figures.linesOutOfOrder = sum(result.tabs.map((c) => c.outOfOrder));
    figures.linesRepeated = sum(result.tabs.map((c) => c.duplicates + c.beyond));
    figures.linesForeign = sum(result.tabs.map((c) => c.foreign));
    figures.printerMismatches = result.tabs.filter((c, i) => c.printerPid !== before[i].childPid || c.recoveryFiles !== 1).length;
  } catch (error) {
    result.failures.push(`the run broke off: ${error.message}`);
  } finally {
    client?.dispose();
    try {
      await killAllWithEnv(CHAOS_MARKER, runId);
      await killAllWithEnv('A1_HOME', home);
    } catch (error) {
      result.failures.push(error.message);
    }
    fs.rmSync(root, { recursive: true, force: true });
  }
  return result;
}

/** Marks every process of one run, so an interrupted run still ends all of them by pid. */
export const CHAOS_MARKER = 'A1_CHAOS_RUN';

/** The run's temporary directory, from its id: known to an interrupt handler too. */
export function runRoot(runId) {
  return path.join(os.tmpdir(), `a1c-${runId}`);
}

function sum(values) {
  return values.reduce((a, b) => a + b, 0);
}

/** Null until measured: a run that broke off shows which figures it never reached. */
function emptyFigures() {
  return {
    tabs: null,
    kills: null,
    killPhaseS: null,
    startedByClient: null,
    startedByR: null,
    recoveryMedianMs: null,
    recoveryMaxMs: null,
    holderPidChanges: null,
    childPidChanges: null,
    tabsGone: null,
    tabsNew: null,
    duplicateTabs: null,
    orphans: null,
    missingProcesses: null,
    servers: null,
    linesPrinted: null,
    linesMinPerTab: null,
    linesLost: null,
    linesOutOfOrder: null,
    linesRepeated: null,
    linesForeign: null,
    printerMismatches: null,
  };
}

/**
 * After a kill: presses [r] whenever the client shows its stopped state, until `a1 tabs --json`
 * lists a new server (higher epoch) and the client shows no notice, i.e. it is subscribed to it.
 */
async function awaitReplacement(client, listing, killed) {
  let pressed = 0;
  let pressedAt = -Infinity;
  const found = await until(async (seen) => {
    const stopped = client.screenText().some((l) => l.includes(NOTICE_STOPPED));
    if (stopped && performance.now() - pressedAt > PRESS_AGAIN_AFTER_MS) {
      client.write('r');
      pressed++;
      pressedAt = performance.now();
    }
    const l = await listing();
    seen(`server ${JSON.stringify(l.server)}${stopped ? ', client stopped' : ''}`);
    return l.server && l.server.pid !== killed.pid && l.server.epoch > killed.epoch ? l.server : null;
  }, { timeoutMs: REPLACEMENT_TIMEOUT_MS, what: `a replacement of server ${killed.pid} (epoch ${killed.epoch})` });
  const { at } = await client.waitForScreen((lines) => !lines.some((l) => l.includes(NOTICE_RECONNECTING) || l.includes(NOTICE_STOPPED)), {
    timeoutMs: REPLACEMENT_TIMEOUT_MS,
    what: `the client reconnected to server ${found.pid}`,
  });
  return { pid: found.pid, epoch: found.epoch, startTime: startTimeOf(found.pid), pressed, readyAt: at };
}

/** Waits for the tab's printer to report and its holder to write the recovery file; checks it. */
async function readTabLines(home, ctl, tab) {
  const recoveryDir = path.join(home, 'state', 'default', 'recovery');
  const filesOf = () => {
    try {
      return fs.readdirSync(recoveryDir).filter((n) => n.startsWith(`${tab.id}-`) && n.endsWith('.txt'));
    } catch {
      return [];
    }
  };
  const report = await until(async () => {
    const file = path.join(ctl, `${tab.name}.json`);
    return fs.existsSync(file) && filesOf().length > 0 ? JSON.parse(fs.readFileSync(file, 'utf8')) : null;
  }, { timeoutMs: SETTLE_TIMEOUT_MS, what: `tab ${tab.name}'s printer to exit and its recovery file` });
  const files = filesOf()
    .map((n) => path.join(recoveryDir, n))
    .sort((a, b) => fs.statSync(a).mtimeMs - fs.statSync(b).mtimeMs);
  const text = fs.readFileSync(files[files.length - 1], 'utf8');
  return { ...checkTabLines(text, tab.name, report.last), printerPid: report.pid, recoveryFiles: files.length };
}
