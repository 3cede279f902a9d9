// `a1 status STATE`, as agents and scripts send it, runs from the report entry (dist/hook.js)
// without loading the CLI (dist/main.js), and says what the CLI says. Seen from inside the real
// `a1`: a module hook records every module the process resolves.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { A1_BIN } from '../helpers/pty.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'a1-statusentry-'));
const hooks = path.join(dir, 'hooks.mjs');
const register = path.join(dir, 'register.mjs');
fs.writeFileSync(
  hooks,
  `import fs from 'node:fs';
   export async function resolve(specifier, context, next) {
     const resolved = await next(specifier, context);
     fs.appendFileSync(process.env.A1_TEST_RESOLVED, resolved.url + '\\n');
     return resolved;
   }\n`,
);
fs.writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

let runs = 0;
/** The real `a1 ...args`, outside any tab, with a profile of its own (no server starts). */
function run(...args: string[]): { status: number | null; stderr: string; resolved: string[] } {
  const record = path.join(dir, `resolved-${++runs}`);
  const result = spawnSync(process.execPath, ['--import', register, A1_BIN, ...args], {
    encoding: 'utf8',
    timeout: 20_000,
    env: { ...process.env, A1_HOME: path.join(dir, 'home'), A1_TEST_RESOLVED: record, A1_TAB_ID: '', A1_BRIDGE: '', A1_BRIDGE_TOKEN: '' },
  });
  const resolved = fs.existsSync(record) ? fs.readFileSync(record, 'utf8').split('\n').filter(Boolean) : [];
  return { status: result.status, stderr: result.stderr, resolved };
}

const loadsCli = (resolved: string[]): boolean => resolved.some((url) => url.endsWith('/dist/main.js'));

describe('a1 status without the CLI', () => {
  it('a plain report loads the report entry only, and refuses outside a tab as the CLI does', () => {
    const plain = run('status', 'idle', '--session-id', 's-1', '--agent', 'generic');
    expect(plain.resolved.some((url) => url.endsWith('/dist/hook.js'))).toBe(true);
    expect(loadsCli(plain.resolved)).toBe(false);
    // The same report with an option only the CLI reads (--profile) goes through the CLI.
    const viaCli = run('status', 'idle', '--session-id', 's-1', '--agent', 'generic', '--profile', 'default');
    expect(loadsCli(viaCli.resolved)).toBe(true);
    expect(plain.stderr).toBe('a1: status reports work only inside an a1 tab.\n');
    expect(plain.stderr).toBe(viaCli.stderr);
    expect(plain.status).toBe(1);
    expect(viaCli.status).toBe(1);
  });

  it('anything else, such as help or a state the CLI refuses, is the CLI', () => {
    expect(loadsCli(run('status', '--help').resolved)).toBe(true);
    const refused = run('status', 'sideways');
    expect(loadsCli(refused.resolved)).toBe(true);
    expect(refused.stderr).toMatch(/^a1: Name a state: /);
  });
});
