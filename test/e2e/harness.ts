// Shared set-up for end-to-end tests: a hermetic A1_HOME whose tabs run a plain bash with a
// known prompt, the real a1 binary in a PTY, and teardown that ends every process by pid.
import { execFile } from 'node:child_process';
import { makeHome, type TestHome } from '../helpers/home.js';
import { PtyDriver, a1Argv } from '../helpers/pty.js';
import { killAllWithEnv } from '../helpers/procs.js';

export const PROMPT = 'a1$ ';
/** The prompt as a screen row shows it: rows are read with trailing blanks trimmed. */
export const PROMPT_SEEN = 'a1$';

export interface E2E {
  home: TestHome;
  env: Record<string, string>;
  /** Starts the a1 client (or `a1 ...args`) in a fresh 120x40 PTY. */
  attach(...args: string[]): PtyDriver;
  /** Runs `a1 ...args` to completion, as a maintenance command. */
  run(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }>;
  teardown(): Promise<void>;
}

export function e2e(config: object = {}): E2E {
  const home = makeHome({ config: { tabCommand: ['/bin/bash', '--norc', '--noprofile'], ...config } });
  const env = { ...home.env, PS1: PROMPT, HISTFILE: '/dev/null' };
  const drivers: PtyDriver[] = [];
  return {
    home,
    env,
    attach: (...args) => {
      const d = new PtyDriver({ argv: a1Argv(...args), env, cwd: home.dir });
      drivers.push(d);
      return d;
    },
    run: (...args) =>
      new Promise((resolve) => {
        const [file, ...rest] = a1Argv(...args);
        execFile(file, rest, { env, cwd: home.dir, timeout: 30_000 }, (err, stdout, stderr) => {
          const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? ((err as { code: number }).code) : 1) : 0;
          resolve({ code, stdout, stderr });
        });
      }),
    teardown: async () => {
      for (const d of drivers) d.dispose();
      await killAllWithEnv('A1_HOME', home.dir);
      home.cleanup();
    },
  };
}
