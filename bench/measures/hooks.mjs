// What an agent's hooks cost the agent (issue 14), a1 only, judged against fixed bounds:
// - inside: the installed Claude Code hook lines (`a1 hooks install claude` into a scratch HOME),
//   run by a probe in an a1 tab exactly as Claude Code runs them (`/bin/sh -c LINE`, the event's
//   JSON on stdin, waiting for exit and closed output), 100 ms apart as in a turn; per event, median
//   and p95, and the same over an empty hook (`cat >/dev/null`, what running any hook costs the
//   agent on this machine), which the target is judged against; and back to back. The last event
//   asks for input, and the tab must end up showing that with the events' session: reports were
//   not reordered or lost.
// - outside: the same lines run with no tab around them, timed, and run under `strace -f` to
//   count Node starts (the target is none).
// - legacy: the form installed before issue 14 (`node a1 status --hook`, one Node start per
//   event, waited for), inside the same tab, for comparison.
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { runHook } from '../lib/hookProbe.mjs';
import { percentile } from '../lib/stats.mjs';
import { REPO_ROOT, a1, withSystem } from '../lib/systems.mjs';

const PROBE = path.join(REPO_ROOT, 'bench', 'lib', 'hookProbe.mjs');
/** A turn's worth: a prompt and tool calls, as a turn with many tool calls pays them. */
const TURN_EVENTS = ['UserPromptSubmit', ...Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? 'PreToolUse' : 'PostToolUse'))];
const LEGACY_EVENTS = 5;
/** Between two events of a turn: the agent's own step (shorter than most model replies). */
const STEP_MS = 100;
/** A hook that does nothing but read its event: the agent's own cost of running any hook. */
const EMPTY_HOOK = 'cat >/dev/null';
const RESULT_TIMEOUT_MS = 120_000;
const REPORT_TIMEOUT_MS = 30_000;

/** The hook lines `a1 hooks install claude` writes, by event (the first handler a1 owns). */
function installedLines(ctx) {
  const home = fs.mkdtempSync(path.join(ctx.runDir, 'hooks-home-'));
  try {
    const env = { PATH: process.env.PATH, HOME: home, A1_HOME: path.join(home, 'a1') };
    const result = spawnSync(process.execPath, [ctx.a1Bin, 'hooks', 'install', 'claude'], { env, encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`a1 hooks install claude failed: ${result.stderr.trim()}`);
    const settings = JSON.parse(fs.readFileSync(path.join(home, '.claude', 'settings.json'), 'utf8'));
    const lines = {};
    for (const [event, groups] of Object.entries(settings.hooks)) lines[event] = groups[0].hooks[0].command;
    return lines;
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
}

const payloadOf = (event, sessionId, cwd) => JSON.stringify({ session_id: sessionId, hook_event_name: event, cwd, permission_mode: 'default', transcript_path: '/dev/null' });

/** Runs `plan` in the viewed tab's shell through the probe; the per-event waits, in ms. */
async function probeInTab(ctx, client, plan, name) {
  const planFile = path.join(ctx.runDir, `hooks-plan-${name}.json`);
  const resultFile = path.join(ctx.runDir, `hooks-result-${name}.json`);
  fs.writeFileSync(planFile, JSON.stringify(plan));
  fs.rmSync(resultFile, { force: true });
  client.write(`'${process.execPath}' '${PROBE}' '${planFile}' '${resultFile}'\r`);
  const deadline = Date.now() + RESULT_TIMEOUT_MS;
  while (!fs.existsSync(resultFile)) {
    const failed = client.screenText?.().find((line) => line.includes('hook-probe-failed'));
    if (failed) throw new Error(failed.trim());
    if (Date.now() > deadline) throw new Error(`the hook probe gave no result in ${RESULT_TIMEOUT_MS} ms`);
    await delay(50);
  }
  const { ms } = JSON.parse(fs.readFileSync(resultFile, 'utf8'));
  fs.rmSync(planFile, { force: true });
  fs.rmSync(resultFile, { force: true });
  return ms;
}

/** Waits until the tab shows `state` for `sessionId`: the last report won. */
async function waitForReported(instance, state, sessionId) {
  const deadline = Date.now() + REPORT_TIMEOUT_MS;
  let last = null;
  for (;;) {
    const [tab] = JSON.parse(instance.cli(['tabs', '--json'])).tabs;
    last = tab?.agent ?? null;
    if (last?.state === state && last?.sessionId === sessionId) return;
    if (Date.now() > deadline) throw new Error(`the tab shows ${JSON.stringify(last)}, not ${state} for the hooks' session`);
    await delay(100);
  }
}

/** Node starts among the processes `line` runs outside a tab, counted by strace. */
function nodeStartsOutside(ctx, line, payload, env) {
  const trace = path.join(ctx.runDir, 'hooks-strace.txt');
  try {
    const result = spawnSync('strace', ['-f', '-qq', '-e', 'trace=execve', '-o', trace, '/bin/sh', '-c', line], { env, input: payload, encoding: 'utf8' });
    if (result.error) throw new Error(`strace is needed to count Node starts outside a tab: ${result.error.message}`);
    // `PID execve("/usr/bin/node", [...], ...) = 0`: the program is the first string; a1-hook's
    // own argv names node too, which is not a start of it.
    const programs = fs
      .readFileSync(trace, 'utf8')
      .split('\n')
      .filter((l) => l.includes('execve(') && / = 0$/.test(l.trim()))
      .map((l) => /execve\("([^"]*)"/.exec(l)?.[1] ?? '');
    return programs.filter((program) => program === process.execPath || path.basename(program) === 'node').length;
  } finally {
    fs.rmSync(trace, { force: true });
  }
}

async function measureHooks(ctx, { lines }) {
  return withSystem(a1, ctx, async (client, instance) => {
    const sessionId = crypto.randomUUID();
    const cwd = ctx.runDir;
    const events = [...TURN_EVENTS, 'PermissionRequest'].map((event) => ({ event, line: lines[event], payload: payloadOf(event, sessionId, cwd) }));
    for (const e of events) if (!e.line) throw new Error(`a1 hooks install claude wrote no ${e.event} hook`);
    // An agent's own step (a model reply, a tool) between two events, which also lets the last
    // event's report run, as in a turn; and the worst case, events back to back.
    const inside = await probeInTab(ctx, client, { events, gapMs: STEP_MS }, 'inside');
    await waitForReported(instance, 'needs-input', sessionId);
    const burst = await probeInTab(ctx, client, { events, gapMs: 0 }, 'burst');
    await waitForReported(instance, 'needs-input', sessionId);
    // What any hook costs the agent here: its own spawn of a shell that reads the event.
    const empty = await probeInTab(ctx, client, { events: events.map((e) => ({ ...e, line: EMPTY_HOOK })), gapMs: STEP_MS }, 'empty');

    const legacyLine = (event) => `'${process.execPath}' '${ctx.a1Bin}' status --hook claude:${event}`;
    const legacyEvents = Array.from({ length: LEGACY_EVENTS }, () => ({ line: legacyLine('PreToolUse'), payload: payloadOf('PreToolUse', sessionId, cwd), event: 'PreToolUse' }));
    const legacy = await probeInTab(ctx, client, { events: legacyEvents, gapMs: STEP_MS }, 'legacy');

    // Outside any tab: the bench's own environment, which has no A1_* (benchEnv strips them too).
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('A1_')));
    const outside = [];
    for (const e of events) {
      outside.push(await runHook(e.line, e.payload, env));
      await delay(STEP_MS);
    }
    let nodeStarts = 0;
    for (const event of new Set(events.map((e) => e.event))) nodeStarts += nodeStartsOutside(ctx, lines[event], payloadOf(event, sessionId, cwd), env);

    return {
      insideP50: percentile(inside, 50),
      insideP95: percentile(inside, 95),
      emptyP50: percentile(empty, 50),
      addedP50: percentile(inside, 50) - percentile(empty, 50),
      burstP50: percentile(burst, 50),
      outsideP50: percentile(outside, 50),
      outsideNodeStarts: nodeStarts,
      legacyP50: percentile(legacy, 50),
    };
  });
}

export const hooks = {
  name: 'hooks',
  description: 'what an agent\'s hooks cost it, inside and outside a tab (a1)',
  metrics: [
    { key: 'insideP50', label: 'hook: the agent waits, inside a tab, p50', unit: 'ms' },
    { key: 'insideP95', label: 'hook: the agent waits, inside a tab, p95', unit: 'ms' },
    { key: 'emptyP50', label: 'hook: an empty hook (cat >/dev/null), inside a tab, p50', unit: 'ms' },
    { key: 'addedP50', label: "hook: a1's hook over the empty one, inside a tab, p50", unit: 'ms' },
    { key: 'burstP50', label: 'hook: the agent waits, events back to back, inside a tab, p50', unit: 'ms' },
    { key: 'outsideP50', label: 'hook: the agent waits, outside a1, p50', unit: 'ms' },
    { key: 'outsideNodeStarts', label: 'hook: Node starts outside a1 (all events)', unit: 'count' },
    { key: 'legacyP50', label: 'hook: the pre-issue-14 form (Node per event), inside a tab, p50', unit: 'ms' },
  ],
  prepare: (ctx) => ({ lines: installedLines(ctx) }),
  drivers: { a1: measureHooks },
};
