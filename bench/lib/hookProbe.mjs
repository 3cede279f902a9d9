// Runs hook command lines the way an agent does (`/bin/sh -c LINE`, the event's JSON on stdin) and
// times how long the agent would wait for each: from spawn until the hook has exited and closed
// its output, which is what Claude Code waits for. Run inside an a1 tab (bench/measures/hooks.mjs
// types it into the tab's shell) it measures the installed hooks as an agent in that tab meets them.
//
//   node hookProbe.mjs PLAN.json RESULT.json
// PLAN: { events: [{ line, event, payload }], gapMs? }; RESULT: { ms: [number per event] }.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';

/** Far above any hook a person would tolerate: a hung hook is a failed measure, not a hung bench. */
const HOOK_TIMEOUT_MS = 30_000;

export function runHook(line, payload, env = process.env) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn('/bin/sh', ['-c', line], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    const timer = setTimeout(() => reject(new Error(`hook did not finish in ${HOOK_TIMEOUT_MS} ms: ${line}`)), HOOK_TIMEOUT_MS);
    child.stdout.resume();
    child.stderr.resume();
    child.once('error', reject);
    // An agent meets this when a hook exits without reading its event, and reports the hook failed.
    child.stdin.once('error', (error) => reject(new Error(`writing the event to the hook failed (${error.code}): ${line}`)));
    child.once('close', (code) => {
      clearTimeout(timer);
      if (code !== 0) reject(new Error(`hook exited with ${code}: ${line}`));
      else resolve(performance.now() - started);
    });
    child.stdin.end(payload);
  });
}

async function main() {
  const [planFile, resultFile] = process.argv.slice(2);
  const plan = JSON.parse(fs.readFileSync(planFile, 'utf8'));
  const ms = [];
  for (const { line, payload } of plan.events) {
    ms.push(await runHook(line, payload));
    // The agent's own work between two events (a model reply, a tool), which also lets the
    // previous event's report finish, as it would in a turn.
    if (plan.gapMs) await new Promise((resolve) => setTimeout(resolve, plan.gapMs));
  }
  fs.writeFileSync(`${resultFile}.part`, JSON.stringify({ ms }));
  fs.renameSync(`${resultFile}.part`, resultFile);
  process.stdout.write('hook-probe-done\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error) => {
    process.stdout.write(`hook-probe-failed: ${error.message}\n`);
    process.exitCode = 1;
  });
}
