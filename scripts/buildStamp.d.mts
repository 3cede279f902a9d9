// Types of scripts/buildStamp.mjs for the tests that import it.
export declare const BUILD_INPUTS: readonly string[];
export declare const BUILD_OUTPUTS: readonly string[];
export declare const STAMP: string;
export declare function inputFiles(root: string, inputs?: readonly string[]): string[];
export declare function fingerprint(lines: readonly string[]): string;
export interface BuildDecision {
  build: boolean;
  why: 'first run' | 'sources changed' | 'up to date';
}
export declare function buildDecision(facts: { stamp: string | null; current: string; outputsExist: boolean }): BuildDecision;
export declare function needsBuild(root: string): BuildDecision;
export declare function beginBuild(root: string): void;
export declare function endBuild(root: string): void;
