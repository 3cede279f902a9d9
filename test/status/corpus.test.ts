// The scripted corpus (issue 5): every test/fixtures/agent-transitions/*.json sequence of
// recorded-style hook payloads, admitted keys, process facts, views and waits runs through
// reportForHook + reduceStatus + glyphOf, and each step's glyph is compared with the expected one.
//
// A file: { "description", "agent": "claude" | "codex", "steps": [step] }. A step has exactly one
// action and an "expect" glyph (src/status/glyphs.ts), checked after the action:
//   { "hook": { "event": "PreToolUse", "payload": {...} } }   what the agent's hook would report
//   { "status": "heartbeat" | "progress" | ... }              a direct `a1 status <state>`
//   { "input": "esc" | "ctrl-c" | "enter" | "tab" | "up" | "down" | "text" | one character }
//                                                             a key the controller sent, read by
//                                                             the agent's rules (src/status/agentKeys.ts)
//   { "process": "starting" | "running" | "exited" | "crashed" | "failed" | "asleep" }
//   { "view": true } | { "unview": true }                     some client views the tab / none does
//   { "wait": ms }                                            the clock moves on
// Every tab starts unviewed, before its first process fact; other steps take 100 ms each.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it, expect } from 'vitest';
import { reportForHook, HOOK_AGENTS, type HookAgent } from '../../src/status/hookEvents.js';
import { INITIAL_STATUS, UNRESPONSIVE_AFTER_MS, glyphOf, reduceStatus, type ProcessFact, type StatusEvent, type StatusState } from '../../src/status/model.js';
import { keyRulesFor } from '../../src/status/agentKeys.js';
import { GLYPHS, type Glyph } from '../../src/status/glyphs.js';
import { AGENT_STATES, type AgentState } from '../../src/status/agentState.js';

const DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/agent-transitions');
/** The config default for tabsStallNoticeSeconds (SPEC §10). */
const STALL_MS = 300_000;
const STEP_MS = 100;
const MIN_FILES = 40;
const MIN_SHARE = 0.99;

/** The key names of src/status/agentKeys.ts for the fixtures' words; `text` is typed text. */
const KEY_NAMES: Readonly<Record<string, string>> = { esc: 'escape', 'ctrl-c': 'ctrl+c', enter: 'enter', tab: 'tab', up: 'up', down: 'down', text: 'other' };
const PROCESS_FACTS: readonly ProcessFact[] = ['starting', 'running', 'exited', 'crashed', 'failed', 'asleep'];

interface Step {
  hook?: { event: string; payload: unknown };
  status?: AgentState;
  input?: string;
  process?: ProcessFact;
  view?: true;
  unview?: true;
  wait?: number;
  expect: Glyph;
}
interface Sequence {
  description: string;
  agent: HookAgent;
  steps: Step[];
}

const ACTIONS = ['hook', 'status', 'input', 'process', 'view', 'unview', 'wait'] as const;

/** One step's events; throws on a malformed step so a broken fixture fails rather than counts. */
function eventsOf(agent: HookAgent, step: Step, at: number): StatusEvent[] {
  const actions = ACTIONS.filter((a) => step[a] !== undefined);
  if (actions.length !== 1) throw new Error(`a step needs exactly one action, got [${actions.join(', ')}]`);
  if (!(GLYPHS as readonly string[]).includes(step.expect)) throw new Error(`unknown expected glyph ${String(step.expect)}`);
  if (step.hook) {
    const report = reportForHook(agent, step.hook.event, step.hook.payload);
    return report ? [{ k: 'report', state: report.state, at }] : [];
  }
  if (step.status !== undefined) {
    if (!AGENT_STATES.includes(step.status)) throw new Error(`unknown status ${step.status}`);
    return [{ k: 'report', state: step.status, at }];
  }
  if (step.input !== undefined) {
    const key = Object.hasOwn(KEY_NAMES, step.input) ? KEY_NAMES[step.input] : [...step.input].length === 1 ? step.input : null;
    if (key === null) throw new Error(`unknown key ${step.input}`);
    return [{ k: 'key', key, rules: keyRulesFor(agent), at }];
  }
  if (step.process !== undefined) {
    if (!PROCESS_FACTS.includes(step.process)) throw new Error(`unknown process fact ${step.process}`);
    return [{ k: 'process', what: step.process, at }];
  }
  if (step.view) return [{ k: 'viewed', viewed: true, at }];
  if (step.unview) return [{ k: 'viewed', viewed: false, at }];
  if (typeof step.wait !== 'number' || step.wait < 0) throw new Error('wait needs a non-negative number of ms');
  return [];
}

interface Miss {
  file: string;
  step: number;
  expected: Glyph;
  got: Glyph;
}

function runSequence(file: string, seq: Sequence): { total: number; misses: Miss[] } {
  if (!HOOK_AGENTS.includes(seq.agent)) throw new Error(`${file}: unknown agent ${String(seq.agent)}`);
  if (typeof seq.description !== 'string' || seq.description.length === 0) throw new Error(`${file}: no description`);
  if (!Array.isArray(seq.steps) || seq.steps.length === 0) throw new Error(`${file}: no steps`);
  let s: StatusState = INITIAL_STATUS;
  let now = 1_700_000_000_000;
  const misses: Miss[] = [];
  seq.steps.forEach((step, i) => {
    now += step.wait ?? STEP_MS;
    for (const e of eventsOf(seq.agent, step, now)) s = reduceStatus(s, e);
    const got = glyphOf(s, { now, unresponsiveMs: UNRESPONSIVE_AFTER_MS, stallMs: STALL_MS });
    if (got !== step.expect) misses.push({ file, step: i, expected: step.expect, got });
  });
  return { total: seq.steps.length, misses };
}

describe('agent-transitions corpus', () => {
  const files = fs.readdirSync(DIR).filter((f) => f.endsWith('.json')).sort();

  it(`holds at least ${MIN_FILES} sequences, each file named NN-name.json`, () => {
    expect(files.length).toBeGreaterThanOrEqual(MIN_FILES);
    for (const f of files) expect(f).toMatch(/^\d{2,}-[a-z0-9-]+\.json$/);
  });

  it(`gives the expected glyph after at least ${MIN_SHARE * 100}% of transitions`, () => {
    let total = 0;
    const misses: Miss[] = [];
    for (const f of files) {
      const seq = JSON.parse(fs.readFileSync(path.join(DIR, f), 'utf8')) as Sequence;
      const r = runSequence(f, seq);
      total += r.total;
      misses.push(...r.misses);
    }
    const correct = total - misses.length;
    console.log(`agent-transitions: ${correct}/${total} correct (${((100 * correct) / total).toFixed(1)}%)`);
    for (const m of misses) console.log(`  ${m.file} step ${m.step}: expected ${m.expected}, got ${m.got}`);
    expect(total).toBeGreaterThan(0);
    expect(correct / total).toBeGreaterThanOrEqual(MIN_SHARE);
  });

  it('refuses a malformed step instead of counting it', () => {
    const bad = (step: object) => () => runSequence('x.json', { description: 'x', agent: 'claude', steps: [step as Step] });
    expect(bad({ view: true, wait: 5, expect: 'none' })).toThrow(/exactly one action/);
    expect(bad({ input: 'F13', expect: 'none' })).toThrow(/unknown key/);
    expect(bad({ process: 'running', expect: 'spinning' })).toThrow(/unknown expected glyph/);
  });

  it('counts a wrong expectation as a miss', () => {
    const r = runSequence('x.json', { description: 'x', agent: 'claude', steps: [{ process: 'starting', expect: 'done' }] });
    expect(r.misses).toEqual([{ file: 'x.json', step: 0, expected: 'done', got: 'starting' }]);
  });
});
