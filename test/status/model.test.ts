// The status reducer and glyph: one test per rule in src/status/model.ts, then properties over
// random event sequences (fast-check).
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { propertyRuns } from '../helpers/runs.js';
import {
  INITIAL_STATUS, UNRESPONSIVE_AFTER_MS, glyphOf, heartbeatSilenceMs, reduceStatus,
  type ProcessFact, type StatusEvent, type StatusState,
} from '../../src/status/model.js';
import { keyRulesFor } from '../../src/status/agentKeys.js';
import { GLYPHS, type Glyph } from '../../src/status/glyphs.js';
import { AGENT_STATES, type AgentState } from '../../src/status/agentState.js';

const STALL_MS = 300_000;
const clockAt = (now: number) => ({ now, unresponsiveMs: UNRESPONSIVE_AFTER_MS, stallMs: STALL_MS });

/** Runs events at t = 1, 2, 3 …, returning the state and the glyph right after the last one. */
function run(events: (Omit<StatusEvent, 'at'> & { at?: number })[], from: StatusState = INITIAL_STATUS) {
  let s = from;
  let t = 0;
  for (const e of events) {
    t = e.at ?? t + 1;
    s = reduceStatus(s, { ...e, at: t } as StatusEvent);
  }
  return { s, glyph: glyphOf(s, clockAt(t)), t };
}
const report = (state: AgentState) => ({ k: 'report' as const, state });
const CLAUDE = keyRulesFor('claude');
const CODEX = keyRulesFor('codex');
const GENERIC = keyRulesFor('generic');
const input = (key: string, rules = GENERIC) => ({ k: 'key' as const, key, rules });
const proc = (what: ProcessFact) => ({ k: 'process' as const, what });
const viewed = (v: boolean) => ({ k: 'viewed' as const, viewed: v });
const running = [proc('starting'), proc('running')];

describe('process facts', () => {
  it('starting spins, running shows nothing, a clean exit shows nothing, crash and failed show ✗, asleep ◌', () => {
    expect(run([proc('starting')]).glyph).toBe('starting');
    expect(run(running).glyph).toBe('none');
    expect(run([...running, proc('exited')]).glyph).toBe('none');
    expect(run([...running, proc('crashed')]).glyph).toBe('error');
    expect(run([...running, proc('failed')]).glyph).toBe('error');
    expect(run([...running, proc('asleep')]).glyph).toBe('asleep');
  });

  it('override whatever the agent said', () => {
    expect(run([...running, report('needs-input'), proc('asleep')]).glyph).toBe('asleep');
    expect(run([...running, report('working'), proc('exited')]).glyph).toBe('none');
    expect(run([...running, report('done'), proc('crashed')]).glyph).toBe('error');
  });

  it('a restart forgets the old incarnation: its ✓, its phase and its heartbeat', () => {
    const { s } = run([...running, report('heartbeat'), report('done'), proc('crashed'), proc('starting'), proc('running')]);
    expect(s).toMatchObject({ bridged: false, phase: 'idle', heartbeatAt: null });
    expect(glyphOf(s, clockAt(10 * UNRESPONSIVE_AFTER_MS))).toBe('none');
  });

  it('drops reports after the child ended: they come from an incarnation that is gone', () => {
    for (const end of ['exited', 'crashed', 'failed', 'asleep'] as const) {
      const before = run([...running, proc(end)]).s;
      for (const st of AGENT_STATES) expect(reduceStatus(before, { k: 'report', state: st, at: 99 })).toBe(before);
    }
  });

  it('a report while starting proves the child runs', () => {
    expect(run([proc('starting'), report('idle')]).s.process).toBe('running');
  });
});

describe('bridge reports', () => {
  it('working spins, needs-input is ?, error is ✗, idle is nothing', () => {
    expect(run([...running, report('working')]).glyph).toBe('working');
    expect(run([...running, report('needs-input')]).glyph).toBe('needs-input');
    expect(run([...running, report('error')]).glyph).toBe('error');
    expect(run([...running, report('working'), report('idle')]).glyph).toBe('none');
  });

  it('✓ when a turn finishes unviewed, idle when it finishes viewed', () => {
    expect(run([...running, report('working'), report('done')]).glyph).toBe('done');
    expect(run([...running, viewed(true), report('working'), report('done')]).glyph).toBe('none');
  });

  it('viewing clears ✓ for good; looking away again does not bring it back', () => {
    const seen = run([...running, report('working'), report('done'), viewed(true)]);
    expect(seen.glyph).toBe('none');
    expect(run([viewed(false)], seen.s).glyph).toBe('none');
  });

  it('idle reports keep ✓ and ✗ (SessionEnd, the idle notification)', () => {
    expect(run([...running, report('working'), report('done'), report('idle')]).glyph).toBe('done');
    expect(run([...running, report('working'), report('error'), report('idle')]).glyph).toBe('error');
  });

  it("a second report of a turn's end (Codex's notify after its Stop hook) never brings back a ✓ already seen", () => {
    const seen = run([...running, viewed(true), report('working'), report('done')]);
    expect(seen.glyph).toBe('none');
    // The view moved on before the late duplicate arrived.
    expect(run([viewed(false), report('done')], seen.s).glyph).toBe('none');
    // Unviewed, the duplicate keeps the one ✓; the next turn's end shows ✓ again.
    const unseen = run([...running, report('working'), report('done'), report('done')]);
    expect(unseen.glyph).toBe('done');
    expect(run([viewed(true), viewed(false), report('working'), report('done')], unseen.s).glyph).toBe('done');
    // An approved permission starts the turn again: its end is a new one.
    expect(run([viewed(false), report('needs-input'), input('y'), report('done')], seen.s).glyph).toBe('done');
  });

  it('a new turn replaces ✓ and ✗', () => {
    expect(run([...running, report('done'), report('working')]).glyph).toBe('working');
    expect(run([...running, report('error'), report('working')]).glyph).toBe('working');
  });

  it('heartbeat and progress do not change the phase', () => {
    expect(run([...running, report('needs-input'), report('progress'), report('heartbeat')]).glyph).toBe('needs-input');
    expect(run([...running, report('heartbeat')]).glyph).toBe('none');
  });
});

describe('keys the holder admitted', () => {
  it('an interrupt key while working → idle (no hook fires on Esc or Ctrl+C)', () => {
    for (const rules of [CLAUDE, CODEX, GENERIC]) {
      expect(run([...running, report('working'), input('escape', rules)]).glyph).toBe('none');
      expect(run([...running, report('working'), input('ctrl+c', rules)]).glyph).toBe('none');
      expect(run([...running, report('working'), input('y', rules), input('enter', rules)]).glyph).toBe('working');
    }
  });

  it("Claude Code 2.1.328's dialog: 1, 2 and 3 approve, 4 and Esc deny, Ctrl+C and letters answer nothing", () => {
    const asking = [...running, report('needs-input')];
    for (const k of ['1', '2', '3']) expect(run([...asking, input(k, CLAUDE)]).glyph).toBe('working');
    for (const k of ['4', 'escape']) expect(run([...asking, input(k, CLAUDE)]).glyph).toBe('none');
    for (const k of ['ctrl+c', 'y', 'n', 'other']) expect(run([...asking, input(k, CLAUDE)]).glyph).toBe('needs-input');
  });

  it("Claude Code's arrows: Up from the first option wraps to No, Down past No stays on No until walked back", () => {
    const asking = [...running, report('needs-input')];
    expect(run([...asking, input('enter', CLAUDE)]).glyph).toBe('working');
    expect(run([...asking, input('up', CLAUDE), input('enter', CLAUDE)]).glyph).toBe('none');
    expect(run([...asking, input('down', CLAUDE), input('down', CLAUDE), input('down', CLAUDE), input('enter', CLAUDE)]).glyph).toBe('none');
    const past = [...asking, ...['down', 'down', 'down', 'down', 'down'].map((k) => input(k, CLAUDE))];
    expect(run([...past, input('up', CLAUDE), input('enter', CLAUDE)]).glyph).toBe('none');
    expect(run([...past, input('up', CLAUDE), input('up', CLAUDE), input('up', CLAUDE), input('enter', CLAUDE)]).glyph).toBe('working');
  });

  it("Claude Code's Tab amends the highlighted option: digits become text, Enter answers, Esc denies", () => {
    const amending = [...running, report('needs-input'), input('tab', CLAUDE), input('4', CLAUDE)];
    expect(run(amending).glyph).toBe('needs-input');
    expect(run([...amending, input('enter', CLAUDE)]).glyph).toBe('working');
    expect(run([...amending, input('escape', CLAUDE)]).glyph).toBe('none');
  });

  it("Codex 0.169.0's approval: 1, y, 2, p approve; 3, n, Esc, Ctrl+C deny; arrows and j/k wrap", () => {
    const asking = [...running, report('needs-input')];
    for (const k of ['1', 'y', '2', 'p', 'enter']) expect(run([...asking, input(k, CODEX)]).glyph).toBe('working');
    for (const k of ['3', 'n', 'escape', 'ctrl+c']) expect(run([...asking, input(k, CODEX)]).glyph).toBe('none');
    expect(run([...asking, input('up', CODEX), input('enter', CODEX)]).glyph).toBe('none');
    expect(run([...asking, input('k', CODEX), input('k', CODEX), input('enter', CODEX)]).glyph).toBe('working');
    expect(run([...asking, input('down', CODEX), input('j', CODEX), input('enter', CODEX)]).glyph).toBe('none');
    expect(run([...asking, ...['down', 'down', 'down'].map((k) => input(k, CODEX)), input('enter', CODEX)]).glyph).toBe('working');
  });

  it('a second report of the same dialog keeps the highlight; a new dialog starts on the first option', () => {
    const moved = [...running, report('needs-input'), input('up', CLAUDE)];
    expect(run([...moved, report('needs-input'), input('enter', CLAUDE)]).glyph).toBe('none');
    expect(run([...moved, report('working'), report('needs-input'), input('enter', CLAUDE)]).glyph).toBe('working');
  });

  it('keys outside working/needs-input change nothing', () => {
    const cases: AgentState[] = ['idle', 'done', 'error'];
    for (const st of cases) {
      const { s } = run([...running, report('working'), report(st)]);
      for (const rules of [CLAUDE, CODEX, GENERIC]) {
        for (const k of ['escape', 'ctrl+c', 'enter', '1', '4', 'y', 'n', 'up', 'other']) expect(reduceStatus(s, { k: 'key', key: k, rules, at: 50 })).toBe(s);
      }
    }
    const asking = run([...running, report('needs-input')]).s;
    expect(reduceStatus(asking, { k: 'key', key: 'other', rules: CLAUDE, at: 50 })).toBe(asking);
  });

  it('keys mean nothing to a tab without a bridge', () => {
    expect(run([...running, input('1'), input('enter')]).glyph).toBe('none');
  });
});

describe('heartbeats and stalls', () => {
  it('unresponsive only after a first heartbeat and unresponsiveMs of silence; any report is a sign of life', () => {
    const { s } = run([...running, report('heartbeat')]);
    expect(glyphOf(s, clockAt(3 + UNRESPONSIVE_AFTER_MS - 1))).toBe('none');
    expect(glyphOf(s, clockAt(3 + UNRESPONSIVE_AFTER_MS))).toBe('unresponsive');
    const later = reduceStatus(s, { k: 'report', state: 'working', at: 3 + UNRESPONSIVE_AFTER_MS });
    expect(glyphOf(later, clockAt(3 + UNRESPONSIVE_AFTER_MS))).toBe('working');
    expect(heartbeatSilenceMs(later, 10 + UNRESPONSIVE_AFTER_MS)).toBe(7);
  });

  it('a hook-only agent is never unresponsive and never has a silence to restart for', () => {
    const { s } = run([...running, report('working'), report('done')]);
    expect(glyphOf(s, clockAt(1e12))).toBe('done');
    expect(heartbeatSilenceMs(s, 1e12)).toBeNull();
  });

  it('silence while the bridge socket is gone is not counted; once it is back, silence counts from then', () => {
    const s = reduceStatus(run([...running, report('heartbeat')]).s, { k: 'bridge', up: false, at: 10 });
    expect(glyphOf(s, clockAt(10 + 5 * UNRESPONSIVE_AFTER_MS))).toBe('none');
    expect(heartbeatSilenceMs(s, 10 + 5 * UNRESPONSIVE_AFTER_MS)).toBeNull();
    // A restarted child's incarnation does not bring the bridge back.
    expect(heartbeatSilenceMs(run([proc('crashed'), proc('starting'), proc('running'), report('heartbeat')], s).s, 1e9)).toBeNull();
    const back = reduceStatus(s, { k: 'bridge', up: true, at: 1000 });
    expect(heartbeatSilenceMs(back, 1000 + UNRESPONSIVE_AFTER_MS)).toBe(UNRESPONSIVE_AFTER_MS);
    expect(glyphOf(back, clockAt(1000 + UNRESPONSIVE_AFTER_MS - 1))).toBe('none');
    expect(glyphOf(back, clockAt(1000 + UNRESPONSIVE_AFTER_MS))).toBe('unresponsive');
    // An agent that never heartbeated stays one that is never restarted for silence.
    expect(heartbeatSilenceMs(reduceStatus(run(running).s, { k: 'bridge', up: true, at: 5 }), 1e9)).toBeNull();
  });

  it('unresponsive outranks the agent phase but not a process fact', () => {
    const { s } = run([...running, report('heartbeat'), report('needs-input')]);
    expect(glyphOf(s, clockAt(1e9))).toBe('unresponsive');
    expect(glyphOf(reduceStatus(s, { k: 'process', what: 'asleep', at: 5 }), clockAt(1e9))).toBe('asleep');
  });

  it('stalled while working with no progress for stallMs; progress, working or an approve restarts the clock', () => {
    const { s } = run([...running, report('working')]);
    expect(glyphOf(s, clockAt(3 + STALL_MS - 1))).toBe('working');
    expect(glyphOf(s, clockAt(3 + STALL_MS))).toBe('stalled');
    const moved = reduceStatus(s, { k: 'report', state: 'progress', at: 3 + STALL_MS });
    expect(glyphOf(moved, clockAt(3 + STALL_MS))).toBe('working');
    // A heartbeat is life, not progress: a hung turn that still heartbeats is stalled.
    const beat = reduceStatus(s, { k: 'report', state: 'heartbeat', at: 3 + STALL_MS });
    expect(glyphOf(beat, clockAt(3 + STALL_MS))).toBe('stalled');
    const answered = run([...running, report('needs-input'), { ...input('y'), at: 1000 }]).s;
    expect(glyphOf(answered, clockAt(1000 + STALL_MS - 1))).toBe('working');
  });

  it('a waiting question never stalls', () => {
    expect(glyphOf(run([...running, report('needs-input')]).s, clockAt(1e9))).toBe('needs-input');
  });
});

// ---- properties ----

const at = fc.integer({ min: 0, max: 2_000_000 });
const arbReport = fc.record({ k: fc.constant('report' as const), state: fc.constantFrom(...AGENT_STATES), at });
const arbInput = fc.record({
  k: fc.constant('key' as const),
  key: fc.constantFrom('escape', 'ctrl+c', 'enter', 'tab', 'up', 'down', 'j', 'k', 'y', 'n', 'p', '1', '2', '3', '4', 'other'),
  rules: fc.constantFrom(CLAUDE, CODEX, GENERIC),
  at,
});
const arbProcess = fc.record({ k: fc.constant('process' as const), what: fc.constantFrom<ProcessFact>('starting', 'running', 'exited', 'crashed', 'failed', 'asleep'), at });
const arbViewed = fc.record({ k: fc.constant('viewed' as const), viewed: fc.boolean(), at });
const arbEvent: fc.Arbitrary<StatusEvent> = fc.oneof(arbReport, arbInput, arbProcess, arbViewed);
const arbClock = fc.record({ now: fc.integer({ min: 0, max: 3_000_000 }), unresponsiveMs: fc.integer({ min: 1, max: 60_000 }), stallMs: fc.integer({ min: 1, max: 600_000 }) });
const reach = (events: StatusEvent[]) => events.reduce(reduceStatus, INITIAL_STATUS);
const arbState = fc.array(arbEvent, { maxLength: 40 }).map(reach);

describe('status model properties', () => {
  it('every reachable state gives exactly one known glyph, deterministically, without mutating anything', () => {
    fc.assert(
      fc.property(fc.array(arbEvent, { maxLength: 40 }), arbClock, (events, clock) => {
        let s: StatusState = INITIAL_STATUS;
        for (const e of events) {
          const frozen = Object.freeze({ ...s });
          s = reduceStatus(frozen, e);
          const g: Glyph = glyphOf(s, clock);
          expect(GLYPHS).toContain(g);
          expect(glyphOf(s, clock)).toBe(g);
        }
      }),
      { numRuns: propertyRuns(1000) },
    );
  });

  it('a viewed event always clears ✓, and a viewed tab never shows ✓', () => {
    fc.assert(
      fc.property(arbState, fc.array(arbEvent, { maxLength: 20 }), arbClock, (s0, more, clock) => {
        let s = reduceStatus(s0, { k: 'viewed', viewed: true, at: 1 });
        expect(glyphOf(s, clock)).not.toBe('done');
        for (const e of more) {
          s = reduceStatus(s, e);
          if (s.viewed) expect(glyphOf(s, clock)).not.toBe('done');
        }
      }),
      { numRuns: propertyRuns(1000) },
    );
  });

  it('no sequence of input events alone can produce ✓ or ?', () => {
    fc.assert(
      fc.property(arbState, fc.array(arbInput, { minLength: 1, maxLength: 20 }), arbClock, (s0, inputs, clock) => {
        const before = glyphOf(s0, clock);
        let s = s0;
        for (const e of inputs) {
          s = reduceStatus(s, e);
          const g = glyphOf(s, clock);
          if (g === 'done' || g === 'needs-input') expect(g).toBe(before);
        }
      }),
      { numRuns: propertyRuns(1000) },
    );
    fc.assert(fc.property(fc.array(fc.oneof(arbInput, arbProcess, arbViewed), { maxLength: 30 }), arbClock, (events, clock) => {
      expect(['done', 'needs-input']).not.toContain(glyphOf(reach(events), clock));
    }));
  });

  it('a tab that never reports shows process-level states only', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(arbInput, arbProcess, arbViewed), { maxLength: 30 }), arbClock, (events, clock) => {
        expect(['starting', 'none', 'error', 'asleep']).toContain(glyphOf(reach(events), clock));
      }),
    );
  });

  it('after the child ends, no report changes anything until the next start', () => {
    fc.assert(
      fc.property(arbState, fc.constantFrom<ProcessFact>('exited', 'crashed', 'failed', 'asleep'), fc.array(fc.oneof(arbReport, arbInput), { maxLength: 20 }), (s0, end, later) => {
        const ended = reduceStatus(s0, { k: 'process', what: end, at: 1 });
        const after = later.reduce(reduceStatus, ended);
        expect(after).toEqual(ended);
      }),
    );
  });

  it('a start forgets the previous incarnation entirely (only viewing survives)', () => {
    fc.assert(
      fc.property(arbState, at, (s0, t) => {
        const restarted = reduceStatus(s0, { k: 'process', what: 'starting', at: t });
        const fresh = reduceStatus({ ...INITIAL_STATUS, viewed: s0.viewed }, { k: 'process', what: 'starting', at: t });
        expect(restarted).toEqual(fresh);
      }),
    );
  });

  it('a hook-only incarnation (no heartbeat since its start) is never unresponsive', () => {
    const noBeat = arbEvent.filter((e) => !(e.k === 'report' && e.state === 'heartbeat'));
    fc.assert(
      fc.property(fc.array(noBeat, { maxLength: 40 }), arbClock, (events, clock) => {
        const s = reach([{ k: 'process', what: 'starting', at: 0 }, ...events]);
        expect(glyphOf(s, clock)).not.toBe('unresponsive');
      }),
    );
  });
});
