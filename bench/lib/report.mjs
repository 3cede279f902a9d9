// Turning collected samples into the results file and the table (pure except `writeResults`).

import fs from 'node:fs';
import path from 'node:path';
import { targetsChart } from './chart.mjs';
import { median } from './stats.mjs';
import { formatBound, formatFigure } from './targets.mjs';

/** The systems of the targets' table; an informational measure has the systems of its drivers. */
const SYSTEM_NAMES = ['a1', 'tmux'];
/** The reference every ratio is taken against. */
const REFERENCE = 'tmux';

/**
 * Folds per-round values into medians. `collected` is `{ [measure]: { rounds: { [system]:
 * [values] }, errors: [] } }`, where each value is one driver's `{ [metric key]: number }`. Each
 * metric gets `{ [system]: { rounds, median } }`, `ratio` (a1/tmux, or null) and `ratios`
 * (`{ [system]: system/tmux }` for every other system).
 */
export function summarise(measures, collected) {
  return measures.map((measure) => {
    const { rounds, errors } = collected[measure.name];
    const systems = measure.informational ? Object.keys(measure.drivers) : SYSTEM_NAMES;
    const metrics = measure.metrics.map(({ key, label, unit }) => {
      const entry = { key, label, unit };
      for (const system of systems) {
        const values = (rounds[system] ?? []).map((value) => value[key]);
        entry[system] = { rounds: values, median: values.length > 0 ? median(values) : null };
      }
      entry.ratios = {};
      for (const system of systems.filter((name) => name !== REFERENCE)) entry.ratios[system] = ratioTo(entry[system], entry[REFERENCE]);
      entry.ratio = entry.ratios.a1 ?? null;
      return entry;
    });
    const summary = { name: measure.name, systems, metrics, errors };
    return measure.informational ? { ...summary, informational: true, title: measure.title, note: measure.note ?? null } : summary;
  });
}

function ratioTo(figure, reference) {
  return figure?.median != null && reference?.median ? figure.median / reference.median : null;
}

function formatValue(value, unit) {
  if (value === null) return 'n/a';
  return `${value.toFixed(2)} ${unit}`;
}

/** Room for the reason and the last screen lines; the JSON file keeps the whole message. */
const MAX_ERROR_CHARS = 240;

function oneLine(message) {
  const text = message.trim().replace(/\s*\n\s*/g, ' / ');
  return text.length > MAX_ERROR_CHARS ? `${text.slice(0, MAX_ERROR_CHARS)}…` : text;
}

const VERDICT = { pass: 'pass', fail: '**FAIL**', 'not run': 'not run' };

function targetsTable(targets) {
  return [
    '| target | bound | a1 | result |',
    '|---|---:|---:|:---:|',
    ...targets.map((t) => `| ${t.label} | ${formatBound(t)} | ${formatFigure(t.value, t.unit)} | ${verdictText(t)} |`),
  ];
}

/** A target not run says which measure it lacks, when that is why. */
function verdictText(judged) {
  const missing = judged.missing ?? [];
  return judged.verdict === 'not run' && missing.length > 0 ? `not run (no ${missing.join(', ')})` : VERDICT[judged.verdict];
}

/** One row per metric: each system's median, then (when tmux ran it) each system's ratio to tmux. */
function informationalTable(measure) {
  const others = measure.systems.includes(REFERENCE) ? measure.systems.filter((system) => system !== REFERENCE) : [];
  const ratio = (value) => (value === null ? 'n/a' : `${value.toFixed(2)}x`);
  const cells = (values) => values.map((value) => ` ${value} |`).join('');
  return [
    `**${measure.title}**`,
    '',
    `| measure |${cells(measure.systems)}${cells(others.map((system) => `${system}/${REFERENCE}`))}`,
    `|---|${cells([...measure.systems, ...others].map(() => '---:'))}`,
    ...measure.metrics.map(
      (metric) =>
        `| ${metric.label} |${cells(measure.systems.map((system) => formatValue(metric[system].median, metric.unit)))}` +
        `${cells(others.map((system) => ratio(metric.ratios[system])))}`,
    ),
    ...(measure.note ? ['', measure.note] : []),
  ];
}

export function toMarkdown(results) {
  const lines = [
    `# a1 vs tmux, ${results.startedAt}`,
    '',
    `${results.settings.cols}x${results.settings.rows} PTY, median of ${results.settings.rounds} round(s); lower is better. ` +
      `${results.systems.tmux ?? 'tmux'}, a1 ${results.systems.a1.commit ?? ''}, node ${results.host.node}, ` +
      `${results.host.cpus} x ${results.host.cpuModel}.`,
    '',
    ...targetsTable(results.targets),
  ];
  const compared = results.measures.filter((m) => !m.informational);
  if (compared.length > 0) lines.push('', '| measure | a1 | tmux | ratio (a1/tmux) |', '|---|---:|---:|---:|');
  for (const measure of compared) {
    for (const metric of measure.metrics) {
      const ratio = metric.ratio === null ? 'n/a' : `${metric.ratio.toFixed(2)}x`;
      lines.push(`| ${metric.label} | ${formatValue(metric.a1.median, metric.unit)} | ${formatValue(metric.tmux.median, metric.unit)} | ${ratio} |`);
    }
  }
  for (const measure of results.measures.filter((m) => m.informational)) lines.push('', ...informationalTable(measure));
  const errors = results.measures.flatMap((measure) =>
    measure.errors.map((error) => `- ${measure.name}, ${error.system}, round ${error.round}: ${oneLine(error.message)}`),
  );
  if (errors.length > 0) lines.push('', 'Failed runs (not in the medians):', '', ...errors);
  if (results.seconds) lines.push('', ...timeTable(results.seconds));
  return `${lines.join('\n')}\n`;
}

/** Wall time per measure, every round and system together, and the whole run's. */
function timeTable(seconds) {
  const { total, ...perMeasure } = seconds;
  return [
    '| measure | time |',
    '|---|---:|',
    ...Object.entries(perMeasure).map(([name, s]) => `| ${name} | ${s.toFixed(1)} s |`),
    `| **whole run** (build not included) | ${total.toFixed(1)} s |`,
  ];
}

/** Writes `<stamp>.json`, `<stamp>.md` and `<stamp>.svg` under `dir`; returns their paths. */
export function writeResults(dir, results) {
  fs.mkdirSync(dir, { recursive: true });
  const stamp = results.startedAt.replace(/[:.]/g, '-');
  const json = path.join(dir, `${stamp}.json`);
  const md = path.join(dir, `${stamp}.md`);
  const svg = path.join(dir, `${stamp}.svg`);
  fs.writeFileSync(json, `${JSON.stringify(results, null, 2)}\n`);
  fs.writeFileSync(md, toMarkdown(results));
  fs.writeFileSync(svg, targetsChart(results.targets, `a1 against its targets, ${results.startedAt}`));
  return { json, md, svg };
}
