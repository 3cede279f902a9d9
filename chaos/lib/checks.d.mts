// Types of checks.mjs, for test/e2e/chaos.test.ts.

export interface TabLinesCheck {
  tab: string;
  printed: number;
  seen: number;
  missing: number;
  missingRanges: string[];
  outOfOrder: number;
  duplicates: number;
  beyond: number;
  foreign: number;
  foreignSample: string[];
  ready: boolean;
  end: number | null;
}

export interface ListedTab {
  id: string;
  name: string;
  status?: string;
  holderPid: number | null;
  childPid: number | null;
}

export interface Listing {
  server: { pid: number; epoch: number } | null;
  tabs: ListedTab[];
}

export interface ProfileProcess {
  pid: number;
  argv: string[];
  tabId: string | null;
  holderTab: string | null;
}

export type TabPids = ListedTab & { holderStart: string | null; childStart: string | null };

export function checkTabLines(text: string, tab: string, last: number): TabLinesCheck;
export function linesIntact(check: TabLinesCheck): boolean;
export function ranges(sorted: number[]): string[];
export function comparePids(before: TabPids[], after: TabPids[]): { holderChanges: number; childChanges: number; tabsGone: number; tabsNew: number; details: string[] };
export function accountProcesses(procs: ProfileProcess[], context: { listing: Listing; clientPid: number }): { servers: number; orphans: number; missing: number; details: string[] };
export function duplicateTabCount(listing: Listing, made: number): number;
