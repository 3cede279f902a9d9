// Types of report.mjs, for test/e2e/chaos.test.ts.
import type { ChaosResult } from './chaos.mjs';

export interface FigureRow {
  key: string;
  label: string;
  value: string;
  target: string;
  /** null: shown, not judged. */
  ok: boolean | null;
}

export function judge(result: ChaosResult): FigureRow[];
export function failuresOf(result: ChaosResult): string[];
export function toMarkdown(result: ChaosResult): string;
