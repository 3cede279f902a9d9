// The command prompt as a tmux user meets it (issue 18): it opens empty and takes `/tabs` or
// `tabs`; Tab completes a command's name; a unique prefix runs its command and an ambiguous one
// lists the candidates; a long error wraps instead of being cut off, at 40 columns too; /help
// (and /?) lists every command and the keys.
import { describe, it, expect, afterEach } from 'vitest';
import { e2e, KEY, PROMPT_SEEN, waitForListing, type E2E } from './harness.js';
import { PtyDriver, a1Argv } from '../helpers/pty.js';
import { COMMANDS, commandUsage } from '../../src/app/overlays/commands.js';
import { escapeRegExp } from '../helpers/regex.js';

const ESC = '\x1b';
const END = '\x1b[F';
const PICKER = /type to filter · Enter views · Esc closes/;
const HOTKEYS = /Keys and commands · ↑↓ scroll · Esc closes/;

let t: E2E;
let extra: PtyDriver[] = [];
afterEach(async () => {
  for (const d of extra) d.dispose();
  extra = [];
  await t?.teardown();
});


/** The prompt's input row holding exactly `line` (the box's side, a blank, the line, blanks, the side). */
function promptRow(line: string): RegExp {
  return new RegExp(`│ ${escapeRegExp(line)} *│`);
}

/** What the overlay box's rows hold, inside its sides, below the strip. */
function boxContents(lines: string[]): string[] {
  return lines.slice(1).flatMap((l) => {
    const m = /│ (.*?) *│/.exec(l);
    return m ? [m[1]] : [];
  });
}

function waitForBelow(a1: PtyDriver, re: RegExp, what: string): Promise<string[]> {
  return a1.waitForScreen((lines) => lines.slice(1).some((l) => re.test(l)), undefined, what);
}

function waitForGone(a1: PtyDriver, re: RegExp, what: string): Promise<string[]> {
  return a1.waitForScreen((lines) => !lines.slice(1).some((l) => re.test(l)), undefined, what);
}

async function started(a1: PtyDriver): Promise<void> {
  await a1.waitForText(PROMPT_SEEN);
  await waitForListing(t, ['agent']);
}

/** Opens the prompt and waits for its empty input row. */
async function openPrompt(a1: PtyDriver): Promise<void> {
  a1.write(KEY.commandPrompt);
  await waitForBelow(a1, promptRow(''), 'the prompt open and empty');
}

/** Opens the prompt and empties its line (Ctrl+U) whatever it opened with, so that a test of
 * what follows does not depend on how it opens. */
async function openEmptied(a1: PtyDriver): Promise<void> {
  a1.write(KEY.commandPrompt);
  await waitForBelow(a1, /│ \/? *│/, 'the prompt open');
  a1.write('\x15');
  await waitForBelow(a1, promptRow(''), 'the prompt emptied');
}

describe('the command prompt', () => {
  it('opens empty, and runs /tabs and tabs alike', async () => {
    t = e2e();
    const a1 = t.attach();
    await started(a1);
    await openPrompt(a1);
    // Nothing is typed in it: no `/` waiting before the cursor.
    expect(a1.screenText().slice(1).some((l) => promptRow('/').test(l))).toBe(false);
    a1.write('/tabs');
    await waitForBelow(a1, promptRow('/tabs'), 'the prompt showing /tabs (not //tabs)');
    a1.write('\r');
    await waitForBelow(a1, PICKER, 'the picker opened by /tabs');
    a1.write(ESC);
    await waitForGone(a1, PICKER, 'the picker closed');
    await openPrompt(a1);
    a1.write('tabs\r');
    await waitForBelow(a1, PICKER, 'the picker opened by tabs');
  });

  it('Tab completes a command; several candidates are listed; an ambiguous prefix says so', async () => {
    t = e2e();
    const a1 = t.attach();
    await started(a1);
    await openEmptied(a1);
    a1.write('/ta\t');
    await waitForBelow(a1, promptRow('/tabs'), 'Tab completing /ta to /tabs');
    a1.write('\r');
    await waitForBelow(a1, PICKER, 'the picker opened by the completed /tabs');
    a1.write(ESC);
    await waitForGone(a1, PICKER, 'the picker closed');
    await openEmptied(a1);
    a1.write('/n\t');
    await waitForBelow(a1, /│ \/new-tab +\/next-tab +\/name +│/, 'Tab listing /new-tab, /next-tab and /name');
    a1.write('\r');
    const rows = await waitForBelow(a1, /ambiguous: \/n could be \/new-tab, \/next-tab, \/name/, 'the ambiguous-prefix error');
    expect(rows.join('\n')).not.toMatch(/Unknown command/);
    // The prompt stays open with the line; nothing ran.
    expect(rows.slice(1).some((l) => promptRow('/n').test(l))).toBe(true);
    a1.write(ESC);
    await waitForGone(a1, promptRow('/n'), 'the prompt closed');
  });

  it('a unique prefix runs its command, as in tmux', async () => {
    t = e2e();
    const a1 = t.attach();
    await started(a1);
    await openEmptied(a1);
    a1.write('/hot\r');
    await waitForBelow(a1, HOTKEYS, 'the key list opened by /hot');
  });

  it('a long error wraps onto more lines and is read whole at 40 columns', async () => {
    t = e2e();
    const a1 = new PtyDriver({ argv: a1Argv(), env: t.env, cwd: t.home.dir, cols: 40, rows: 24 });
    extra.push(a1);
    await started(a1);
    await openEmptied(a1);
    a1.write('/frobnicate\r');
    const expected = `Unknown command /frobnicate; try ${COMMANDS.map((c) => `/${c.name}`).join(' ')}.`;
    await a1.waitForScreen((lines) => boxContents(lines).slice(1).join(' ') === expected, undefined, 'the whole error under the prompt');
    // Each row of it fits inside the box.
    await a1.flush();
    for (const l of a1.screenText()) expect(l.length).toBeLessThanOrEqual(40);
  });

  it('/help and /? list every command, one line each, and the keys', async () => {
    t = e2e();
    const a1 = t.attach();
    await started(a1);
    for (const typed of ['/help', '/?']) {
      await openEmptied(a1);
      a1.write(`${typed}\r`);
      // Every command on one line of its own (from the table), with the keys that run it.
      const listed = (contents: string[]) =>
        COMMANDS.every((c) => contents.filter((r) => r.startsWith(`${commandUsage(c)} `) && r.includes(c.description)).length === 1) &&
        contents.some((r) => /^\/command-prompt +Open the command prompt · Alt\+;/.test(r));
      await a1.waitForScreen((lines) => lines.slice(1).some((l) => HOTKEYS.test(l)) && listed(boxContents(lines)), undefined, `the help list opened by ${typed}`);
      // Then the keys, from the effective keymap, further down the list.
      a1.write(END);
      await a1.waitForScreen((lines) => boxContents(lines).some((r) => /^Alt\+; +Open the command prompt/.test(r)), undefined, `the keys at the end of ${typed}`);
      a1.write(ESC);
      await waitForGone(a1, HOTKEYS, 'the help list closed');
    }
  });
});
