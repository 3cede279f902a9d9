// A tab's child runs with the environment of the client that created the tab (SPEC §15 "The
// child"), sent with the create request and never stored: the server keeps it in memory for the
// tab's life, so a replacement holder it starts gives the new child the same environment.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { e2e, KEY, listing, probeViewed, PROMPT_SEEN, waitForListing, waitForStrip, type E2E } from './harness.js';
import { waitFor } from '../helpers/wait.js';
import { a1Argv } from '../helpers/pty.js';

let t: E2E | undefined;
afterEach(async () => {
  await t?.teardown();
  t = undefined;
});

/** The process's environment as /proc shows it, name → value. */
function environOf(pid: number): Map<string, string> {
  const entries = fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean);
  return new Map(entries.map((e) => [e.slice(0, e.indexOf('=')), e.slice(e.indexOf('=') + 1)]));
}

/** Every regular file under `dir` (sockets and other special files are skipped). */
function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return filesUnder(full);
    return e.isFile() ? [full] : [];
  });
}

describe("a tab's child environment", () => {
  it("a replacement holder's child has the creating client's environment, which nothing under A1_HOME holds", async () => {
    t = e2e();
    // The server starts with the test's environment, which lacks the variable.
    const first = await t.run('new', '--name', 'plain');
    expect(first.code, first.stderr).toBe(0);
    const value = `env-probe-${process.pid}-${Date.now()}`;
    t.env.CHILD_ENV_PROBE = value;
    const made = await t.run('new', '--name', 'carrier');
    delete t.env.CHILD_ENV_PROBE;
    expect(made.code, made.stderr).toBe(0);
    const id = made.stdout.trim();
    const before = await waitForListing(t, ['plain', 'carrier']);
    const carrier = before.tabs.find((x) => x.id === id)!;
    expect(environOf(carrier.childPid!).get('CHILD_ENV_PROBE')).toBe(value);
    expect(environOf(before.server!.pid).has('CHILD_ENV_PROBE')).toBe(false);

    process.kill(carrier.holderPid!, 'SIGKILL');
    const after = await waitFor(async () => {
      const l = await listing(t!);
      const tab = l.tabs.find((x) => x.id === id);
      return tab?.status === 'running' && tab.holderPid && tab.holderPid !== carrier.holderPid && tab.childPid ? tab : null;
    }, { what: 'the carrier tab running under a replacement holder' });
    expect((await listing(t)).server!.pid).toBe(before.server!.pid);
    expect(environOf(after.childPid!).get('CHILD_ENV_PROBE')).toBe(value);

    const a1 = t.attach();
    await waitForStrip(a1, ['plain', 'carrier']);
    a1.write(KEY.jump2);
    await waitForStrip(a1, ['plain', 'carrier'], 'carrier');
    await a1.waitForText(PROMPT_SEEN);
    await probeViewed(a1, id);
    a1.write('echo "seen=$CHILD_ENV_PROBE"\r');
    await a1.waitForText(`seen=${value}`);

    // Never stored: the registry (and its WAL), backups, logs, crash records, config, run dir.
    const holding = filesUnder(t.home.dir).filter((file) => fs.readFileSync(file).includes(value));
    expect(holding).toEqual([]);
  });

  it("sees the terminal a direct run in the client's terminal sees: its COLORTERM or none, and a1's shims first on PATH", async () => {
    t = e2e();
    delete t.env.COLORTERM;
    const plain = await t.run('new', '--name', 'plain');
    t.env.COLORTERM = '24bit';
    const deep = await t.run('new', '--name', 'deep');
    delete t.env.COLORTERM;
    const tabs = (await waitForListing(t, ['plain', 'deep'])).tabs;
    const envOf = (id: string) => environOf(tabs.find((x) => x.id === id)!.childPid!);
    // Codex, say, paints 256 colours where the terminal said nothing of 24-bit colour, as it does run directly.
    expect(envOf(plain.stdout.trim()).has('COLORTERM')).toBe(false);
    expect(envOf(deep.stdout.trim()).get('COLORTERM')).toBe('24bit');
    expect(envOf(plain.stdout.trim()).get('TERM')).toBe('xterm-256color');
    const [first, ...rest] = envOf(plain.stdout.trim()).get('PATH')!.split(':');
    expect(first).toBe(path.join(path.dirname(fs.realpathSync(a1Argv()[1])), 'shims'));
    expect(rest.join(':')).toBe(t.env.PATH);
  });
});
