// A planted secret written by a child to its stderr, typed as a prompt and printed to the
// terminal reaches no log, crash record or doctor bundle (issue 7): those hold allowlisted
// fields only. Recovery files are the one place terminal content may be, owner-only. The run
// also forces every kind of crash record — an unrequested child exit, a holder crash whose
// exception message carries the secret, and a server whose loop stays blocked until its
// watchdog ends it — through the test-only faults of src/diag/testFaults.ts.
import fs from 'node:fs';
import path from 'node:path';
import { describe, it, expect, afterEach } from 'vitest';
import { e2e, listing, stateDir, PROMPT_SEEN, type E2E } from './harness.js';
import { waitFor } from '../helpers/wait.js';
import { isAlive } from '../helpers/procs.js';

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

interface Crash {
  role: string;
  reason: string;
  pid: number;
}

function crashes(t: E2E): Crash[] {
  return filesUnder(path.join(stateDir(t), 'crash'))
    .filter((f) => f.endsWith('.json'))
    .map((f) => JSON.parse(fs.readFileSync(f, 'utf8')) as Crash);
}

function crashWith(t: E2E, match: (c: Crash) => boolean, what: string): Promise<Crash> {
  return waitFor(() => crashes(t).find(match), { what });
}

/** The watchdog's hard limit in this test: short, but well above a loaded machine's hiccups. */
const WATCHDOG_HARD_MS = 3_000;

describe('planted secrets', () => {
  it('appear in no log, crash record or doctor bundle, even after forced crashes', async () => {
    t = e2e();
    const secret = `sk-PLANTED-${process.pid}-${Date.now()}`;
    Object.assign(t.env, {
      A1_TEST_FAULT_SIGUSR2: 'server=block,holder=crash',
      A1_TEST_FAULT_TEXT: `exception text ${secret}`,
      A1_TEST_WATCHDOG_HARD_MS: String(WATCHDOG_HARD_MS),
    });
    // An agent tab: only an agent's exit is a crash, with a crash record (issue 28).
    const made = await t.run('new', '--agent', 'generic');
    expect(made.code, made.stderr).toBe(0);
    const a1 = t.attach();
    await a1.waitForText(PROMPT_SEEN);
    // To stderr, to the terminal, and as a typed line the shell runs (a "prompt").
    a1.write(`echo ${secret} >&2; printf '%s\\n' "${secret}" | rev | rev; echo done-$((2+3))\r`);
    await a1.waitForText('done-5');
    // An exit nobody asked for: the holder writes a crash record (and a recovery file, which may hold
    // it). Non-zero: an exit 0 is no crash (issue 18).
    a1.write(`echo ${secret}; exit 1\r`);
    await waitFor(() => filesUnder(path.join(stateDir(t), 'recovery')).length > 0, { what: 'a recovery file after the exit' });
    await crashWith(t, (c) => c.reason === 'child-exit' && c.role.startsWith('holder-'), 'a child-exit crash record');

    // A holder crash: its exception message carries the secret; the server records the loss too.
    const before = await listing(t);
    const holderPid = before.tabs[0].holderPid!;
    process.kill(holderPid, 'SIGUSR2');
    const holderCrash = await crashWith(t, (c) => c.reason === 'uncaught-exception', 'the holder crash record');
    expect(holderCrash).toMatchObject({ pid: holderPid });
    await crashWith(t, (c) => c.reason === 'holder-exit' && c.role === 'server', "the server's record of the lost holder");

    // A server whose loop stays blocked is ended by its watchdog, which records it.
    const serverPid = before.server!.pid;
    process.kill(serverPid, 'SIGUSR2');
    await waitFor(() => !isAlive(serverPid), { what: 'the watchdog ending the blocked server' });
    await crashWith(t, (c) => c.reason === 'watchdog' && c.pid === serverPid, 'the watchdog crash record');

    const out = path.join(t.home.dir, 'doctor.json');
    const r = await t.run('tabs', 'doctor', '--out', out);
    expect(r.code, r.stderr).toBe(0);
    const bundle = JSON.parse(fs.readFileSync(out, 'utf8')) as { records: unknown[]; crashes: { reason: string }[]; counters: Record<string, number> };
    expect(bundle.records.length).toBeGreaterThan(0);
    expect(bundle.crashes.map((c) => c.reason)).toEqual(expect.arrayContaining(['child-exit', 'uncaught-exception', 'holder-exit', 'watchdog']));
    expect(bundle.counters.holderDeaths).toBeGreaterThan(0);
    expect(fs.statSync(out).mode & 0o777).toBe(0o600);
    const status = await t.run('tabs', 'host', 'status', '--json');
    expect(status.code, status.stderr).toBe(0);
    // a1's own crashes (holder, lost holder, watchdog) apart from the program's own exit.
    const host = JSON.parse(status.stdout) as { crashes: unknown[]; programExits: unknown[] };
    expect(host.crashes.length).toBeGreaterThanOrEqual(3);
    expect(host.programExits.length).toBeGreaterThanOrEqual(1);

    const crashFiles = filesUnder(path.join(stateDir(t), 'crash'));
    for (const f of crashFiles) expect(fs.statSync(f).mode & 0o777, f).toBe(0o600);
    expect(fs.statSync(path.join(stateDir(t), 'crash')).mode & 0o777).toBe(0o700);
    const checked = [out, ...filesUnder(path.join(stateDir(t), 'logs')), ...crashFiles];
    expect(checked.length).toBeGreaterThan(5);
    for (const file of checked) expect(fs.readFileSync(file, 'utf8'), file).not.toContain(secret);
    expect(r.stdout).not.toContain(secret);
    expect(status.stdout).not.toContain(secret);
  });
});
