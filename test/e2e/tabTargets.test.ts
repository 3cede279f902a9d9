// Tab targets (issue 18): `a1 tabs stop` takes ids, positions and names, several at once, all or
// nothing; `a1 attach TAB` views that tab first.
import { describe, it, expect, afterEach } from 'vitest';
import { e2e, listing, probeViewed, tabNames, waitForListing, waitForStrip, type E2E } from './harness.js';
import { isAlive } from '../helpers/procs.js';
import { waitFor } from '../helpers/wait.js';

let t: E2E;
afterEach(async () => {
  await t?.teardown();
});

/** Four shell tabs named one..four, running, in that order. */
async function fourTabs(): Promise<void> {
  for (const name of ['one', 'build watcher', 'three', 'four']) {
    const r = await t.run('new', '--name', name);
    expect(r.code, r.stderr).toBe(0);
  }
  await waitForListing(t, ['one', 'build watcher', 'three', 'four']);
}

describe('a1 tabs stop TAB…', () => {
  it('a target that names no tab fails naming it, and stops none of the others', async () => {
    t = e2e();
    await fourTabs();
    const before = await listing(t);
    const refused: [args: string[], sentence: string][] = [
      [['1', 'nope'], 'a1: No tab has the id or name "nope". Nothing was done.'],
      [['build watcher', '9'], 'a1: There is no tab 9: positions go from 1 to 4. Nothing was done.'],
      [['Three'], 'a1: No tab has the id or name "Three".'],
    ];
    for (const [args, sentence] of refused) {
      const r = await t.run('tabs', 'stop', ...args);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr.trim()).toBe(sentence);
    }
    const after = await listing(t);
    expect(tabNames(after)).toEqual(['one', 'build watcher', 'three', 'four']);
    for (const tab of before.tabs) expect(isAlive(tab.childPid!)).toBe(true);
  });

  it('stops by name, by position and by id, several at once', async () => {
    t = e2e();
    await fourTabs();
    const before = await listing(t);
    const child = (name: string) => before.tabs.find((x) => x.name === name)!.childPid!;

    const byNameAndPosition = await t.run('tabs', 'stop', 'build watcher', '3');
    expect(byNameAndPosition.code, byNameAndPosition.stderr).toBe(0);
    expect(byNameAndPosition.stdout).toContain('Stopped 2 tabs.');
    expect(tabNames(await listing(t))).toEqual(['one', 'four']);
    await waitFor(() => !isAlive(child('build watcher')) && !isAlive(child('three')), { what: 'the stopped tabs’ children gone' });

    // Positions follow the strip as it is now: 2 is "four".
    const byPositionAndId = await t.run('tabs', 'stop', '2', before.tabs[0].id);
    expect(byPositionAndId.code, byPositionAndId.stderr).toBe(0);
    expect((await listing(t)).tabs).toEqual([]);
  });
});

describe('a1 attach TAB', () => {
  it('views the named tab first: a1 attach 2 shows the second tab, a1 attach NAME that tab', async () => {
    t = e2e();
    await fourTabs();
    const l = await listing(t);
    const a1 = t.attach('attach', '2');
    await waitForStrip(a1, ['one', 'build watcher', 'three', 'four'], 'build watcher');
    await probeViewed(a1, l.tabs[1].id);
    a1.dispose();

    const byName = t.attach('attach', 'four');
    await waitForStrip(byName, ['one', 'build watcher', 'three', 'four'], 'four');
    await probeViewed(byName, l.tabs[3].id);
  });

  it('a target that names no tab fails in one sentence and attaches nothing', async () => {
    t = e2e();
    await fourTabs();
    const r = await t.run('attach', 'nope');
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe('a1: No tab has the id or name "nope".');
  });
});
