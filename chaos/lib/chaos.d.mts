// Types of chaos.mjs, for test/e2e/chaos.test.ts (the chaos run itself is plain JavaScript, run
// by node without a build).
import type { TabLinesCheck } from './checks.mjs';

export const A1_BIN: string;
export const CHAOS_MARKER: string;
export const DEFAULTS: Readonly<{ tabs: number; kills: number; seconds: number }>;

export interface ChaosOptions {
  tabs?: number;
  kills?: number;
  seconds?: number;
  seed?: number;
  intervalMs?: number;
  runId?: string;
  a1Bin?: string;
  log?: (message: string) => void;
}

export interface ChaosSettings {
  tabs: number;
  kills: number;
  seconds: number;
  seed: number;
  intervalMs: number;
}

/** Every figure is null until the run measured it. */
export interface ChaosFigures {
  tabs: number | null;
  kills: number | null;
  killPhaseS: number | null;
  startedByClient: number | null;
  startedByR: number | null;
  recoveryMedianMs: number | null;
  recoveryMaxMs: number | null;
  holderPidChanges: number | null;
  childPidChanges: number | null;
  tabsGone: number | null;
  tabsNew: number | null;
  duplicateTabs: number | null;
  orphans: number | null;
  missingProcesses: number | null;
  servers: number | null;
  linesPrinted: number | null;
  linesMinPerTab: number | null;
  linesLost: number | null;
  linesOutOfOrder: number | null;
  linesRepeated: number | null;
  linesForeign: number | null;
  printerMismatches: number | null;
}

export interface ChaosKill {
  n: number;
  atS: number;
  pid: number;
  epoch: number;
  replacementPid?: number;
  replacementEpoch?: number;
  recoveryMs?: number;
  by?: 'client' | '[r]';
}

export interface ChaosResult {
  settings: ChaosSettings;
  figures: ChaosFigures;
  kills: ChaosKill[];
  tabs: (TabLinesCheck & { printerPid: number; recoveryFiles: number })[];
  evidence: string[];
  failures: string[];
}

export function runChaos(options?: ChaosOptions): Promise<ChaosResult>;
export function runRoot(runId: string): string;
