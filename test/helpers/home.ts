// A hermetic A1_HOME per test: every file a1 writes lands under one temporary directory, and the
// environment carries nothing from a surrounding a1 or tmux that could change behaviour.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface TestHome {
  dir: string;
  /** The environment to start a1 (or anything it should see) with. */
  env: Record<string, string>;
  /** Removes the directory; safe to call more than once. */
  cleanup(): void;
}

/** A short prefix: a1's sockets live under A1_HOME and Unix socket paths are limited to ~107 bytes. */
const HOME_PREFIX = 'a1t-';
const PRIVATE_DIR_MODE = 0o700;
const PRIVATE_FILE_MODE = 0o600;

/** A surrounding a1 tab or tmux pane would make a1 refuse to nest or attach elsewhere. */
function isInheritedMultiplexerVar(key: string): boolean {
  return key.startsWith('A1_') || key === 'TMUX' || key.startsWith('TMUX_');
}

export function makeHome(opts: { config?: object } = {}): TestHome {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), HOME_PREFIX));
  fs.chmodSync(dir, PRIVATE_DIR_MODE);
  if (opts.config !== undefined) {
    const configDir = path.join(dir, 'config');
    fs.mkdirSync(configDir, { mode: PRIVATE_DIR_MODE });
    fs.writeFileSync(path.join(configDir, 'config.json'), JSON.stringify(opts.config, null, 2), {
      mode: PRIVATE_FILE_MODE,
    });
  }
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !isInheritedMultiplexerVar(key)) env[key] = value;
  }
  Object.assign(env, { A1_HOME: dir, SHELL: '/bin/bash', TERM: 'xterm-256color' });
  return {
    dir,
    env,
    cleanup: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}
