// The issue 19 targets judged against the bench's own floors from the same run (bench/lib/targets.mjs,
// pure): attach and cold start as multiples of the p95 of the `node -e 0` spawned between their
// runs, key echo as a multiple of the relay floor's; a target whose measure or floor did not run is
// 'not run' and names what is missing.
import { describe, expect, it } from 'vitest';
import { judgeTargets, type JudgedTarget, type MeasureSummary } from '../../bench/lib/targets.mjs';

/** A measure's summary with one median per system and metric: `{ metric: { system: median } }`. */
function measure(name: string, figures: Record<string, Record<string, number>>): MeasureSummary {
  const systems = [...new Set(Object.values(figures).flatMap((bySystem) => Object.keys(bySystem)))];
  return {
    name,
    systems,
    errors: [],
    metrics: Object.entries(figures).map(([key, bySystem]) => ({
      key,
      label: key,
      unit: 'ms',
      ratio: null,
      ...Object.fromEntries(systems.map((system) => [system, { rounds: [], median: bySystem[system] ?? null }])),
    })),
  };
}

function target(judged: JudgedTarget[], name: string): JudgedTarget {
  const found = judged.find((t) => t.name === name);
  if (!found) throw new Error(`no target ${name}`);
  return found;
}

const echoFloor = measure('echo-floor', { p50: { tmux: 0.5, relay: 1.0, direct: 0.8 }, p99: { tmux: 2, relay: 4, direct: 3 } });

describe('targets against the same run\'s floors', () => {
  it('judges attach and cold start p95 as multiples of node -e 0 p95', () => {
    const judged = judgeTargets([
      measure('attach', { p95: { a1: 70, tmux: 20 }, nodeP95: { a1: 50, tmux: 45 } }),
      measure('cold-start', { p95: { a1: 160 }, nodeP95: { a1: 50 } }),
    ]);
    expect(target(judged, 'attach p95 / node -e 0')).toMatchObject({ value: 1.4, bound: 1.5, bounded: 'atMost', verdict: 'pass' });
    expect(target(judged, 'cold start p95 / node -e 0')).toMatchObject({ value: 3.2, bound: 3, verdict: 'fail' });
  });

  it('judges echo p50 and p99 against the relay floor, not tmux', () => {
    const judged = judgeTargets([echoFloor, measure('echo', { p50: { a1: 1.1, tmux: 0.5 }, p99: { a1: 5, tmux: 2 } })]);
    expect(target(judged, 'echo p50 / relay floor').value).toBeCloseTo(1.1);
    expect(target(judged, 'echo p50 / relay floor').verdict).toBe('pass');
    expect(target(judged, 'echo p99 / relay floor')).toMatchObject({ value: 1.25, verdict: 'fail' });
    expect(judged.some((t) => /tmux/.test(t.label) && /echo p(50|99) \(/.test(t.label))).toBe(false);
  });

  it('leaves a ratio target not run, naming the missing measure, when its floor did not run', () => {
    const judged = judgeTargets([measure('echo', { p50: { a1: 1.1, tmux: 0.5 }, p99: { a1: 5, tmux: 2 } })]);
    expect(target(judged, 'echo p50 / relay floor')).toMatchObject({ value: null, verdict: 'not run', missing: ['echo-floor'] });
    expect(target(judged, 'attach p95 / node -e 0')).toMatchObject({ verdict: 'not run', missing: ['attach'] });
    expect(target(judged, 'cold start p95 / node -e 0')).toMatchObject({ verdict: 'not run', missing: ['cold-start'] });
  });

  it('counts a measure that failed every round as missing', () => {
    const failed = measure('echo-floor', { p50: {}, p99: {} });
    const judged = judgeTargets([failed, measure('echo', { p50: { a1: 1 }, p99: { a1: 2 } })]);
    expect(target(judged, 'echo p99 / relay floor')).toMatchObject({ verdict: 'not run', missing: ['echo-floor'] });
  });
});
