// Shared set-up for end-to-end tests: a hermetic A1_HOME whose tabs run a plain bash with a
// known prompt, the real a1 binary in a PTY, and teardown that ends every process by pid.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { makeHome, type TestHome } from '../helpers/home.js';
import { PtyDriver, a1Argv } from '../helpers/pty.js';
import { isAlive, killAllWithEnv, pidsWithEnv } from '../helpers/procs.js';
import { waitFor } from '../helpers/wait.js';

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

/** `a1 tabs --json` as SPEC §15 "Listing" documents it. */
export interface Listing {
  server: { pid: number; epoch: number } | null;
  tabs: { id: string; name: string; status: string; cwd: string; holderPid: number | null; childPid: number | null }[];
}

/** Runs `a1 tabs --json`; a failure is thrown with what the command printed. */
export async function listing(t: E2E): Promise<Listing> {
  const r = await t.run('tabs', '--json');
  if (r.code !== 0) throw new Error(`a1 tabs --json exited ${r.code}: ${r.stderr.trim()}`);
  return JSON.parse(r.stdout) as Listing;
}

/** Every live process carrying this test's A1_HOME marker: server, holders, children, clients. */
export function livePids(t: E2E): number[] {
  return pidsWithEnv('A1_HOME', t.home.dir).filter(isAlive);
}

/** The profile's state directory (registry, backups, logs) under the test's A1_HOME. */
export function stateDir(t: E2E): string {
  return path.join(t.home.dir, 'state', 'default');
}

/** The profile's run directory (server socket, client token, holder sockets). */
export function runDir(t: E2E): string {
  return path.join(t.home.dir, 'run', 'default');
}

/** Ctrl+C twice: the attached client detaches and exits. */
export async function detach(a1: PtyDriver): Promise<void> {
  a1.write('\x03\x03');
  await a1.exited;
}

/** `a1 tabs host stop`, then waits until no process of the profile is left. */
export async function hostStop(t: E2E): Promise<void> {
  const r = await t.run('tabs', 'host', 'stop');
  if (r.code !== 0) throw new Error(`a1 tabs host stop exited ${r.code}: ${r.stderr.trim()}`);
  await waitFor(() => livePids(t).length === 0, { what: 'every process of the profile gone after host stop' });
}
