// Shell completion of tab targets (issue 18): the bash script `a1 completion bash` prints asks the
// real a1 for the running server's tabs (positions, ids, names), and with no server it offers
// none and starts nothing.
import { describe, it, expect, afterEach } from 'vitest';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { e2e, livePids, waitForListing, type E2E } from './harness.js';
import { A1_BIN } from '../helpers/pty.js';

let t: E2E;
afterEach(async () => {
  await t?.teardown();
});

const quote = (w: string) => `'${w.replace(/'/g, `'\\''`)}'`;

/** What the completion function offers in a bash whose PATH has this test's a1. */
async function bashComplete(words: string[]): Promise<string[]> {
  const bin = path.join(t.home.dir, 'bin');
  fs.mkdirSync(bin, { recursive: true });
  fs.writeFileSync(path.join(bin, 'a1'), `#!/bin/sh\nexec ${quote(process.execPath)} ${quote(A1_BIN)} "$@"\n`, { mode: 0o755 });
  const script = (await t.run('completion', 'bash')).stdout;
  fs.writeFileSync(path.join(t.home.dir, 'a1.bash'), script);
  const run = `source ${quote(path.join(t.home.dir, 'a1.bash'))}
COMP_WORDS=(${words.map(quote).join(' ')}); COMP_CWORD=${words.length - 1}
_a1_completion; printf '%s\\n' "\${COMPREPLY[@]}"`;
  const env = { ...t.env, PATH: `${bin}:${process.env.PATH}` };
  return execFileSync('bash', ['--norc', '--noprofile', '-c', run], { encoding: 'utf8', env, cwd: t.home.dir }).split('\n').filter(Boolean);
}

describe('completing tabs', () => {
  it('offers positions, ids and names (quoted for the shell) where a command takes a tab', async () => {
    t = e2e();
    for (const name of ['one', 'build watcher']) expect((await t.run('new', '--name', name)).code).toBe(0);
    const l = await waitForListing(t, ['one', 'build watcher']);
    const all = ['1', '2', ...l.tabs.map((x) => x.id), 'one', 'build\\ watcher'];
    expect((await bashComplete(['a1', 'tabs', 'stop', ''])).sort()).toEqual(all.sort());
    // Each further target too; only those that match what is typed.
    expect(await bashComplete(['a1', 'tabs', 'stop', '1', 'bu'])).toEqual(['build\\ watcher']);
    expect((await bashComplete(['a1', 'attach', ''])).sort()).toEqual(all.sort());
    expect(await bashComplete(['a1', 'send', 'o'])).toEqual(['one']);
    // After send's tab come keys and text: no tabs.
    expect(await bashComplete(['a1', 'send', 'one', ''])).toEqual([]);
  });

  it('offers no tabs and starts nothing when no server runs', async () => {
    t = e2e();
    expect(await bashComplete(['a1', 'tabs', 'stop', ''])).toEqual([]);
    const direct = await t.run('completion', '--tabs');
    expect(direct).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(livePids(t)).toEqual([]);
  });
});
