// `a1 new -- …` (issue 18): one argument holding shell syntax runs through the user's shell, as
// tmux runs it through `sh -c`; a program that cannot start makes `a1 new` fail naming it and why,
// and leaves no tab behind.
import fs from 'node:fs';
import path from 'node:path';
import { describe, it, expect, afterEach } from 'vitest';
import { e2e, listing, type E2E } from './harness.js';
import { listedTab, waitForStatus } from './lifecycleHarness.js';

let t: E2E;
afterEach(async () => {
  await t?.teardown();
});

describe('a1 new -- CMD', () => {
  it("runs a single string through the user's shell", async () => {
    t = e2e();
    const made = await t.run('new', '--', 'echo hi-$((6*7)) && sleep 100');
    expect(made.code, made.stderr).toBe(0);
    const id = made.stdout.trim();
    await waitForStatus(t, id, 'running');
    const a1 = t.attach();
    await a1.waitForText('hi-42');
    expect(listedTab(await listing(t), id).status).toBe('running');
  });

  it('fails naming a program that does not exist, and leaves no tab', async () => {
    t = e2e();
    const r = await t.run('new', '--', '/no/such/program', '--flag');
    expect(r.code).not.toBe(0);
    expect(r.stderr.trim()).toBe('a1: Cannot start "/no/such/program": no such file (ENOENT).');
    expect(r.stdout).toBe('');
    const onPath = await t.run('new', '--', 'no-such-program-a1');
    expect(onPath.code).not.toBe(0);
    expect(onPath.stderr).toContain('"no-such-program-a1": not found on PATH (ENOENT)');
    expect((await listing(t)).tabs).toEqual([]);
  });

  it('fails naming a file that is not executable (EACCES), and leaves no tab', async () => {
    t = e2e();
    const file = path.join(t.home.dir, 'notes.txt');
    fs.writeFileSync(file, 'not a program\n', { mode: 0o644 });
    const r = await t.run('new', '--', file);
    expect(r.code).not.toBe(0);
    expect(r.stderr.trim()).toBe(`a1: Cannot start ${JSON.stringify(file)}: not an executable file (EACCES).`);
    expect((await listing(t)).tabs).toEqual([]);
  });
});
