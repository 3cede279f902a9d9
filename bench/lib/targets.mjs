// The targets, judged from the summarised medians (pure). Ratios against tmux, against
// the bench's own floors (`node -e 0` spawned between attach's and cold start's runs, echo-floor's
// relay) and against a1's own idle figure come from the same run; the rest are against a fixed bound.

/**
 * `value(measures)` returns the judged figure or null when a measure it needs did not run (or
 * failed every round); `atMost` / `atLeast` is the bound it must meet. `needs` names the measures
 * a ratio is taken between, so a target left unjudged says which one is missing.
 */
export const TARGETS = [
  {
    name: 'throughput',
    label: 'throughput (tmux time / a1 time)',
    unit: 'x',
    atLeast: 2.0,
    value: (m) => inverse(ratioOf(m, 'throughput', 'seconds')),
  },
  // Issue 19: a Node client and holder doing no work (echo-floor's relay) is the floor under echo.
  {
    name: 'echo p50 / relay floor',
    label: 'key echo p50 (a1 echo / relay floor of echo-floor, same run)',
    unit: 'x',
    atMost: 1.2,
    needs: ['echo', 'echo-floor'],
    value: (m) => quotient(a1Median(m, 'echo', 'p50'), systemMedian(m, 'echo-floor', 'relay', 'p50')),
  },
  {
    name: 'echo p99 / relay floor',
    label: 'key echo p99 (a1 echo / relay floor of echo-floor, same run)',
    unit: 'x',
    atMost: 1.2,
    needs: ['echo', 'echo-floor'],
    value: (m) => quotient(a1Median(m, 'echo', 'p99'), systemMedian(m, 'echo-floor', 'relay', 'p99')),
  },
  {
    name: 'echo p99, 9 flooding tabs',
    label: 'echo p99 with 9 flooding tabs (a1 flooded / a1 idle)',
    unit: 'x',
    atMost: 1.25,
    value: (m) => a1Median(m, 'flood', 'ratio'),
  },
  {
    name: 'echo p99, one hung tab',
    label: 'echo p99 with one hung tab, child stopped and input queue full (a1 hung / a1 idle)',
    unit: 'x',
    atMost: 1.25,
    value: (m) => a1Median(m, 'hung', 'ratioP99'),
  },
  // Issue 19: what a person waits for, against the least any Node program takes to start here.
  {
    name: 'attach p95 / node -e 0',
    label: 'attach to a full screen p95 (a1 / node -e 0 p95 between its runs)',
    unit: 'x',
    atMost: 1.5,
    needs: ['attach'],
    value: (m) => quotient(a1Median(m, 'attach', 'p95'), a1Median(m, 'attach', 'nodeP95')),
  },
  {
    name: 'cold start p95 / node -e 0',
    label: 'cold start, no server, to a full screen p95 (a1 / node -e 0 p95 between its runs)',
    unit: 'x',
    atMost: 3,
    needs: ['cold-start'],
    value: (m) => quotient(a1Median(m, 'cold-start', 'p95'), a1Median(m, 'cold-start', 'nodeP95')),
  },
  { name: 'memory', label: 'memory per tab with 2,000 lines (a1 PSS)', unit: 'MiB', atMost: 24, value: (m) => a1Median(m, 'memory', 'historyMiB') },
  { name: 'tab restart', label: 'tab restart (a1)', unit: 'ms', atMost: 500, value: (m) => a1Median(m, 'restart', 'ms') },
  { name: 'server recovery', label: 'server recovery (a1)', unit: 'ms', atMost: 500, value: (m) => a1Median(m, 'recovery', 'ms') },
  // Issue 14: an agent waits at most 10 ms for a hook inside a tab, and outside one no Node starts.
  // Judged over an empty hook in the same run: spawning any hook costs the agent about 10 ms here.
  { name: 'hook wait p50', label: 'agent waits per hook event inside a tab, over an empty hook, p50 (a1)', unit: 'ms', atMost: 10, value: (m) => a1Median(m, 'hooks', 'addedP50') },
  { name: 'hook outside', label: 'Node starts by hooks outside a1 (a1)', unit: 'count', atMost: 0, value: (m) => a1Median(m, 'hooks', 'outsideNodeStarts') },
  // Issue 8: a notch drawn within one 60 Hz frame holds 60 frames per second.
  { name: 'scroll 10k p95', label: 'wheel notch to its view in 10,000 lines, p95 (a1)', unit: 'ms', atMost: 1000 / 60, value: (m) => a1Median(m, 'history', 'scrollP95') },
  { name: 'search 10k p95', label: 'search of 10,000 lines, every match, p95 (a1)', unit: 'ms', atMost: 100, value: (m) => a1Median(m, 'history', 'searchP95') },
  // Issue 19: what a1 adds to typing into the real Claude Code, over the same agent run directly in the same run.
  { name: 'agent typing p50', label: 'typing into Claude Code, key to echo, a1 over direct, p50', unit: 'ms', atMost: 2, value: (m) => a1Median(m, 'agent-typing', 'addedP50') },
  { name: 'agent typing p99', label: 'typing into Claude Code, key to echo, a1 over direct, p99', unit: 'ms', atMost: 5, value: (m) => a1Median(m, 'agent-typing', 'addedP99') },
  // Issue 19: many tabs cost little while nobody types, and 50 tabs feel like 5 (ratios from the same round).
  ...manyTabsTargets(),
];

function metricOf(measures, measure, key) {
  return measures.find((m) => m.name === measure)?.metrics.find((metric) => metric.key === key) ?? null;
}

function systemMedian(measures, measure, system, key) {
  return metricOf(measures, measure, key)?.[system]?.median ?? null;
}

function a1Median(measures, measure, key) {
  return systemMedian(measures, measure, 'a1', key);
}

/** `figure / floor`, or null when either is missing (its measure did not run). */
function quotient(figure, floor) {
  return figure === null || floor === null || floor === 0 ? null : figure / floor;
}

/** The measures in `names` with no figure at all: not run, or failed every round. */
function missingOf(measures, names) {
  return names.filter((name) => {
    const measure = measures.find((m) => m.name === name);
    return !measure?.metrics.some((metric) => measure.systems.some((system) => metric[system]?.median != null));
  });
}

function ratioOf(measures, measure, key) {
  return metricOf(measures, measure, key)?.ratio ?? null;
}

function inverse(value) {
  return value === null || value === 0 ? null : 1 / value;
}

/**
 * Each target with its figure, its bound and a verdict: 'pass', 'fail' or 'not run'. `used` is the
 * share of the allowance the figure takes (≤ 1 passes), for the chart; a target not run lists in
 * `missing` the measures it needs that have no figure.
 */
export function judgeTargets(measures) {
  return TARGETS.map((target) => {
    const value = target.value(measures);
    const bound = target.atMost ?? target.atLeast;
    const bounded = target.atMost !== undefined ? 'atMost' : 'atLeast';
    if (value === null || !Number.isFinite(value)) {
      const missing = missingOf(measures, target.needs ?? []);
      return { name: target.name, label: target.label, unit: target.unit, bounded, bound, value: null, used: null, verdict: 'not run', missing };
    }
    // A bound of zero (none allowed): met exactly or missed, with nothing in between.
    const used = bound === 0 ? (value <= 0 ? 0 : Infinity) : bounded === 'atMost' ? value / bound : bound / value;
    return { name: target.name, label: target.label, unit: target.unit, bounded, bound, value, used, verdict: used <= 1 ? 'pass' : 'fail' };
  });
}

export function formatFigure(value, unit) {
  if (value === null) return 'n/a';
  if (unit === 'count') return String(Math.round(value));
  return unit === 'x' ? `${value.toFixed(2)}x` : `${value.toFixed(unit === 'ms' && value >= 100 ? 0 : 1)} ${unit}`;
}

export function formatBound(judged) {
  return `${judged.bounded === 'atMost' ? '≤' : '≥'} ${formatFigure(judged.bound, judged.unit)}`;
}

/** Issue 19's many-tabs rows (measures/manyTabs.mjs): idle CPU per 10 tabs, and 50 tabs against 5. */
function manyTabsTargets() {
  const cpu = (key, label) => ({ name: `idle CPU, ${label}`, label: `server + holders CPU while nobody types, ${label}, per 10 tabs (a1)`, unit: '%', atMost: 2, value: (m) => a1Median(m, 'many-tabs', key) });
  const vsFew = (key, name, label) => ({ name: `50 tabs: ${name}`, label: `${label} with 50 tabs / with 5 (a1)`, unit: 'x', atMost: 1.2, value: (m) => a1Median(m, 'many-tabs', key) });
  return [
    cpu('cpu20', '20 tabs, one client'),
    cpu('cpu50', '50 tabs, one client'),
    cpu('cpu50NoClient', '50 tabs, no client'),
    vsFew('attachRatio', 'attach p95', 'attach to a full screen p95'),
    vsFew('stripRatio', 'strip redraw', 'strip redraw on a status change'),
    vsFew('tabsRatio', 'a1 tabs p95', '`a1 tabs` p95'),
  ];
}
