// Setup file of the fast tier (vitest.config.ts, issue 29): a file there starts no process. Every
// way to start one (child_process and node-pty) is replaced before the file loads by a function
// that refuses and remembers; a file that tried fails at its end, even when the code under test
// caught the refusal. A file that needs a process belongs in the `unit` project.
import childProcess from 'node:child_process';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { afterAll } from 'vitest';

const require = createRequire(import.meta.url);

/** Every start attempted in this file: what was called and with which program. */
const attempts: string[] = [];

function refuse(what: string): (...args: unknown[]) => never {
  return (...args: unknown[]) => {
    attempts.push(`${what}(${JSON.stringify(args[0])})`);
    throw new Error(`${what} in the fast tier: a test that starts a process belongs in the unit project (vitest.config.ts)`);
  };
}

const CHILD_PROCESS_STARTS = ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'] as const;
for (const name of CHILD_PROCESS_STARTS) {
  (childProcess as unknown as Record<string, unknown>)[name] = refuse(`child_process.${name}`);
}
// Named ESM imports of a built-in module read its CommonJS exports only after this sync.
syncBuiltinESMExports();

// node-pty is CommonJS: an ESM import made later copies these exports from the cached module.
const nodePty = require('node-pty') as Record<string, unknown>;
for (const name of ['spawn', 'fork', 'createTerminal', 'open'] as const) {
  if (name in nodePty) nodePty[name] = refuse(`node-pty.${name}`);
}

afterAll(() => {
  if (attempts.length > 0) throw new Error(`this file started a process in the fast tier: ${attempts.join(', ')}`);
});
