// Exit as people expect (issues 18 and 28, SPEC §15 "Exit, crash, restart"): a plain shell tab
// whose shell ends closes, whatever its status, as in tmux and zellij, and the last one leaves the
// strip with `+` and a hint; neither writes a crash record; an agent tab that exits 0 stays exited.
import { describe, it, expect, afterEach } from 'vitest';
import { e2e, listing, PROMPT_SEEN, waitForListing, waitForStrip, type E2E } from './harness.js';
import { listedTab, waitForStatus } from './lifecycleHarness.js';

let t: E2E;
afterEach(async () => {
  await t?.teardown();
});

interface ExitRecord {
  reason: string;
  detail: Record<string, unknown>;
}

/** Host status lists a1's own crashes apart from tab programs that ended by themselves. */
interface HostStatus {
  crashes: ExitRecord[];
  programExits: ExitRecord[];
}

async function hostStatus(): Promise<HostStatus> {
  const r = await t.run('tabs', 'host', 'status', '--json');
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as HostStatus;
}

const childExits = async () => {
  const s = await hostStatus();
  return [...s.crashes, ...s.programExits].filter((c) => c.reason === 'child-exit');
};

describe('a shell tab whose shell exits', () => {
  it('`exit` closes it and writes no crash record; the last tab leaves `+` and a hint', async () => {
    t = e2e({ closeGraceMs: 300 });
    const a1 = t.attach();
    await a1.waitForText(PROMPT_SEEN);
    const [first] = (await waitForListing(t, ['agent'])).tabs;
    const made = await t.run('new', '--name', 'second');
    expect(made.code, made.stderr).toBe(0);
    await waitForStrip(a1, ['agent', 'second'], 'agent');

    a1.write('exit\r');
    // The tab goes as if closed: gone from every listing and from the strip.
    await waitForStrip(a1, ['second']);
    expect((await listing(t)).tabs.map((x) => x.name)).toEqual(['second']);
    expect((await listing(t)).tabs.map((x) => x.id)).not.toContain(first.id);

    // The last one: the client stays, with an empty strip, `+` and the hint.
    await a1.waitForText(PROMPT_SEEN);
    a1.write('exit 0\r');
    await waitForStrip(a1, []);
    await a1.waitForText('no tabs');
    expect(a1.line(0)).toMatch(/^ ?\+ +no tabs/);
    expect((await listing(t)).tabs).toEqual([]);
    expect(await childExits()).toEqual([]);
    // No resume record or history entry: a shell has no session to keep.
    const sessions = await t.run('sessions', '--json');
    expect(sessions.code, sessions.stderr).toBe(0);
    expect(JSON.parse(sessions.stdout).sessions ?? []).toEqual([]);
  });

  it('`exit 3` closes it too, and writes no crash record (issue 28)', async () => {
    t = e2e({ closeGraceMs: 300 });
    const a1 = t.attach();
    await a1.waitForText(PROMPT_SEEN);
    await waitForListing(t, ['agent']);
    const made = await t.run('new', '--name', 'second');
    expect(made.code, made.stderr).toBe(0);
    await waitForStrip(a1, ['agent', 'second'], 'agent');
    a1.write('exit 3\r');
    await waitForStrip(a1, ['second']);
    expect((await listing(t)).tabs.map((x) => x.name)).toEqual(['second']);
    expect(await childExits()).toEqual([]);
  });

  it('an agent tab that exits 0 stays exited, read-only, and writes no crash record', async () => {
    t = e2e();
    const made = await t.run('new', '--agent', 'generic', '--name', 'ended', '--', '/bin/sh', '-c', 'echo ended-$((6*7)); exit 0');
    expect(made.code, made.stderr).toBe(0);
    const id = made.stdout.trim();
    await waitForStatus(t, id, 'exited');
    const a1 = t.attach();
    await a1.waitForText('exited with status 0');
    expect(listedTab(await listing(t), id).name).toBe('ended');
    expect(await childExits()).toEqual([]);
  });
});
