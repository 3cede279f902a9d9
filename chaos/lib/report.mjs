// The chaos run's figures as a table with what each must be, and the list of failures: one
// declared list of figures, so the table, the verdict and the test read the same thing.

const fixed = (digits) => (v) => v.toFixed(digits);
const whole = (v) => String(Math.round(v));

/** Each figure: its key in result.figures, its label, what it must be (null: shown, not judged). */
export const FIGURES = [
  { key: 'tabs', label: 'tabs streaming numbered lines', want: (s) => ({ text: `${s.tabs}`, ok: (v) => v === s.tabs }) },
  { key: 'kills', label: 'server kill -9', want: (s) => ({ text: `${s.kills}`, ok: (v) => v === s.kills }) },
  { key: 'killPhaseS', label: 'kill phase (s)', format: fixed(1), want: null },
  { key: 'startedByClient', label: 'replacements the client started itself', want: null },
  { key: 'startedByR', label: 'replacements after [r] (stopped state: 3 starts in 60 s)', want: null },
  { key: 'recoveryMedianMs', label: 'kill → client on the replacement, median (ms, polled)', format: whole, want: null },
  { key: 'recoveryMaxMs', label: 'kill → client on the replacement, max (ms, polled)', format: whole, want: null },
  { key: 'holderPidChanges', label: 'tab (holder) pid changes', want: zero },
  { key: 'childPidChanges', label: 'child pid changes', want: zero },
  { key: 'tabsGone', label: 'tabs gone', want: zero },
  { key: 'tabsNew', label: 'tabs new', want: zero },
  { key: 'duplicateTabs', label: 'duplicate tabs', want: zero },
  { key: 'orphans', label: 'orphaned processes', want: zero },
  { key: 'missingProcesses', label: 'listed holders or children not running', want: zero },
  { key: 'servers', label: 'servers running at the end', want: () => ({ text: '1', ok: (v) => v === 1 }) },
  { key: 'linesPrinted', label: 'numbered lines printed (all tabs)', want: () => ({ text: '> 0', ok: (v) => v > 0 }) },
  { key: 'linesMinPerTab', label: 'numbered lines printed (fewest in a tab)', want: () => ({ text: '> 0', ok: (v) => v > 0 }) },
  { key: 'linesLost', label: 'lines missing from screen + scrollback', want: zero },
  { key: 'linesOutOfOrder', label: 'lines out of order', want: zero },
  { key: 'linesRepeated', label: 'lines repeated or never printed', want: zero },
  { key: 'linesForeign', label: 'foreign lines', want: zero },
  { key: 'printerMismatches', label: 'tabs whose lines came from another child', want: zero },
];

function zero() {
  return { text: '0', ok: (v) => v === 0 };
}

/** One row per figure: label, value as shown, target, and whether it passed (null: not judged). */
export function judge(result) {
  return FIGURES.map(({ key, label, format = String, want }) => {
    const value = result.figures[key];
    const target = want?.(result.settings) ?? null;
    const shown = value === null || value === undefined ? '—' : format(value);
    const ok = target === null ? null : value !== null && value !== undefined && target.ok(value);
    return { key, label, value: shown, target: target?.text ?? '', ok };
  });
}

/** Every failed figure and every failure the run itself recorded. */
export function failuresOf(result) {
  const failed = judge(result)
    .filter((row) => row.ok === false)
    .map((row) => `${row.label}: ${row.value}, must be ${row.target}`);
  return [...result.failures, ...failed];
}

/** The figures as a markdown table, then the settings, the kills, evidence and the verdict. */
export function toMarkdown(result) {
  const rows = judge(result);
  const s = result.settings;
  const out = [
    `chaos: ${s.tabs} tabs, ${s.kills} kills in ${s.seconds} s, a line every ${s.intervalMs} ms per tab, seed ${s.seed}`,
    '',
    '| figure | value | must be | |',
    '|---|---:|---:|---|',
    ...rows.map((r) => `| ${r.label} | ${r.value} | ${r.target} | ${r.ok === null ? '' : r.ok ? 'ok' : 'FAIL'} |`),
  ];
  if (result.kills.length > 0) {
    out.push('', 'kills: ' + result.kills.map((k) => `${k.atS.toFixed(1)} s → ${k.recoveryMs === undefined ? '?' : Math.round(k.recoveryMs)} ms${k.by === '[r]' ? ' [r]' : ''}`).join(', '));
  }
  if (result.evidence.length > 0) out.push('', 'evidence:', ...result.evidence.map((e) => `- ${e}`));
  const failures = failuresOf(result);
  out.push('', failures.length === 0 ? 'PASS' : `FAIL (${failures.length}):`, ...failures.map((f) => `- ${f}`));
  return out.join('\n');
}
