// Many tabs (a1 only, judged against a1's own 5-tab figures from the same round): one a1 grows to
// 5, 20 and 50 tabs, each tab's program printing a line a second and nobody typing.
//   - Idle CPU with 20 and 50 tabs, one client attached (viewing a printing tab) and, at 50, none:
//     the server's and every holder's utime + stime over a window, from /proc/<pid>/stat, as % of
//     one core per 10 tabs. The tabs' own programs are not counted, nor the client (reported apart).
//   - At 5 and at 50 tabs: attach p95 (a fresh `a1 attach` to a full screen, as measures/attach.mjs
//     times it), strip redraw on a status change (a report over a non-viewed tab's bridge until the
//     attached client's strip shows its chip's glyph, median), and `a1 tabs` wall time p95.
// Tab 1 holds the full screen for the attaches (its program then sleeps, so it does not print);
// tab 2 runs lib/statusTicker.mjs, whose waiting `a1 status --hook` is released by a signal; the
// viewing client watches tab 3, next to it, so tab 2's chip stays on the strip. The rest are opened
// with the new-tab key and run the printer as the profile's tabCommand, with tabsMax raised to 50.

import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import { BenchClient } from '../lib/client.mjs';
import { clockTicksPerSecond, cpuTicks, cpuTicksOf, processState } from '../lib/cpu.mjs';
import { pollUntil } from '../lib/poll.mjs';
import { percentile, median } from '../lib/stats.mjs';
import { REPO_ROOT, a1, withSystem } from '../lib/systems.mjs';

const FEW = 5;
const SOME = 20;
const MANY = 50;
/** The unit: CPU per 10 tabs. */
const PER_TABS = 10;
/** 2% per 10 tabs at 20 tabs is 24 clock ticks in this window: enough to judge, short enough that
 * three windows a round keep the run within its budget. */
const CPU_WINDOW_MS = 6_000;
const ATTACH_RUNS = 10;
const STRIP_CHANGES = 6;
const TABS_RUNS = 8;
/** a1's new-tab key, alt+a. */
const NEW_TAB_KEY = '\x1ba';
/** Polls of an unchanged tab count, every tab running, before short keys are pressed again. */
const STALLED_POLLS = 3;
/** A line a second with bash builtins only: `date; sleep 1` is two execs a second per tab, a
 * hundred a second at 50 tabs, a load of the printers' own that slowed everything measured with
 * them. `read -t 1` waits on a pipe nobody writes to (its writer, started once, never does). */
const PRINTER_ARGV = ['/bin/bash', '--norc', '--noprofile', '-c', 'while :; do printf "%(%T)T\\n" -1; read -rt 1 <&9; done 9< <(exec sleep 2147483647)'];
const TICKER = path.join(REPO_ROOT, 'bench', 'lib', 'statusTicker.mjs');
const WATCHED = 'watched';
const VIEWED = 'p3';
const MARKER = 'MANY-TABS-LAST-ROW';
const FILL_ROWS = 60;
/** Generous for a loaded 2-core machine: a slow step is measured, a stuck one fails. */
const STEP_TIMEOUT_MS = 60_000;
const WAIT_TIMEOUT_MS = 15_000;
/** A holder start took up to 7 s on a 2-core machine at load 25. */
const GROW_TIMEOUT_PER_TAB_MS = 8_000;
/** A 2 s slice of CPU that agrees with the one before within this counts as settled. Holders
 * just started cost more for seconds (their code not yet compiled, their first frames): 1 s
 * slices within 3 ticks passed while that still decayed, and the window after tabs were opened
 * read twice what the same tabs took a minute later. */
const SETTLE_SLICE_MS = 2000;
const SETTLE_TOLERANCE = 0.15;
const SETTLE_MIN_TICKS = 2;
const SETTLE_TIMEOUT_MS = 20_000;

const markerShown = (lines) => lines.some((line) => line.includes(MARKER)) && lines.some((line) => line.startsWith('row '));
const glyphShown = (lines) => lines.some((line) => line.includes(`? ${WATCHED}`));
const chipShown = (lines) => lines.some((line) => line.includes(WATCHED));

/** The environment the bench gave this a1 (its first client's), for clients and commands of its own. */
function environOf(pid) {
  const env = {};
  for (const entry of fs.readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0')) {
    const eq = entry.indexOf('=');
    if (eq > 0) env[entry.slice(0, eq)] = entry.slice(eq + 1);
  }
  return env;
}

function tabsOf(instance) {
  return JSON.parse(instance.cli(['tabs', '--json']));
}

/** `a1 new --name NAME -- ARGV`. */
function newTab(instance, name, argv) {
  instance.cli(['new', '--name', name, ...(argv ? ['--', ...argv] : [])]);
}

/** Every tab listed runs its program: started, with a holder and a child. */
const allRunning = (listed, total) => listed.tabs.length >= total && listed.tabs.every((tab) => tab.status === 'running' && tab.holderPid && tab.childPid);

/**
 * The listing, or null when the server missed the command's handshake deadline: while it starts
 * tens of holders on a loaded machine it can (logged; the wait goes on).
 */
function tabsOfWhileStarting(ctx, instance) {
  try {
    return tabsOf(instance);
  } catch (error) {
    ctx.log(`many tabs: ${error.message.split('\n')[0]}`);
    return null;
  }
}

/**
 * Opens tabs with a1's new-tab key (alt+a) in a client of its own until the instance has `total`,
 * then waits until every one runs its program: one key costs the server a holder start, where
 * `a1 new` would add a Node start of its own, and tens of them at once can keep a loaded server
 * from answering a command's handshake in time. Keys the server refused or dropped are pressed again.
 */
async function growTo(ctx, env, instance, total, viewedId) {
  const startedAt = performance.now();
  const creator = attachClient(ctx, env, viewedId);
  let listed;
  try {
    await creator.waitForScreen(chipShown, { timeoutMs: WAIT_TIMEOUT_MS, what: 'the strip before opening tabs' });
    creator.write(NEW_TAB_KEY.repeat(Math.max(0, total - tabsOf(instance).tabs.length)));
    let stalled = { count: -1, polls: 0 };
    listed = await pollUntil(
      () => {
        const now = tabsOfWhileStarting(ctx, instance);
        if (now === null) return null;
        if (allRunning(now, total)) return now;
        // A key the server dropped: the count stays short while nothing starts.
        stalled = now.tabs.length === stalled.count ? { count: stalled.count, polls: stalled.polls + 1 } : { count: now.tabs.length, polls: 0 };
        if (stalled.polls >= STALLED_POLLS && now.tabs.length < total && now.tabs.every((tab) => tab.status === 'running')) {
          creator.write(NEW_TAB_KEY.repeat(total - now.tabs.length));
          stalled = { count: -1, polls: 0 };
        }
        return null;
      },
      // Each poll starts a Node: rare enough not to slow the starts it waits for.
      { timeoutMs: STEP_TIMEOUT_MS + GROW_TIMEOUT_PER_TAB_MS * total, intervalMs: 1000, what: `${total} tabs to run their programs` },
    );
  } finally {
    creator.dispose();
    await creator.exited;
  }
  ctx.log(`many tabs: ${total} tabs running after ${((performance.now() - startedAt) / 1000).toFixed(1)} s`);
  return listed;
}

/**
 * New tabs run the printer, and the default tabsMax (20) is raised: in this profile's config,
 * applied by `a1 tabs host reload` (tab 1, already running, keeps its shell).
 */
function printingTabs(home, instance) {
  const file = path.join(home, 'config', 'config.json');
  const config = JSON.parse(fs.readFileSync(file, 'utf8'));
  fs.writeFileSync(file, JSON.stringify({ ...config, tabCommand: PRINTER_ARGV, tabsMax: MANY }), { mode: 0o600 });
  instance.cli(['tabs', 'host', 'reload']);
}

/** The a1 processes whose CPU counts: the server and every tab's holder. */
const a1Pids = (listed) => [listed.server.pid, ...listed.tabs.map((tab) => tab.holderPid)];

/** Waits until a 1 s slice of the processes' CPU agrees with the one before: tab starts are over. */
async function settle(ctx, pids) {
  const deadline = Date.now() + SETTLE_TIMEOUT_MS;
  let before = cpuTicksOf(pids);
  let last = null;
  for (;;) {
    await delay(SETTLE_SLICE_MS);
    const now = cpuTicksOf(pids);
    const slice = now - before;
    before = now;
    // Settled: no lower than the slice before (no longer decaying) by more than the tolerance.
    if (last !== null && last - slice <= Math.max(SETTLE_MIN_TICKS, SETTLE_TOLERANCE * last)) return;
    if (Date.now() >= deadline) {
      ctx.log(`many tabs: CPU still moving after ${SETTLE_TIMEOUT_MS} ms (${last} then ${slice} ticks a second); measuring anyway`);
      return;
    }
    last = slice;
  }
}

/**
 * % of one core per 10 tabs taken by `pids` over the window, and by the server alone (`pids[0]`);
 * `extra` pids (a client) reported apart, as % of one core.
 */
async function cpuWindow(log, pids, tabs, ticksPerSecond, extra = []) {
  const startTicks = cpuTicksOf(pids);
  const startServer = cpuTicks(pids[0]);
  const startExtra = cpuTicksOf(extra);
  const startedAt = performance.now();
  await delay(CPU_WINDOW_MS);
  const seconds = (performance.now() - startedAt) / 1000;
  const share = (ticks) => (100 * ticks) / ticksPerSecond / seconds;
  const perTenTabs = share(cpuTicksOf(pids) - startTicks) / (tabs / PER_TABS);
  const serverPerTenTabs = share(cpuTicks(pids[0]) - startServer) / (tabs / PER_TABS);
  log(`many tabs: ${tabs} tabs, ${extra.length} client(s): server + holders ${perTenTabs.toFixed(2)}% (server ${serverPerTenTabs.toFixed(2)}%) of one core per ${PER_TABS} tabs`);
  return { perTenTabs, serverPerTenTabs, extra: share(cpuTicksOf(extra) - startExtra) };
}

function attachClient(ctx, env, tabId) {
  return new BenchClient({ argv: [process.execPath, ctx.a1Bin, 'attach', tabId], env, cwd: ctx.runDir, cols: ctx.cols, rows: ctx.rows });
}

async function fillScreen(client) {
  client.write(
    `clear; for i in $(seq 1 ${FILL_ROWS}); do printf 'row %03d of a full screen, each one distinct: %s\\n' $i $((i * 7919)); done; ` +
      `printf 'MANY-TABS-%s' LAST-ROW; exec sleep 1000000\r`,
  );
  await client.waitForScreen(markerShown, { timeoutMs: WAIT_TIMEOUT_MS, what: 'the full screen' });
}

async function timeAttaches(ctx, env, tabId) {
  const samples = [];
  for (let run = 0; run < ATTACH_RUNS; run++) {
    const spawnedAt = performance.now();
    const attached = attachClient(ctx, env, tabId);
    try {
      const { at } = await attached.waitForScreen(markerShown, { timeoutMs: WAIT_TIMEOUT_MS, what: 'the full screen after attaching' });
      samples.push(at - spawnedAt);
    } finally {
      attached.dispose();
      await attached.exited;
    }
  }
  return percentile(samples, 95);
}

function timeTabsListing(instance) {
  const samples = [];
  for (let run = 0; run < TABS_RUNS; run++) {
    const startedAt = performance.now();
    instance.cli(['tabs']);
    samples.push(performance.now() - startedAt);
  }
  return percentile(samples, 95);
}

/** The ticker's waiting hook, once it has handed on `count` reports and the next one sits idle on its stdin. */
async function hookReady(stateFile, count) {
  let seen = null;
  await pollUntil(
    () => {
      const [pid, handed] = (fs.existsSync(stateFile) ? fs.readFileSync(stateFile, 'utf8') : '').split(' ').map(Number);
      if (handed !== count || processState(pid) !== 'S') return false;
      // Idle: no CPU between two polls, so its Node has started and waits for the payload.
      const ticks = cpuTicks(pid);
      const idle = seen?.pid === pid && seen.ticks === ticks;
      seen = { pid, ticks };
      return idle;
    },
    { timeoutMs: WAIT_TIMEOUT_MS, intervalMs: 100, what: 'the status ticker\'s next report to wait' },
  );
}

/** Status change to the viewing client's strip: needs-input (`?`) and back to idle, alternately. */
async function timeStripRedraws(viewer, tickerPid, stateFile, handed) {
  const samples = [];
  for (let change = 0; change < STRIP_CHANGES; change++) {
    await hookReady(stateFile, handed.count);
    const toGlyph = handed.count % 2 === 0;
    const shown = viewer.waitForScreen((lines) => chipShown(lines) && glyphShown(lines) === toGlyph, {
      timeoutMs: WAIT_TIMEOUT_MS,
      what: toGlyph ? 'the watched chip\'s ?' : 'the watched chip without its ?',
    });
    const changedAt = performance.now();
    process.kill(tickerPid, 'SIGUSR1');
    handed.count += 1;
    const { at } = await shown;
    samples.push(at - changedAt);
  }
  return median(samples);
}

/** The ticker's pid, checked to be the ticker before it is ever signalled. */
function tickerPidOf(listed) {
  const pid = listed.tabs.find((tab) => tab.name === WATCHED)?.childPid;
  const argv = pid ? fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0') : [];
  if (!argv.includes(TICKER)) throw new Error('the watched tab does not run the status ticker');
  return pid;
}

async function viewing(ctx, env, tabId) {
  const viewer = attachClient(ctx, env, tabId);
  await viewer.waitForScreen(chipShown, { timeoutMs: WAIT_TIMEOUT_MS, what: 'the strip with the watched tab' });
  return viewer;
}

async function stage(ctx, env, instance, listed, ticker) {
  const startedAt = performance.now();
  const tabs = timeTabsListing(instance);
  const strip = await timeStripRedraws(ticker.viewer, ticker.pid, ticker.stateFile, ticker.handed);
  const attach = await timeAttaches(ctx, env, listed.tabs[0].id);
  const took = ((performance.now() - startedAt) / 1000).toFixed(1);
  ctx.log(`many tabs: ${listed.tabs.length} tabs: a1 tabs p95 ${tabs.toFixed(0)} ms, strip ${strip.toFixed(0)} ms, attach p95 ${attach.toFixed(0)} ms (${took} s)`);
  return { tabs, strip, attach };
}

async function manyTabsRound(ctx, ticksPerSecond) {
  return withSystem(a1, ctx, async (client, instance) => {
    const env = environOf(client.pid);
    const stateFile = path.join(fs.mkdtempSync(path.join(ctx.runDir, 'many-')), 'ticker');
    await fillScreen(client);
    client.dispose();
    await client.exited;
    printingTabs(env.A1_HOME, instance);
    newTab(instance, WATCHED, [process.execPath, TICKER, ctx.a1Bin, stateFile]);
    newTab(instance, VIEWED, null);
    const viewedId = tabsOf(instance).tabs.find((tab) => tab.name === VIEWED).id;
    let listed = await growTo(ctx, env, instance, FEW, viewedId);
    const ticker = { viewer: await viewing(ctx, env, viewedId), pid: tickerPidOf(listed), stateFile, handed: { count: 0 } };
    try {
      const few = await stage(ctx, env, instance, listed, ticker);

      listed = await growTo(ctx, env, instance, SOME, viewedId);
      await settle(ctx, a1Pids(listed));
      const some = await cpuWindow(ctx.log, a1Pids(listed), listed.tabs.length, ticksPerSecond, [ticker.viewer.pid]);

      listed = await growTo(ctx, env, instance, MANY, viewedId);
      await settle(ctx, a1Pids(listed));
      const many = await cpuWindow(ctx.log, a1Pids(listed), listed.tabs.length, ticksPerSecond, [ticker.viewer.pid]);
      ticker.viewer.dispose();
      await ticker.viewer.exited;
      await settle(ctx, a1Pids(listed));
      const unviewed = await cpuWindow(ctx.log, a1Pids(listed), listed.tabs.length, ticksPerSecond);
      ticker.viewer = await viewing(ctx, env, viewedId);

      const lots = await stage(ctx, env, instance, listed, ticker);
      return {
        cpu20: some.perTenTabs,
        cpu50: many.perTenTabs,
        cpu50NoClient: unviewed.perTenTabs,
        cpu20Server: some.serverPerTenTabs,
        cpu50Server: many.serverPerTenTabs,
        clientCpu50: many.extra,
        attach5: few.attach,
        attach50: lots.attach,
        attachRatio: lots.attach / few.attach,
        strip5: few.strip,
        strip50: lots.strip,
        stripRatio: lots.strip / few.strip,
        tabs5: few.tabs,
        tabs50: lots.tabs,
        tabsRatio: lots.tabs / few.tabs,
      };
    } finally {
      ticker.viewer.dispose();
    }
  });
}

export const manyTabs = {
  name: 'many-tabs',
  metrics: [
    { key: 'cpu20', label: `${SOME} tabs printing a line a second, one client: server + holders CPU, % of one core per ${PER_TABS} tabs`, unit: '%' },
    { key: 'cpu50', label: `${MANY} tabs printing a line a second, one client: server + holders CPU, % of one core per ${PER_TABS} tabs`, unit: '%' },
    { key: 'cpu50NoClient', label: `${MANY} tabs printing a line a second, no client: server + holders CPU, % of one core per ${PER_TABS} tabs`, unit: '%' },
    // The server's part of the two rows above: its periodic work need not grow with the tabs.
    { key: 'cpu20Server', label: `${SOME} tabs, one client: the server alone, % of one core per ${PER_TABS} tabs`, unit: '%' },
    { key: 'cpu50Server', label: `${MANY} tabs, one client: the server alone, % of one core per ${PER_TABS} tabs`, unit: '%' },
    { key: 'clientCpu50', label: `${MANY} tabs: the viewing client's own CPU, % of one core`, unit: '%' },
    { key: 'attach5', label: `attach to a full screen p95 with ${FEW} tabs (${ATTACH_RUNS} runs)`, unit: 'ms' },
    { key: 'attach50', label: `attach to a full screen p95 with ${MANY} tabs (${ATTACH_RUNS} runs)`, unit: 'ms' },
    { key: 'attachRatio', label: `attach p95, ${MANY} tabs / ${FEW} tabs`, unit: 'x' },
    { key: 'strip5', label: `strip redraw on a status change, median, ${FEW} tabs (${STRIP_CHANGES} changes)`, unit: 'ms' },
    { key: 'strip50', label: `strip redraw on a status change, median, ${MANY} tabs (${STRIP_CHANGES} changes)`, unit: 'ms' },
    { key: 'stripRatio', label: `strip redraw, ${MANY} tabs / ${FEW} tabs`, unit: 'x' },
    { key: 'tabs5', label: `a1 tabs p95 with ${FEW} tabs (${TABS_RUNS} runs)`, unit: 'ms' },
    { key: 'tabs50', label: `a1 tabs p95 with ${MANY} tabs (${TABS_RUNS} runs)`, unit: 'ms' },
    { key: 'tabsRatio', label: `a1 tabs p95, ${MANY} tabs / ${FEW} tabs`, unit: 'x' },
  ],
  prepare: () => ({ ticksPerSecond: clockTicksPerSecond() }),
  drivers: { a1: (ctx, { ticksPerSecond }) => manyTabsRound(ctx, ticksPerSecond) },
};
