// The keyboard overlays (SPEC §8): F2's inline rename with its validation, the Alt+J /tabs
// picker, and the Alt+; command prompt with each of its commands. Keys are written as the outer
// terminal sends them: Alt+x is ESC x, F2 is SS3 Q.
import { describe, it, expect, afterEach } from 'vitest';
import {
  e2e,
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
import type { PtyDriver } from '../helpers/pty.js';
import { isAlive } from '../helpers/procs.js';
import { waitFor } from '../helpers/wait.js';
import { escapeRegExp } from '../helpers/regex.js';

const F2 = '\x1bOQ';
const ESC = '\x1b';
const CTRL_U = '\x15';

let t: E2E;
afterEach(async () => {
  await t?.teardown();
});

/** Starts a1 with `names` open (the rest made with /new-tab <name>); returns their ids in order. */
async function withTabs(a1: PtyDriver, names: readonly string[]): Promise<string[]> {
  await a1.waitForText(PROMPT_SEEN);
  await waitForListing(t, ['agent']);
  for (let n = 1; n < names.length; n++) {
    await command(a1, `new-tab ${names[n]}`);
    await waitFor(async () => (await readStrip(a1)).viewed === names[n], { what: `${names[n]} viewed` });
  }
  const l = await waitForListing(t, names);
  return names.map((name) => tabId(l, name));
}

/** The picker key, then waits until the picker is open (its filter line shows the hint). */
async function openPicker(a1: PtyDriver): Promise<void> {
  a1.write(KEY.tabsPicker);
  await waitForBelow(a1, /type to filter · Enter views · Esc closes/, 'the picker');
}

/** Every row below the strip: where overlays and notices are drawn. */
async function below(a1: PtyDriver): Promise<string[]> {
  await a1.flush();
  return a1.screenText().slice(1);
}

function waitForBelow(a1: PtyDriver, re: RegExp, what: string): Promise<string[]> {
  return a1.waitForScreen((lines) => lines.slice(1).some((l) => re.test(l)), undefined, what);
}

function waitForAllBelow(a1: PtyDriver, res: RegExp[], what: string): Promise<string[]> {
  return a1.waitForScreen((lines) => res.every((re) => lines.slice(1).some((l) => re.test(l))), undefined, what);
}

function waitForGone(a1: PtyDriver, re: RegExp, what: string): Promise<string[]> {
  return a1.waitForScreen((lines) => !lines.slice(1).some((l) => re.test(l)), undefined, what);
}


/** The prompt's input row holding `line` (the box's left side, a blank, then the line). */
function promptRow(line: string): RegExp {
  return new RegExp(`│ ${escapeRegExp(line)}(?: |│|$)`);
}

/** The prompt key, then waits until the prompt is open, empty. */
async function openPrompt(a1: PtyDriver): Promise<void> {
  a1.write(KEY.commandPrompt);
  await waitForBelow(a1, promptRow(''), 'the prompt open and empty');
}

/** Opens the prompt, types `/` and `text`, waits until the prompt shows it, then Enter. */
async function command(a1: PtyDriver, text: string): Promise<void> {
  await openPrompt(a1);
  a1.write(`/${text}`);
  await waitForBelow(a1, promptRow(`/${text}`), `the prompt showing /${text}`);
  a1.write('\r');
  await waitForGone(a1, promptRow(`/${text}`), `the prompt closed after /${text}`);
}

/** The inline rename editor is drawn inverse on the strip; nothing else there is. */
async function editorShown(a1: PtyDriver): Promise<boolean> {
  await a1.flush();
  for (let x = 0; x < 120; x++) if (a1.cell(x, 0).inverse) return true;
  return false;
}

/** F2, then waits until the editor is open on the strip. */
async function openEditor(a1: PtyDriver): Promise<void> {
  a1.write(F2);
  await waitFor(() => editorShown(a1), { what: 'the rename editor on the strip' });
}

/** A picker row: the viewed mark, a glyph column, the name, then the status word and the cwd. */
function pickerRow(name: string, status: string, cwd: string, glyph = ' '): RegExp {
  return new RegExp(`[• ] ${escapeRegExp(glyph)} ${escapeRegExp(name)} +${escapeRegExp(status)} +${escapeRegExp(cwd)}`);
}

describe('F2 inline rename', () => {
  it('Enter commits a trimmed name; the listing and the strip show it', async () => {
    t = e2e();
    const a1 = t.attach();
    const [first, second] = await withTabs(a1, ['agent', 'beta']);
    await openEditor(a1);
    a1.write(`${CTRL_U}  my tab  `);
    await waitFor(async () => (await readStrip(a1)).text.includes('  my tab  '), { what: 'the typed name in the strip editor' });
    expect(tabNames(await listing(t))).toEqual(['agent', 'beta']);
    a1.write('\r');
    await waitForStrip(a1, ['agent', 'my tab'], 'my tab');
    const l = await waitForListing(t, ['agent', 'my tab']);
    expect(tabId(l, 'my tab')).toBe(second);
    expect(tabId(l, 'agent')).toBe(first);
    // The editor is gone: keys reach the tab again.
    await probeViewed(a1, second);
  });

  it('only spaces keeps the editor open with the reason; Esc cancels and the old name stays', async () => {
    t = e2e();
    const a1 = t.attach();
    const [first] = await withTabs(a1, ['agent']);
    await openEditor(a1);
    a1.write(`${CTRL_U}   \r`);
    await waitForBelow(a1, /A name cannot be empty\./, 'the reason the name was refused');
    // Still open: what is typed next lands in the editor on the strip, not in the shell.
    a1.write('still-$((1+1))');
    await waitFor(async () => (await readStrip(a1)).text.includes('still-$((1+1))'), { what: 'the editor still taking keys' });
    expect(tabNames(await listing(t))).toEqual(['agent']);
    a1.write(ESC);
    await waitForStrip(a1, ['agent'], 'agent');
    expect(tabNames(await listing(t))).toEqual(['agent']);
    await probeViewed(a1, first);
  });

  it('a name over 64 characters is refused with the reason; the editor stays open', async () => {
    t = e2e();
    const a1 = t.attach();
    await withTabs(a1, ['agent']);
    await openEditor(a1);
    a1.write(`${CTRL_U}${'n'.repeat(65)}\r`);
    await waitForBelow(a1, /at most 64 characters/, 'the reason a long name was refused');
    expect(tabNames(await listing(t))).toEqual(['agent']);
    // Backspace brings it to 64: now Enter commits.
    a1.write('\x7f\r');
    const l = await waitForListing(t, ['n'.repeat(64)]);
    expect(l.tabs[0].name).toHaveLength(64);
  });
});

describe('the /tabs picker', () => {
  it('Alt+J lists every tab with name, status word and cwd; typing filters and Enter views', async () => {
    t = e2e();
    const a1 = t.attach();
    const ids = await withTabs(a1, ['agent', 'alpha', 'beta']);
    const l = await listing(t);
    await openPicker(a1);
    for (const tab of l.tabs) await waitForBelow(a1, pickerRow(tab.name, tab.status, tab.cwd), `the picker row of ${tab.name}`);
    // The viewed tab is marked.
    expect((await below(a1)).some((row) => pickerRow('beta', 'running', l.tabs[2].cwd).test(row) && row.includes('• '))).toBe(true);
    a1.write('alp');
    // One screen where beta and agent are filtered out and alpha stays (a frame can arrive in pieces).
    await a1.waitForScreen(
      (lines) => {
        const rows = lines.slice(1);
        const has = (re: RegExp): boolean => rows.some((row) => re.test(row));
        return (
          has(pickerRow('alpha', 'running', l.tabs[1].cwd)) &&
          !has(pickerRow('beta', 'running', l.tabs[2].cwd)) &&
          !has(pickerRow('agent', 'running', l.tabs[0].cwd))
        );
      },
      undefined,
      'beta and agent filtered out, alpha kept',
    );
    a1.write('\r');
    await waitForStrip(a1, ['agent', 'alpha', 'beta'], 'alpha');
    await waitForGone(a1, pickerRow('alpha', 'running', l.tabs[1].cwd), 'the picker closed');
    await probeViewed(a1, ids[1]);
  });

  it('arrows move the selection, Esc closes the picker and views nothing new', async () => {
    t = e2e();
    const a1 = t.attach();
    const ids = await withTabs(a1, ['agent', 'alpha', 'beta']);
    const cwd = (await listing(t)).tabs[0].cwd;
    await openPicker(a1);
    await waitForBelow(a1, pickerRow('agent', 'running', cwd), 'the picker');
    a1.write(ESC);
    await waitForGone(a1, pickerRow('agent', 'running', cwd), 'the picker closed by Esc');
    await waitForStrip(a1, ['agent', 'alpha', 'beta'], 'beta');
    await probeViewed(a1, ids[2]);
    // The selection starts on the viewed tab: Up twice reaches the first.
    await openPicker(a1);
    await waitForBelow(a1, pickerRow('agent', 'running', cwd), 'the picker again');
    a1.write('\x1b[A\x1b[A\r');
    await waitForStrip(a1, ['agent', 'alpha', 'beta'], 'agent');
    await probeViewed(a1, ids[0]);
  });

  it('a tab whose chip shows a glyph shows the same glyph in the picker', async () => {
    t = e2e();
    const a1 = t.attach();
    await withTabs(a1, ['agent']);
    // beta is an agent tab (its program a shell): only an agent's exit is a crash (issue 28).
    const made = await t.run('new', '--agent', 'generic', '--name', 'beta');
    expect(made.code, made.stderr).toBe(0);
    a1.write(KEY.nextTab);
    await waitFor(async () => (await readStrip(a1)).viewed === 'beta', { what: 'beta viewed' });
    await a1.waitForText(PROMPT_SEEN);
    // Its program crashes three times: the tab fails, and the chip shows the error glyph. Each
    // crash is of a running child: the listing, read in process, can still say starting.
    await waitFor(async () => (await listing(t)).tabs.find((x) => x.name === 'beta' && x.status === 'running' && x.childPid !== null), { what: 'beta running' });
    for (let i = 0; i < 3; i++) {
      const before = (await listing(t)).tabs.find((x) => x.name === 'beta')!;
      a1.write('exit 3\r');
      if (i < 2) {
        await waitFor(
          async () => {
            const now = (await listing(t)).tabs.find((x) => x.name === 'beta')!;
            return now.status === 'running' && now.childPid !== before.childPid;
          },
          { what: `beta restarted after crash ${i + 1}` },
        );
      }
    }
    // The third crash fails the tab; its chip may show ✗ already while the crash is told, so the
    // listing is read once it says failed.
    const tab = await waitFor(async () => (await listing(t)).tabs.find((x) => x.name === 'beta' && x.status === 'failed'), { what: 'beta failed' });
    await waitFor(async () => (await readStrip(a1)).text.includes('✗ beta'), { what: 'the error glyph on beta’s chip' });
    await openPicker(a1);
    await waitForBelow(a1, pickerRow('agent', 'running', tab.cwd), 'the picker');
    const rows = await below(a1);
    const row = rows.find((r) => new RegExp(`[• ] . beta +`).test(r));
    expect(row, rows.join('\n')).toBeDefined();
    expect(row).toMatch(pickerRow('beta', tab.status, tab.cwd, '✗'));
  });
});

describe('the command prompt', () => {
  it('an unknown command gets an error and the prompt stays', async () => {
    t = e2e();
    const a1 = t.attach();
    const [first] = await withTabs(a1, ['agent']);
    await openPrompt(a1);
    a1.write('/frobnicate\r');
    const rows = await waitForAllBelow(a1, [/Unknown command \/frobnicate/, promptRow('/frobnicate')], 'the unknown-command error under the prompt');
    expect(rows.slice(1).filter((r) => /frobnicate/.test(r) && /Unknown/.test(r))).toHaveLength(1);
    // Editing clears the error; Esc closes the prompt and nothing ran.
    a1.write(ESC);
    await waitForGone(a1, promptRow('/frobnicate'), 'the prompt closed by Esc');
    expect(tabNames(await listing(t))).toEqual(['agent']);
    await probeViewed(a1, first);
  });

  it('/new-tab [name] opens a tab after the last and views it', async () => {
    t = e2e();
    const a1 = t.attach();
    await withTabs(a1, ['agent']);
    await command(a1, 'new-tab  work ');
    await waitForStrip(a1, ['agent', 'work'], 'work');
    await command(a1, 'new-tab');
    await waitForStrip(a1, ['agent', 'work', 'agent 2'], 'agent 2');
    const l = await waitForListing(t, ['agent', 'work', 'agent 2']);
    await probeViewed(a1, tabId(l, 'agent 2'));
  });

  it('/name <name> renames the viewed tab; without a name it says what is missing', async () => {
    t = e2e();
    const a1 = t.attach();
    const [first, second] = await withTabs(a1, ['agent', 'beta']);
    await command(a1, 'name api fix');
    await waitForStrip(a1, ['agent', 'api fix'], 'api fix');
    const l = await waitForListing(t, ['agent', 'api fix']);
    expect(tabId(l, 'api fix')).toBe(second);
    expect(tabId(l, 'agent')).toBe(first);
    await openPrompt(a1);
    a1.write('/name\r');
    await waitForBelow(a1, /\/name needs a name/, 'the missing-name error');
    a1.write(ESC);
    await waitForGone(a1, promptRow('/name'), 'the prompt closed');
    expect(tabNames(await listing(t))).toEqual(['agent', 'api fix']);
    await probeViewed(a1, second);
  });

  it('/close closes the viewed idle tab at once and asks first for a busy one', async () => {
    t = e2e();
    const a1 = t.attach();
    const [first, second] = await withTabs(a1, ['agent', 'beta', 'gamma']);
    await command(a1, 'close');
    await waitForStrip(a1, ['agent', 'beta']);
    await waitForListing(t, ['agent', 'beta']);
    const viewed = (await readStrip(a1)).viewed!;
    const busyId = viewed === 'agent' ? first : second;
    a1.write('sleep 1000\r');
    const job = await waitForForegroundJob(t, busyId);
    await command(a1, 'close');
    await waitForBelow(a1, new RegExp(`Stop "${viewed}"\\? Enter stop · Esc cancel`), 'the busy question');
    a1.write('\r');
    const left = viewed === 'agent' ? 'beta' : 'agent';
    await waitForStrip(a1, [left], left);
    await waitFor(() => !isAlive(job), { what: 'the busy tab’s sleep ended' });
  });

  it('/tabs opens the picker', async () => {
    t = e2e();
    const a1 = t.attach();
    await withTabs(a1, ['agent', 'beta']);
    const cwd = (await listing(t)).tabs[0].cwd;
    await command(a1, 'tabs');
    await waitForBelow(a1, pickerRow('agent', 'running', cwd), 'the picker opened by /tabs');
    a1.write('agent\r');
    await waitForStrip(a1, ['agent', 'beta'], 'agent');
  });

  it('/hotkeys lists the effective bindings; Esc closes it', async () => {
    t = e2e();
    const a1 = t.attach();
    const [first] = await withTabs(a1, ['agent']);
    await command(a1, 'hotkeys');
    // A frame can reach the terminal in more than one read: wait until every row asked for is painted.
    await waitForAllBelow(
      a1,
      [/Alt\+A +Open a new tab/, /F2 +Rename the viewed tab/, /Alt\+J +Open the tabs picker · tabsPicker/],
      'Alt+A, F2 and Alt+J listed with their actions',
    );
    // Copy mode's keys and the prompt's commands follow, further down.
    a1.write('\x1b[F');
    await waitForAllBelow(
      a1,
      [/\/detach +Detach this client; nothing reaches the tab/, /Commands \(Alt\+; opens the prompt\)/, /q \/ Esc +Back to live/],
      'the copy-mode keys and the commands at the end',
    );
    a1.write(ESC);
    await waitForGone(a1, /\/detach +Detach this client/, 'the list closed by Esc');
    await probeViewed(a1, first);
  });

  it('/quit detaches this client; every tab keeps running', async () => {
    t = e2e();
    const a1 = t.attach();
    await withTabs(a1, ['agent', 'beta']);
    const before = await listing(t);
    await command(a1, 'quit');
    const exit = await a1.exited;
    expect(exit.exitCode).toBe(0);
    expect(a1.rawOutput()).toContain('2 tabs still running');
    const after = await waitForListing(t, ['agent', 'beta']);
    expect(after.tabs.map((x) => x.holderPid)).toEqual(before.tabs.map((x) => x.holderPid));
    for (const tab of after.tabs) expect(isAlive(tab.childPid!)).toBe(true);
  });

  it('/quit-all with nothing busy stops every tab and detaches without asking', async () => {
    t = e2e();
    const a1 = t.attach();
    await withTabs(a1, ['agent', 'beta']);
    const before = await listing(t);
    const mark = a1.mark();
    await command(a1, 'quit-all');
    expect((await a1.exited).exitCode).toBe(0);
    expect(a1.rawOutput(mark)).not.toContain('Stop all');
    await waitFor(async () => (await listing(t)).tabs.length === 0, { what: 'no tab listed' });
    for (const tab of before.tabs) {
      await waitFor(() => !isAlive(tab.holderPid!) && !isAlive(tab.childPid!), { what: `${tab.name} stopped` });
    }
  });

  it('/quit-all with a busy tab asks first: Esc keeps everything, Enter stops every tab and detaches', async () => {
    t = e2e();
    const a1 = t.attach();
    const [, second] = await withTabs(a1, ['agent', 'beta']);
    a1.write('sleep 1000\r');
    const job = await waitForForegroundJob(t, second);
    const before = await listing(t);
    let exited = false;
    void a1.exited.then(() => (exited = true));
    await command(a1, 'quit-all');
    await waitForBelow(a1, /Stop all 2 tabs and detach\? Enter stop · Esc cancel/, 'the quit-all question');
    a1.write(ESC);
    await waitForGone(a1, /Stop all 2 tabs/, 'the question gone after Esc');
    expect(tabNames(await listing(t))).toEqual(['agent', 'beta']);
    expect(isAlive(job)).toBe(true);
    expect(exited).toBe(false);
    await command(a1, 'quit-all');
    await waitForBelow(a1, /Stop all 2 tabs and detach\? Enter stop · Esc cancel/, 'the quit-all question again');
    a1.write('\r');
    expect((await a1.exited).exitCode).toBe(0);
    await waitFor(async () => (await listing(t)).tabs.length === 0, { what: 'no tab listed' });
    await waitFor(() => !isAlive(job), { what: 'the busy tab’s sleep ended' });
    for (const tab of before.tabs) {
      await waitFor(() => !isAlive(tab.holderPid!) && !isAlive(tab.childPid!), { what: `${tab.name} stopped` });
    }
  });
});

describe('keys typed right behind the shortcut that opens an overlay', () => {
  // A quick typist, a paste or a terminal that batches input: the shortcut and what follows it
  // arrive in one read. What follows belongs to the overlay the shortcut opened, never to the tab.

  /** Waits until `done` holds for the listed names and the screen; a timeout shows the screen. */
  async function settled(a1: PtyDriver, done: (names: string[], screen: string) => boolean): Promise<{ names: string[]; screen: string }> {
    let last = { names: [] as string[], screen: '' };
    try {
      return await waitFor(async () => {
        await a1.flush();
        last = { names: tabNames(await listing(t)), screen: a1.screenText().join('\n') };
        return done(last.names, last.screen) ? last : null;
      }, { what: 'the keys handled by the overlay, or the shell answering them' });
    } catch (error) {
      throw new Error(`${(error as Error).message}; tabs ${JSON.stringify(last.names)}, screen:\n${last.screen}`);
    }
  }
  it('Alt+; and a command in one read run the command; the shell receives none of it', async () => {
    t = e2e();
    const a1 = t.attach();
    await withTabs(a1, ['agent']);
    a1.write(`${KEY.commandPrompt}new-tab ahead\r`);
    // Either the command ran, or the shell got the keys and echoed them (the prompt box may
    // cover its answer).
    const seen = await settled(a1, (names, screen) => names.includes('ahead') || /^a1\$ new-tab ahead/m.test(screen));
    expect(seen.screen).not.toMatch(/^a1\$ new-tab/m);
    expect(seen.names).toEqual(['agent', 'ahead']);
  });

  it('F2 and a name in one read go to the editor; the shell receives none of it', async () => {
    t = e2e();
    const a1 = t.attach();
    await withTabs(a1, ['agent']);
    a1.write(`${F2}${CTRL_U}ahead\r`);
    const seen = await settled(a1, (names, screen) => names.includes('ahead') || /^a1\$ ahead/m.test(screen));
    expect(seen.screen).not.toMatch(/^a1\$ ahead/m);
    expect(seen.names).toEqual(['ahead']);
  });
});
