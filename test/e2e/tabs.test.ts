// Tabs from the keyboard (SPEC §8): new, next/previous with wrap, jump, move, close with the
// busy confirmation, the tab limit, and keybindings.json overrides and conflicts. Keys are
// written as the outer terminal sends them: Alt+x is ESC x.
import { describe, it, expect, afterEach } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import {
  e2e,
  homeFile,
  KEY,
  listing,
  probeViewed,
  PROMPT_SEEN,
  readStrip,
  tabId,
  tabNames,
  waitForForegroundJob,
  waitForListing,
  waitForStrip,
  type E2E,
} from './harness.js';
import { PtyDriver, a1Argv } from '../helpers/pty.js';
import { isAlive } from '../helpers/procs.js';
import { waitFor } from '../helpers/wait.js';

const alt = (digit: number) => `\x1b${digit}`;

let t: E2E;
/** Clients started in a directory of their own; the harness's attach always uses A1_HOME. */
let extra: PtyDriver[] = [];
afterEach(async () => {
  for (const d of extra) d.dispose();
  extra = [];
  await t?.teardown();
});

function attachIn(cwd: string): PtyDriver {
  const d = new PtyDriver({ argv: a1Argv(), env: t.env, cwd });
  extra.push(d);
  return d;
}

/** Alt+A, then waits until the client views the new tab `name` and its shell answers. */
async function newTab(a1: PtyDriver, all: readonly string[], name: string): Promise<string> {
  a1.write(KEY.newTab);
  await waitForStrip(a1, all, name);
  const id = tabId(await waitForListing(t, all), name);
  await probeViewed(a1, id);
  return id;
}

/** Sends `key` and waits until the client views `name`, proven by the strip and by typing. */
async function press(a1: PtyDriver, key: string, all: readonly string[], name: string, id: string): Promise<void> {
  a1.write(key);
  await waitForStrip(a1, all, name);
  await probeViewed(a1, id);
}

/** Starts `cat -v > file` in the viewed tab and waits until it holds the terminal's foreground:
 * whatever the client forwards from then on lands in the file, made visible by -v. */
async function startCatV(a1: PtyDriver, id: string, file: string): Promise<void> {
  a1.write(`cat -v > ${file}; echo cat-done-$((40+2))\r`);
  await waitForForegroundJob(t, id);
}

/** Ends the line and the `cat -v` started by startCatV; resolves with what it received. */
async function endCatV(a1: PtyDriver, file: string): Promise<string> {
  a1.write('end\r\x04');
  await a1.waitForText('cat-done-42');
  return homeFile(t, file);
}

describe('tabs from the keyboard', () => {
  it("Alt+A opens a tab after the last, in the client's launch cwd, and views it", async () => {
    t = e2e();
    const dirA = fs.realpathSync(fs.mkdtempSync(path.join(t.home.dir, 'a-')));
    const dirB = fs.realpathSync(fs.mkdtempSync(path.join(t.home.dir, 'b-')));
    const a = attachIn(dirA);
    await a.waitForText(PROMPT_SEEN);
    const first = tabId(await waitForListing(t, ['agent']), 'agent');
    await waitForStrip(a, ['agent'], 'agent');
    // The shell moves away: a new tab still starts where the client was launched.
    a.write('cd /\r');
    const second = await newTab(a, ['agent', 'agent 2'], 'agent 2');
    a.write('echo "cwd-$((1+1))-$(pwd -P)"\r');
    await a.waitForText(`cwd-2-${dirA}`);
    // Viewing the first tab, a new tab still goes after the last one.
    await press(a, alt(1), ['agent', 'agent 2'], 'agent', first);
    const third = await newTab(a, ['agent', 'agent 2', 'agent 3'], 'agent 3');
    // Another client launched elsewhere opens its tab in its own cwd; the first client's view stays.
    const b = attachIn(dirB);
    await b.waitForText(PROMPT_SEEN);
    await newTab(b, ['agent', 'agent 2', 'agent 3', 'agent 4'], 'agent 4');
    b.write('echo "cwd-$((2+2))-$(pwd -P)"\r');
    await b.waitForText(`cwd-4-${dirB}`);
    const l = await waitForListing(t, ['agent', 'agent 2', 'agent 3', 'agent 4']);
    expect(l.tabs.map((x) => x.startCwd)).toEqual([dirA, dirA, dirA, dirB]);
    expect(l.tabs.map((x) => x.cwd)).toEqual(['/', dirA, dirA, dirB]);
    expect(l.tabs.slice(0, 3).map((x) => x.id)).toEqual([first, second, third]);
    await waitForStrip(a, ['agent', 'agent 2', 'agent 3', 'agent 4'], 'agent 3');
    await probeViewed(a, third);
  });

  it('with newTabInCurrentDir, Alt+A opens the tab where the viewed tab\'s shell is now', async () => {
    t = e2e({ newTabInCurrentDir: true });
    const launched = fs.realpathSync(fs.mkdtempSync(path.join(t.home.dir, 'launch-')));
    const moved = fs.realpathSync(fs.mkdtempSync(path.join(t.home.dir, 'moved-')));
    const a = attachIn(launched);
    await a.waitForText(PROMPT_SEEN);
    await waitForStrip(a, ['agent'], 'agent');
    a.write(`cd '${moved}' && echo "moved-$((1+1))"\r`);
    await a.waitForText('moved-2');
    await newTab(a, ['agent', 'agent 2'], 'agent 2');
    a.write('echo "cwd-$((1+1))-$(pwd -P)"\r');
    await a.waitForText(`cwd-2-${moved}`);
    const l = await waitForListing(t, ['agent', 'agent 2']);
    expect(l.tabs.map((x) => x.startCwd)).toEqual([launched, moved]);
  });

  it('Alt+. and Alt+, view the next and previous tab, wrapping around both ways', async () => {
    t = e2e();
    const a1 = t.attach();
    await a1.waitForText(PROMPT_SEEN);
    const all = ['agent', 'agent 2', 'agent 3'];
    const first = tabId(await waitForListing(t, ['agent']), 'agent');
    const second = await newTab(a1, all.slice(0, 2), 'agent 2');
    const third = await newTab(a1, all, 'agent 3');
    await press(a1, KEY.nextTab, all, 'agent', first); // wraps from the last to the first
    await press(a1, KEY.nextTab, all, 'agent 2', second);
    await press(a1, KEY.prevTab, all, 'agent', first);
    await press(a1, KEY.prevTab, all, 'agent 3', third); // wraps from the first to the last
    await press(a1, KEY.prevTab, all, 'agent 2', second);
    await press(a1, KEY.nextTab, all, 'agent 3', third);
  });

  it('Alt+1…Alt+9 and Alt+0 jump; beyond the tab count nothing happens and the key is not forwarded', async () => {
    t = e2e();
    const a1 = t.attach();
    await a1.waitForText(PROMPT_SEEN);
    const all = ['agent', 'agent 2', 'agent 3'];
    const first = tabId(await waitForListing(t, ['agent']), 'agent');
    const second = await newTab(a1, all.slice(0, 2), 'agent 2');
    const third = await newTab(a1, all, 'agent 3');
    await press(a1, alt(1), all, 'agent', first);
    await press(a1, alt(3), all, 'agent 3', third);
    await press(a1, alt(2), all, 'agent 2', second);
    // Three tabs: Alt+4, Alt+9 and Alt+0 point past the end.
    await startCatV(a1, second, 'jump.txt');
    a1.write(alt(4));
    a1.write(alt(9));
    a1.write(alt(0));
    expect(await endCatV(a1, 'jump.txt')).toBe('end\n');
    await waitForStrip(a1, all, 'agent 2');
    await probeViewed(a1, second);
    expect(tabNames(await listing(t))).toEqual(all);
  });

  it('Alt+0 views the tenth tab', async () => {
    t = e2e();
    const a1 = t.attach();
    await a1.waitForText(PROMPT_SEEN);
    const all = ['agent', ...Array.from({ length: 9 }, (_, i) => `agent ${i + 2}`)];
    for (let n = 2; n <= 10; n++) {
      a1.write(KEY.newTab);
      await waitForStrip(a1, all.slice(0, n), all[n - 1]);
    }
    const l = await waitForListing(t, all);
    await press(a1, alt(1), all, 'agent', l.tabs[0].id);
    await press(a1, alt(0), all, 'agent 10', l.tabs[9].id);
    await press(a1, alt(9), all, 'agent 9', l.tabs[8].id);
  });

  it('Alt+> and Alt+< move the viewed tab; the strip and a1 tabs --json agree on the order', async () => {
    t = e2e();
    const a1 = t.attach();
    await a1.waitForText(PROMPT_SEEN);
    const first = tabId(await waitForListing(t, ['agent']), 'agent');
    await newTab(a1, ['agent', 'agent 2'], 'agent 2');
    await newTab(a1, ['agent', 'agent 2', 'agent 3'], 'agent 3');
    await press(a1, alt(1), ['agent', 'agent 2', 'agent 3'], 'agent', first);
    const move = async (key: string, order: string[]) => {
      a1.write(key);
      await waitForStrip(a1, order, 'agent');
      expect(tabNames(await listing(t))).toEqual(order);
    };
    await move(KEY.moveTabRight, ['agent 2', 'agent', 'agent 3']);
    await move(KEY.moveTabRight, ['agent 2', 'agent 3', 'agent']);
    // At the right end Alt+> does nothing (no wrap): the next Alt+< moves from the end.
    a1.write(KEY.moveTabRight);
    await move(KEY.moveTabLeft, ['agent 2', 'agent', 'agent 3']);
    await move(KEY.moveTabLeft, ['agent', 'agent 2', 'agent 3']);
    // At the left end Alt+< does nothing.
    a1.write(KEY.moveTabLeft);
    await move(KEY.moveTabRight, ['agent 2', 'agent', 'agent 3']);
    // The moved tab is still the one viewed and typed into.
    await probeViewed(a1, first);
  });

  it('Alt+> pressed twice in a row moves the tab twice', async () => {
    t = e2e();
    const a1 = t.attach();
    await a1.waitForText(PROMPT_SEEN);
    const first = tabId(await waitForListing(t, ['agent']), 'agent');
    await newTab(a1, ['agent', 'agent 2'], 'agent 2');
    await newTab(a1, ['agent', 'agent 2', 'agent 3'], 'agent 3');
    await press(a1, alt(1), ['agent', 'agent 2', 'agent 3'], 'agent', first);
    // One read of the outer terminal carries both presses, as with a quick double press or
    // key repeat: each is a move from where the previous one left the tab.
    a1.write(KEY.moveTabRight + KEY.moveTabRight);
    const want = ['agent 2', 'agent 3', 'agent'];
    // Settled: both moves shown, or the client reported that one of them was refused.
    const seen = await waitFor(async () => {
      const strip = await readStrip(a1);
      const screen = a1.screenText().join('\n');
      return JSON.stringify(strip.names) === JSON.stringify(want) || /changed meanwhile/i.test(screen) ? { strip, screen } : null;
    }, { what: 'both moves shown, or one refused' });
    expect(seen.screen).not.toMatch(/changed meanwhile/i);
    expect(seen.strip.names).toEqual(want);
    expect(seen.strip.viewed).toBe('agent');
    expect(tabNames(await listing(t))).toEqual(want);
  });

  it('Alt+W closes an idle tab at once; a busy one asks first, Esc cancels and Enter stops it', async () => {
    t = e2e();
    const a1 = t.attach();
    await a1.waitForText(PROMPT_SEEN);
    const first = tabId(await waitForListing(t, ['agent']), 'agent');
    const second = await newTab(a1, ['agent', 'agent 2'], 'agent 2');
    const third = await newTab(a1, ['agent', 'agent 2', 'agent 3'], 'agent 3');
    const idle = (await listing(t)).tabs.find((x) => x.id === third)!;

    // Idle (the shell holds the foreground): closed with no question.
    const mark = a1.mark();
    a1.write(KEY.closeTab);
    await waitForStrip(a1, ['agent', 'agent 2']);
    expect(a1.rawOutput(mark)).not.toContain('Stop "');
    expect(tabNames(await waitForListing(t, ['agent', 'agent 2']))).toEqual(['agent', 'agent 2']);
    await waitFor(() => !isAlive(idle.holderPid!) && !isAlive(idle.childPid!), { what: 'the idle tab’s holder and shell ended' });

    // Busy: a foreground job runs in the tab's terminal.
    const viewedNow = (await readStrip(a1)).viewed!;
    const busyId = viewedNow === 'agent' ? first : second;
    a1.write(`sleep 1000\r`);
    const job = await waitForForegroundJob(t, busyId);
    a1.write(KEY.closeTab);
    await a1.waitForText(`Stop "${viewedNow}"? Enter stop · Esc cancel`);
    a1.write('\x1b');
    await a1.waitForScreen((lines) => !lines.join('\n').includes('Stop "'), undefined, 'the question gone after Esc');
    await waitForStrip(a1, ['agent', 'agent 2'], viewedNow);
    expect(tabNames(await listing(t))).toEqual(['agent', 'agent 2']);
    expect(isAlive(job)).toBe(true);

    a1.write(KEY.closeTab);
    await a1.waitForText(`Stop "${viewedNow}"? Enter stop · Esc cancel`);
    a1.write('\r');
    const left = viewedNow === 'agent' ? 'agent 2' : 'agent';
    await waitForStrip(a1, [left], left);
    await waitForListing(t, [left]);
    await waitFor(() => !isAlive(job), { what: 'the stopped tab’s sleep ended' });
    await probeViewed(a1, busyId === first ? second : first);
  });

  it('closing the last tab leaves the strip with + and a hint, and the client keeps running', async () => {
    t = e2e();
    const a1 = t.attach();
    await a1.waitForText(PROMPT_SEEN);
    await waitForListing(t, ['agent']);
    let exited = false;
    void a1.exited.then(() => (exited = true));
    a1.write(KEY.closeTab);
    const strip = await waitFor(async () => {
      const s = await readStrip(a1);
      return s.names.length === 0 && /\+/.test(s.text) && /Alt\+A/i.test(s.text) ? s : null;
    }, { what: 'an empty strip with + and a hint' });
    expect(strip.text.trim().startsWith('+')).toBe(true);
    expect((await listing(t)).tabs).toEqual([]);
    expect(exited).toBe(false);
    // Still attached: Alt+A opens a working tab.
    a1.write(KEY.newTab);
    await waitForStrip(a1, ['agent'], 'agent');
    await probeViewed(a1, tabId(await waitForListing(t, ['agent']), 'agent'));
    expect(exited).toBe(false);
  });

  it('tabsMax: Alt+A at the limit states the limit and creates nothing', async () => {
    t = e2e({ tabsMax: 2 });
    const a1 = t.attach();
    await a1.waitForText(PROMPT_SEEN);
    await waitForListing(t, ['agent']);
    await newTab(a1, ['agent', 'agent 2'], 'agent 2');
    a1.write(KEY.newTab);
    await a1.waitForText(/tab limit of 2/i);
    expect(tabNames(await listing(t))).toEqual(['agent', 'agent 2']);
    await waitForStrip(a1, ['agent', 'agent 2'], 'agent 2');
  });
});

describe('a1 tabs', () => {
  it("shows where each tab's shell is now, or its foreground job, as tmux's pane_current_path; startCwd where it started", async () => {
    t = e2e();
    const started = fs.realpathSync(t.home.dir);
    const here = fs.realpathSync(fs.mkdtempSync(path.join(t.home.dir, 'here-')));
    const there = fs.realpathSync(fs.mkdtempSync(path.join(t.home.dir, 'there-')));
    const id = (await t.run('new', '--name', 'sh')).stdout.trim();
    const at = (cwd: string) =>
      waitFor(async () => {
        const tab = (await listing(t)).tabs.find((x) => x.id === id);
        return tab?.cwd === cwd ? tab : null;
      }, { what: `tab sh listed in ${cwd}` });
    await at(started);

    const send = async (...words: string[]) => expect((await t.run('send', 'sh', ...words)).code).toBe(0);
    await send(`cd '${here}'`, 'Enter');
    expect(await at(here)).toMatchObject({ startCwd: started });
    expect((await t.run('tabs')).stdout).toContain(here);
    // A job in the foreground of the tab's terminal, in a directory of its own.
    await send(`(cd '${there}' && exec sleep 300)`, 'Enter');
    await waitForForegroundJob(t, id);
    await at(there);
    await send('C-c');
    await at(here);
  });
});

describe('keybindings.json', () => {
  function writeBindings(bindings: object): void {
    fs.writeFileSync(path.join(t.home.dir, 'config', 'keybindings.json'), JSON.stringify(bindings), { mode: 0o600 });
  }

  it('an override replaces the default: Alt+N opens a tab and Alt+A goes to the tab', async () => {
    t = e2e();
    writeBindings({ newTab: 'alt+n' });
    const a1 = t.attach();
    await a1.waitForText(PROMPT_SEEN);
    const first = tabId(await waitForListing(t, ['agent']), 'agent');
    await startCatV(a1, first, 'alt-a.txt');
    a1.write(KEY.newTab);
    expect(await endCatV(a1, 'alt-a.txt')).toBe('^[aend\n');
    expect(tabNames(await listing(t))).toEqual(['agent']);
    a1.write('\x1bn');
    await waitForStrip(a1, ['agent', 'agent 2'], 'agent 2');
    await probeViewed(a1, tabId(await waitForListing(t, ['agent', 'agent 2']), 'agent 2'));
  });

  it('a file with a trailing comma and a misspelt entry still applies its valid binding, with one notice', async () => {
    t = e2e();
    const file = path.join(t.home.dir, 'config', 'keybindings.json');
    fs.writeFileSync(file, ['{', '  // as in zellij', '  "newTab": "alt+n",', '  "prefx": "ctrl+b",', '}'].join('\n'), { mode: 0o600 });
    const a1 = t.attach();
    await a1.waitForText(PROMPT_SEEN);
    const screen = await a1.waitForText(`${file}:4:3: "prefx" is not an action`);
    expect(screen.join(' ')).toMatch(/did you mean "prefix"\?\); using the default for\s+it\./);
    expect(screen.filter((l) => l.includes('keybindings.json'))).toHaveLength(1);
    const first = tabId(await waitForListing(t, ['agent']), 'agent');
    // The valid entry applies: Alt+A reaches the tab, Alt+N opens one.
    await startCatV(a1, first, 'alt-a.txt');
    a1.write(KEY.newTab);
    expect(await endCatV(a1, 'alt-a.txt')).toBe('^[aend\n');
    a1.write('\x1bn');
    await waitForStrip(a1, ['agent', 'agent 2'], 'agent 2');
    expect(tabNames(await waitForListing(t, ['agent', 'agent 2']))).toEqual(['agent', 'agent 2']);
  });

  it('a conflict is reported in one notice at launch, placed in the file, and the defaults apply', async () => {
    t = e2e();
    // alt+w is closeTab's default key: binding newTab to it too is ambiguous.
    writeBindings({ newTab: 'alt+w' });
    const a1 = t.attach();
    await a1.waitForText(PROMPT_SEEN);
    const screen = await a1.waitForText(/keybindings\.json:1:11: key alt\+w is bound to both newTab and closeTab/);
    expect(screen.filter((l) => l.includes('keybindings.json'))).toHaveLength(1);
    expect(screen.join(' ')).toMatch(/closeTab; using the\s+default\s+keys\./);
    await waitForListing(t, ['agent']);
    // Defaults: Alt+A opens a tab, Alt+W closes one.
    await newTab(a1, ['agent', 'agent 2'], 'agent 2');
    a1.write(KEY.closeTab);
    await waitForStrip(a1, ['agent'], 'agent');
    await waitForListing(t, ['agent']);
  });
});
