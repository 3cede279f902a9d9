// A config change applied to a running server (issue 18 deliverable 4): `a1 tabs host reload`
// reads config.json again; a key the server can take at once (tabsMax) applies without stopping a
// tab or the server, and the answer names each key that applies later, and when.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { e2e, listing, PROMPT_SEEN, serverPids, type E2E } from './harness.js';

let t: E2E;
afterEach(async () => {
  await t?.teardown();
});

const TAB_COMMAND = ['/bin/bash', '--norc', '--noprofile'];

function configFile(): string {
  return path.join(t.home.dir, 'config', 'config.json');
}

/** The harness's own keys stay as they were, so only what a test sets changes. */
function writeConfig(config: object): void {
  fs.writeFileSync(configFile(), JSON.stringify({ tabCommand: TAB_COMMAND, tabsAutoName: false, ...config }, null, 2));
}

async function newTab(name: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return t.run('new', '--name', name);
}

describe('a1 tabs host reload', () => {
  it('applies a raised tabsMax at once: the server and its tabs keep running', async () => {
    t = e2e({ tabsMax: 1 });
    expect((await newTab('one')).code).toBe(0);
    const refused = await newTab('two');
    expect(refused.stderr).toBe('a1: The tab limit of 1 is reached; close a tab to open another.\n');
    const server = serverPids(t);
    const before = await listing(t);

    writeConfig({ tabsMax: 3 });
    const r = await t.run('tabs', 'host', 'reload');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`Reloaded ${configFile()}.\nApplied now: tabsMax.\n`);

    const two = await newTab('two');
    expect(two.code, two.stderr).toBe(0);
    const after = await listing(t);
    expect(after.tabs.map((x) => x.name)).toEqual(['one', 'two']);
    // The same server, and tab one with the same holder: nothing was restarted.
    expect(serverPids(t)).toEqual(server);
    expect(after.server?.pid).toBe(before.server?.pid);
    expect(after.tabs[0].holderPid).toBe(before.tabs[0].holderPid);

    // And lowered again: the next new tab is refused at the new limit, no tab is closed.
    writeConfig({ tabsMax: 2 });
    expect((await t.run('tabs', 'host', 'reload')).stdout).toBe(`Reloaded ${configFile()}.\nApplied now: tabsMax.\n`);
    expect((await newTab('three')).stderr).toBe('a1: The tab limit of 2 is reached; close a tab to open another.\n');
  });

  it('names each changed key that applies later, and when; an unchanged file changes nothing', async () => {
    t = e2e();
    expect((await newTab('one')).code).toBe(0);
    const r0 = await t.run('tabs', 'host', 'reload');
    expect(r0).toEqual({ code: 0, stdout: `Reloaded ${configFile()}: nothing changed.\n`, stderr: '' });

    writeConfig({ scrollbackLines: 500, theme: { viewed: 'red' }, closeGraceMs: 1000 });
    const r = await t.run('tabs', 'host', 'reload');
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')).toEqual([
      `Reloaded ${configFile()}.`,
      'Applied now: closeGraceMs.',
      'scrollbackLines applies to each tab from its next start (`a1 tabs host stop` restarts them all).',
      'theme applies at the next attach (`a1`).',
      '',
    ]);
  });

  it('a file it cannot parse changes nothing: the server keeps what it had, and says where', async () => {
    t = e2e({ tabsMax: 1 });
    expect((await newTab('one')).code).toBe(0);
    fs.writeFileSync(configFile(), '{\n  "tabsMax": 5\n  "theme": {}\n}');
    const r = await t.run('tabs', 'host', 'reload');
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(
      `${configFile()}:3:3: not valid JSON (comma expected)\nThe server keeps its config as it was: ${configFile()} could not be used.\n`,
    );
    // Still 1, not the default 20.
    expect((await newTab('two')).stderr).toContain('The tab limit of 1 is reached');
  });

  it('a bad key takes its default, as at a start, and is named', async () => {
    t = e2e({ tabsMax: 1 });
    expect((await newTab('one')).code).toBe(0);
    fs.writeFileSync(configFile(), `{\n  "tabCommand": ${JSON.stringify(TAB_COMMAND)},\n  "tabsMax": 0,\n  "scrollback": 5,\n  "tabsAutoName": false\n}`);
    const r = await t.run('tabs', 'host', 'reload');
    expect(r.code).toBe(1);
    expect(r.stdout.split('\n')).toEqual([
      `${configFile()}:3:14: "tabsMax" must be an integer from 1 to 100`,
      `${configFile()}:4:3: "scrollback" is not a config key (did you mean "scrollbackLines"?)`,
      `Reloaded ${configFile()}.`,
      'Applied now: tabsMax.',
      '',
    ]);
    expect((await newTab('two')).code).toBe(0);
  });

  it('an attached client is told in its strip what the reload changed and when its own keys apply', async () => {
    t = e2e();
    const a1 = t.attach();
    await a1.waitForText(PROMPT_SEEN);
    writeConfig({ tabsMax: 7, theme: { viewed: 'red' } });
    expect((await t.run('tabs', 'host', 'reload')).code).toBe(0);
    await a1.waitForText('Config reloaded. Applied now: tabsMax. theme applies at the next attach');
  });

  it('with no server running, says so: the next start reads the file', async () => {
    t = e2e();
    expect(await t.run('tabs', 'host', 'reload')).toEqual({ code: 0, stdout: 'No a1 server is running for profile "default".\n', stderr: '' });
  });
});
