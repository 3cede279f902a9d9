// What a tab's child sees in its environment beyond the tab's own (SPEC §15 "The child", issue 28):
// the terminal it runs in, its bridge, and a1's command shims first on PATH. Pure.
import path from 'node:path';

/** The terminal every tab emulates. */
export const CHILD_TERM = 'xterm-256color';

export interface ChildEnvironmentSpec {
  /** The tab's environment: the requesting client's, less outer identities (src/server/childEnv.ts). */
  env: Record<string, string>;
  tabId: string;
  bridgeSocketPath: string;
  bridgeToken: string;
  /** bin/shims, or undefined when the holder was given none. */
  shimDir?: string;
}

/**
 * TERM names the terminal a1 emulates; COLORTERM stays whatever the client's terminal said (a
 * program in a tab paints the colours it would paint run directly in the same terminal: a1 carries
 * 24-bit colour through, and a program told `truecolor` where the user's terminal is not would
 * paint colours the user never sees as it meant them).
 */
export function childEnvironment(spec: ChildEnvironmentSpec): Record<string, string> {
  const env: Record<string, string> = {
    ...spec.env,
    TERM: CHILD_TERM,
    A1_TAB_ID: spec.tabId,
    A1_BRIDGE: spec.bridgeSocketPath,
    A1_BRIDGE_TOKEN: spec.bridgeToken,
  };
  if (spec.shimDir) env.PATH = pathWithShims(spec.env.PATH, spec.shimDir);
  return env;
}

/** The shim directory first on PATH, once: a tab opened from inside another tab inherits a PATH
 * that already holds it. An unset PATH gets the shell's usual default after the shims. */
export function pathWithShims(pathValue: string | undefined, shimDir: string): string {
  const rest = (pathValue ?? '/usr/local/bin:/usr/bin:/bin').split(':').filter((dir) => path.resolve(dir || '.') !== path.resolve(shimDir));
  return [shimDir, ...rest].join(':');
}
