// A planted secret written by a child to its stderr, typed as a prompt and printed to the
// terminal reaches no log, crash record or doctor bundle (issue 7): those hold allowlisted
// fields only. Recovery files are the one place terminal content may be, owner-only.
import fs from 'node:fs';
import path from 'node:path';
import { describe, it, expect, afterEach } from 'vitest';
import { e2e, stateDir, PROMPT_SEEN, type E2E } from './harness.js';
import { waitFor } from '../helpers/wait.js';

let t: E2E;
afterEach(async () => {
  await t?.teardown();
});

function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? filesUnder(full) : [full];
  });
}

describe('planted secrets', () => {
  it('appear in no log, crash record or doctor bundle', async () => {
    t = e2e();
    const secret = `sk-PLANTED-${process.pid}-${Date.now()}`;
    const a1 = t.attach();
    await a1.waitForText(PROMPT_SEEN);
    // To stderr, to the terminal, and as a typed line the shell runs (a "prompt").
    a1.write(`echo ${secret} >&2; printf '%s\\n' "${secret}" | rev | rev; echo done-$((2+3))\r`);
    await a1.waitForText('done-5');
    // An exit makes the holder write its records (and a recovery file, which may hold it).
    a1.write(`echo ${secret}; exit 0\r`);
    await waitFor(() => filesUnder(path.join(stateDir(t), 'recovery')).length > 0, { what: 'a recovery file after the exit' });
    const out = path.join(t.home.dir, 'doctor.json');
    const r = await t.run('tabs', 'doctor', '--out', out);
    expect(r.code, r.stderr).toBe(0);
    const bundle = JSON.parse(fs.readFileSync(out, 'utf8')) as { records: unknown[] };
    expect(bundle.records.length).toBeGreaterThan(0);
    expect(fs.statSync(out).mode & 0o777).toBe(0o600);
    const checked = [out, ...filesUnder(path.join(stateDir(t), 'logs')), ...filesUnder(path.join(stateDir(t), 'crash'))];
    expect(checked.length).toBeGreaterThan(1);
    for (const file of checked) expect(fs.readFileSync(file, 'utf8'), file).not.toContain(secret);
    expect(r.stdout).not.toContain(secret);
  });
});
