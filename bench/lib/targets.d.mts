// Types of targets.mjs, for test/bench/targets.test.ts.

/** One system's figure for a metric: its per-round values and their median (null: none). */
export interface SystemFigure {
  rounds: number[];
  median: number | null;
}

/** A summarised metric (report.mjs `summarise`): a figure per system the measure ran. */
export interface MetricSummary {
  key: string;
  label: string;
  unit: string;
  ratio: number | null;
  ratios?: Record<string, number | null>;
  [system: string]: SystemFigure | string | number | null | Record<string, number | null> | undefined;
}

export interface MeasureSummary {
  name: string;
  systems: string[];
  metrics: MetricSummary[];
  errors: { system: string; round: number; message: string }[];
  informational?: boolean;
}

export interface Target {
  name: string;
  label: string;
  unit: string;
  atMost?: number;
  atLeast?: number;
  needs?: string[];
  value(measures: MeasureSummary[]): number | null;
}

export interface JudgedTarget {
  name: string;
  label: string;
  unit: string;
  bounded: 'atMost' | 'atLeast';
  bound: number;
  value: number | null;
  used: number | null;
  verdict: 'pass' | 'fail' | 'not run';
  /** For a target not run: the measures it needs that have no figure. */
  missing?: string[];
}

export const TARGETS: Target[];
export function judgeTargets(measures: MeasureSummary[]): JudgedTarget[];
export function formatFigure(value: number | null, unit: string): string;
export function formatBound(judged: JudgedTarget): string;
