// Automatic tab names (issue 18, the seed's tabsAutoName): a tab nobody named is called after its
// command (`bash`, `bash-2`), then after its program's title (OSC 0/2) as a short slug; a name the
// user gave never changes, and the registry keeps which is which.
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, it, expect, afterEach } from 'vitest';
import { e2e, listing, PROMPT_SEEN, stateDir, waitForListing, waitForStrip, type E2E } from './harness.js';
import { a1Argv } from '../helpers/pty.js';
import { runPromptCommand } from './lifecycleHarness.js';
import { waitFor } from '../helpers/wait.js';

let t: E2E;
afterEach(async () => {
  await t?.teardown();
});

/** Each tab's name and where it came from, as the registry keeps them. */
function nameSources(): Record<string, string> {
  const db = new Database(path.join(stateDir(t), 'registry.db'), { readonly: true });
  try {
    const rows = db.prepare('SELECT name, name_source AS source FROM tabs').all() as { name: string; source: string }[];
    return Object.fromEntries(rows.map((r) => [r.name, r.source]));
  } finally {
    db.close();
  }
}

/** A bash that sets its window title (OSC 2) and then waits. */
const titled = (title: string) => ['/bin/bash', '--norc', '--noprofile', '-c', `printf '\\033]2;${title}\\007'; sleep 1000`];

describe('automatic tab names', () => {
  it('an unnamed bash tab is named bash, the next bash-2', async () => {
    t = e2e({ tabsAutoName: true });
    const a1 = t.attach();
    await a1.waitForText(PROMPT_SEEN);
    await waitForStrip(a1, ['bash'], 'bash');
    const made = await t.run('new');
    expect(made.code, made.stderr).toBe(0);
    await waitForStrip(a1, ['bash', 'bash-2'], 'bash');
    expect(nameSources()).toEqual({ bash: 'auto', 'bash-2': 'auto' });
  });

  it("a program's title (OSC 2) names its tab: a slug of it, spinner glyph dropped", async () => {
    t = e2e({ tabsAutoName: true });
    const a1 = t.attach();
    await a1.waitForText(PROMPT_SEEN);
    await waitForStrip(a1, ['bash'], 'bash');
    // `✳ Fix the login bug`, as Claude Code titles a task, typed as octal escapes.
    a1.write("printf '\\033]2;\\342\\234\\263 Fix the login bug\\007'\r");
    await waitForStrip(a1, ['fix-the-login'], 'fix-the-login');
    await waitForListing(t, ['fix-the-login']);
    // A title that is only a spinner keeps the name.
    a1.write("printf '\\033]2;\\342\\240\\202\\007'; echo spun-$((6*7))\r");
    await a1.waitForText('spun-42');
    await waitForStrip(a1, ['fix-the-login'], 'fix-the-login');
  });

  it('a name the user gave stays when the title changes; the registry keeps auto and user apart', async () => {
    t = e2e({ tabsAutoName: true });
    const auto = await t.run('new', '--', ...titled('Other title'));
    expect(auto.code, auto.stderr).toBe(0);
    const mine = await t.run('new', '--name', 'mine', '--', ...titled('Other title'));
    expect(mine.code, mine.stderr).toBe(0);
    // The unnamed one follows its title, so the titles have arrived.
    await waitForListing(t, ['other-title', 'mine']);
    expect(nameSources()).toEqual({ 'other-title': 'auto', mine: 'user' });
    expect((await listing(t)).tabs.find((x) => x.id === mine.stdout.trim())?.name).toBe('mine');
  });

  it('a name given by rename stays when the agent then reports a name over the bridge', async () => {
    t = e2e({ tabsAutoName: true });
    const a1 = t.attach();
    await waitForStrip(a1, ['bash'], 'bash');
    const report = (state: string, name: string) =>
      a1Argv('status', state, '--agent', 'generic', '--name', name).map((a) => `'${a}'`).join(' ');
    // Unnamed, the tab takes the name its agent reports.
    a1.write(`${report('idle', 'First report')}\r`);
    await waitForListing(t, ['first-report']);
    // The user renames it; a later report (seen by its state) leaves the user's name.
    await runPromptCommand(a1, 'name mine');
    await waitForListing(t, ['mine']);
    a1.write(`${report('working', 'Second report')}\r`);
    await waitFor(async () => ((await listing(t)).tabs[0].agent?.state === 'working' ? true : null), { what: 'the second report taken' });
    expect((await listing(t)).tabs.map((x) => x.name)).toEqual(['mine']);
    expect(nameSources()).toEqual({ mine: 'user' });
  });

  it('is off with tabsAutoName false: agent, agent 2', async () => {
    t = e2e({ tabsAutoName: false });
    const made = await t.run('new', '--', ...titled('Other title'));
    expect(made.code, made.stderr).toBe(0);
    await t.run('new');
    await waitForListing(t, ['agent', 'agent 2']);
    // The title arrives and changes nothing.
    await waitFor(async () => (await listing(t)).tabs.every((x) => x.status === 'running'), { what: 'both running' });
    expect(nameSources()).toEqual({ agent: 'default', 'agent 2': 'default' });
  });
});
