// The kitty keyboard protocol on both sides (issue 16): a child that turns it on gets every key
// exactly as the protocol encodes it for its flags; a1 turns it on in an outer terminal that
// speaks it, so Esc then a key is never Alt+key, and leaves that terminal's flags as it found
// them on every way out. With a legacy outer terminal the Esc window is the setting
// escapeTimeoutMs. The outer terminal is PtyDriver's emulation of a kitty-capable one.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { e2e, listing, PROMPT_SEEN, readStrip, waitForStrip, type E2E } from './harness.js';
import { REPO_ROOT, type PtyDriver } from '../helpers/pty.js';
import { waitFor } from '../helpers/wait.js';
import type { InputEvent, KeyDetail, KeyName, Mods } from '../../src/input/events.js';
import type { KittyStacks } from '../../src/input/kittyFlags.js';

let t: E2E;
afterEach(async () => {
  await t?.teardown();
});

const RECORDER = path.join(REPO_ROOT, 'test', 'fixtures', 'key-recorder.mjs');
/** What a1 pushes onto a kitty-capable outer terminal (disambiguate, event types, alternates). */
const A1_FLAGS = 7;

const text = (s: string, mods?: Mods, detail: KeyDetail = {}): InputEvent => ({ k: 'text', s, ...(mods ? { mods } : {}), ...detail });
const key = (name: KeyName, mods?: Mods): InputEvent => ({ k: 'key', key: name, ...(mods ? { mods } : {}) });

const KEYS = {
  shiftEnter: key('enter', { shift: true }),
  ctrlI: text('i', { ctrl: true }),
  tab: key('tab'),
  altDot: text('.', { alt: true }),
  esc: key('escape'),
  dot: text('.'),
  releaseA: text('a', undefined, { type: 'release' }),
  ctrlShiftA: text('A', { ctrl: true, shift: true }),
  a: text('a'),
} as const;
type KeyId = keyof typeof KEYS;
const ORDER = Object.keys(KEYS) as KeyId[];

/** The bytes a child with these flags must get for each key, from the protocol's rules. */
const EXPECTED: Array<[flags: number, bytes: Record<KeyId, string>]> = [
  [0, { shiftEnter: '\r', ctrlI: '\t', tab: '\t', altDot: '\x1b.', esc: '\x1b', dot: '.', releaseA: '', ctrlShiftA: '\x01', a: 'a' }],
  [1, { shiftEnter: '\x1b[13;2u', ctrlI: '\x1b[105;5u', tab: '\t', altDot: '\x1b[46;3u', esc: '\x1b[27u', dot: '.', releaseA: '', ctrlShiftA: '\x1b[97;6u', a: 'a' }],
  [2, { shiftEnter: '\x1b[13;2u', ctrlI: '\t', tab: '\t', altDot: '\x1b.', esc: '\x1b', dot: '.', releaseA: '\x1b[97;1:3u', ctrlShiftA: '\x1b[97;6u', a: 'a' }],
  [3, { shiftEnter: '\x1b[13;2u', ctrlI: '\x1b[105;5u', tab: '\t', altDot: '\x1b[46;3u', esc: '\x1b[27u', dot: '.', releaseA: '\x1b[97;1:3u', ctrlShiftA: '\x1b[97;6u', a: 'a' }],
  [5, { shiftEnter: '\x1b[13;2u', ctrlI: '\x1b[105;5u', tab: '\t', altDot: '\x1b[46;3u', esc: '\x1b[27u', dot: '.', releaseA: '', ctrlShiftA: '\x1b[97:65;6u', a: 'a' }],
  [9, { shiftEnter: '\x1b[13;2u', ctrlI: '\x1b[105;5u', tab: '\x1b[9u', altDot: '\x1b[46;3u', esc: '\x1b[27u', dot: '\x1b[46u', releaseA: '', ctrlShiftA: '\x1b[97;6u', a: '\x1b[97u' }],
  [25, { shiftEnter: '\x1b[13;2u', ctrlI: '\x1b[105;5u', tab: '\x1b[9u', altDot: '\x1b[46;3u', esc: '\x1b[27u', dot: '\x1b[46;;46u', releaseA: '', ctrlShiftA: '\x1b[97;6u', a: '\x1b[97;;97u' }],
  [31, { shiftEnter: '\x1b[13;2u', ctrlI: '\x1b[105;5u', tab: '\x1b[9u', altDot: '\x1b[46;3u', esc: '\x1b[27u', dot: '\x1b[46;;46u', releaseA: '\x1b[97;1:3u', ctrlShiftA: '\x1b[97:65;6u', a: '\x1b[97;;97u' }],
];

/** Waits until a1 has pushed its flags onto the emulated terminal's alternate screen. */
async function kittyOn(a1: PtyDriver): Promise<void> {
  await waitFor(() => a1.keyboardStacks().alternate.at(-1) === A1_FLAGS, { what: 'a1 pushing its keyboard flags' });
}

/**
 * The outer terminal's keyboard state is as a1 found it: the main screen's stack untouched, and
 * the alternate screen's back to the flags it had (kitty, whose stacks the emulation follows,
 * keeps a 0 entry under the first push, so an emptied stack may read [0]).
 */
function expectRestored(a1: PtyDriver, before: KittyStacks, what: string): void {
  const now = a1.keyboardStacks();
  const top = (stack: readonly number[]) => stack.at(-1) ?? 0;
  expect({ what, main: now.main, alternate: top(now.alternate), depth: now.alternate.filter((f) => f !== 0).length })
    .toEqual({ what, main: before.main, alternate: top(before.alternate), depth: before.alternate.filter((f) => f !== 0).length });
}

let runs = 0;

/** Runs the key recorder at the tab's shell with `flags` (none: legacy), sends `keys` through
 * the outer terminal, and returns what the child read, once it has `expectedLength` bytes. */
async function record(a1: PtyDriver, flags: number, keys: InputEvent[], expectedLength: number): Promise<string> {
  const n = ++runs;
  const file = path.join(t.home.dir, `keys-${n}.bin`);
  a1.key(text(`clear; node ${RECORDER} ${file}${flags === 0 ? '' : ` ${flags}`}; echo done-$((${n} + 1000))`), key('enter'));
  await a1.waitForText(flags === 0 ? 'READY legacy' : `READY flags=${flags}`);
  await a1.flush();
  for (const ev of keys) a1.key(ev);
  let got = '';
  await waitFor(() => {
    got = fs.existsSync(file) ? fs.readFileSync(file, 'latin1') : '';
    return got.length >= expectedLength;
  }, { what: `${expectedLength} bytes at a child with flags ${flags}` }).catch((err: Error) => {
    throw new Error(`${err.message}; got ${JSON.stringify(got)}`);
  });
  fs.writeFileSync(`${file}.stop`, '');
  await a1.waitForText(`done-${n + 1000}`);
  return fs.readFileSync(file, 'latin1');
}

describe('kitty keyboard protocol: the child side', () => {
  it('a child gets Shift+Enter, Ctrl+I vs Tab, Alt+., Esc then ., and a release exactly as its flags ask', async () => {
    t = e2e();
    // Alt+. is a1's next-tab key by default; a user who moves it lets the child have it.
    fs.writeFileSync(path.join(t.home.dir, 'config', 'keybindings.json'), JSON.stringify({ nextTab: 'alt+n' }), { mode: 0o600 });
    const a1 = t.attachWith({ kittyKeyboard: {} });
    await a1.waitForText(PROMPT_SEEN);
    await kittyOn(a1);
    for (const [flags, bytes] of EXPECTED) {
      // A last plain key shows where the keys end, even when the last ones send nothing.
      const sentinel = flags & 8 ? (flags & 16 ? '\x1b[122;;122u' : '\x1b[122u') : 'z';
      const expected = ORDER.map((id) => bytes[id]).join('') + sentinel;
      const got = await record(a1, flags, [...ORDER.map((id) => KEYS[id]), text('z')], expected.length);
      expect({ flags, got: JSON.stringify(got) }).toEqual({ flags, got: JSON.stringify(expected) });
    }
    // The child's pops left the shell with legacy keys: Shift+Enter is Enter again.
    const after = await record(a1, 0, [KEYS.shiftEnter, text('z')], 2);
    expect(after).toBe('\rz');
  });
});

describe('kitty keyboard protocol: releases', () => {
  it('a release is never a1\'s key, and the release of a key a1 took never reaches the tab', async () => {
    t = e2e();
    const a1 = t.attachWith({ kittyKeyboard: {} });
    await a1.waitForText(PROMPT_SEEN);
    await kittyOn(a1);
    const file = path.join(t.home.dir, 'keys.bin');
    a1.key(text(`clear; node ${RECORDER} ${file} 3`), key('enter'));
    await a1.waitForText('READY flags=3');
    // Alt+, (previous tab, here the same one) is a1's: neither its press, its repeat (a press
    // again, as autorepeat) nor its release reaches the child. A release of Alt+A whose press a1 never saw opens no tab: the child
    // that asked for event types gets it.
    a1.key(text(',', { alt: true }), text(',', { alt: true }, { type: 'repeat' }), text(',', { alt: true }, { type: 'release' }));
    a1.key(text('a', { alt: true }, { type: 'release' }), text('z'));
    await waitFor(() => fs.readFileSync(file, 'latin1').endsWith('z'), { what: 'the last key at the child' });
    expect(fs.readFileSync(file, 'latin1')).toBe('\x1b[97;3:3uz');
    expect((await readStrip(a1)).names).toHaveLength(1);
    fs.writeFileSync(`${file}.stop`, '');
    await a1.waitForText('STOPPED');
  });
});

describe('kitty keyboard protocol: the child\'s flags live in the tab', () => {
  it('a client that detaches and attaches again still sends keys for the child\'s flags', async () => {
    t = e2e();
    const first = t.attachWith({ kittyKeyboard: {} });
    await first.waitForText(PROMPT_SEEN);
    await kittyOn(first);
    const file = path.join(t.home.dir, 'keys.bin');
    first.key(text(`clear; node ${RECORDER} ${file} 1`), key('enter'));
    await first.waitForText('READY flags=1');
    const ctrlC = text('c', { ctrl: true });
    first.key(ctrlC, ctrlC);
    await first.exited;
    // The child's Ctrl+C (the first of the two) reached it as its flags ask; it keeps running.
    await waitFor(() => fs.readFileSync(file, 'latin1') === '\x1b[99;5u', { what: 'the first Ctrl+C at the child' });
    const again = t.attachWith({ kittyKeyboard: {} });
    await again.waitForText('READY flags=1');
    await kittyOn(again);
    again.key(KEYS.shiftEnter, KEYS.esc);
    await waitFor(() => fs.readFileSync(file, 'latin1') === '\x1b[99;5u\x1b[13;2u\x1b[27u', { what: 'Shift+Enter and Esc at the child' });
    fs.writeFileSync(`${file}.stop`, '');
    await again.waitForText('STOPPED');
  });
});

describe('kitty keyboard protocol: the outer terminal', () => {
  it('a1 reads Alt+A and Alt+. from a kitty terminal; Esc then . in one write reaches vim as two keys', async () => {
    t = e2e();
    const a1 = t.attachWith({ kittyKeyboard: {} });
    await a1.waitForText(PROMPT_SEEN);
    await kittyOn(a1);
    a1.key(text('a', { alt: true }));
    await waitFor(async () => (await readStrip(a1)).names.length === 2, { what: 'Alt+A opening a second tab' });
    const strip = await waitFor(async () => {
      const s = await readStrip(a1);
      return s.viewed === s.names[1] ? s : null;
    }, { what: 'the new tab viewed' });
    await a1.waitForText(PROMPT_SEEN);
    // Alt+. switches (to the first tab), Esc then . must not.
    a1.key(text('.', { alt: true }));
    await waitForStrip(a1, strip.names, strip.names[0]);
    a1.key(text('vim -u NONE -N'), key('enter'));
    await a1.waitForText(/^~/);
    a1.key(text('ihello'));
    await a1.waitForText('hello');
    // Escape then '.' in one write: leaves insert mode, then repeats the insert.
    a1.key(key('escape'), text('.'));
    await a1.waitForText('hellhelloo');
    expect((await readStrip(a1)).viewed).toBe(strip.names[0]);
    a1.key(text(':q!'), key('enter'));
    await a1.waitForText(PROMPT_SEEN);
  });

  it('a1 restores the outer terminal\'s keyboard flags when it detaches', async () => {
    t = e2e();
    const a1 = t.attachWith({ kittyKeyboard: { mainFlags: 1 } });
    await a1.flush();
    const before = a1.keyboardStacks();
    await a1.waitForText(PROMPT_SEEN);
    await kittyOn(a1);
    expect(a1.keyboardStacks().main).toEqual(before.main);
    const ctrlC = text('c', { ctrl: true });
    a1.key(ctrlC, ctrlC);
    await a1.exited;
    await a1.flush();
    expect(a1.bufferType()).toBe('normal');
    expectRestored(a1, before, 'detach');
    expect((await listing(t)).tabs).toHaveLength(1);
  });

  it('a1 restores the outer terminal\'s keyboard flags after /quit', async () => {
    t = e2e();
    const a1 = t.attachWith({ kittyKeyboard: { mainFlags: 5 } });
    await a1.flush();
    const before = a1.keyboardStacks();
    await a1.waitForText(PROMPT_SEEN);
    await kittyOn(a1);
    a1.key(text(';', { alt: true }));
    await a1.waitForText(/│ (?: |│|$)/);
    a1.key(text('/quit'));
    await a1.waitForText(/│ \/quit(?: |│|$)/);
    a1.key(key('enter'));
    expect((await a1.exited).exitCode).toBe(0);
    await a1.flush();
    expectRestored(a1, before, '/quit');
  });

  it('a1 restores the outer terminal\'s keyboard flags when it is ended by SIGTERM, SIGHUP or SIGINT', async () => {
    t = e2e();
    for (const signal of ['SIGTERM', 'SIGHUP', 'SIGINT'] as const) {
      const a1 = t.attachWith({ kittyKeyboard: { mainFlags: 1 } });
      await a1.flush();
    const before = a1.keyboardStacks();
      await a1.waitForText(PROMPT_SEEN);
      await kittyOn(a1);
      process.kill(a1.pid, signal);
      await a1.exited;
      await a1.flush();
      expectRestored(a1, before, signal);
    }
  });
});

describe('the Esc window with a legacy outer terminal (escapeTimeoutMs)', () => {
  /** Two tabs, the first viewed; resolves with their names. */
  async function twoTabs(a1: PtyDriver): Promise<string[]> {
    await a1.waitForText(PROMPT_SEEN);
    a1.write('\x1ba');
    await waitFor(async () => (await readStrip(a1)).names.length === 2, { what: 'a second tab' });
    await a1.waitForText(PROMPT_SEEN);
    const names = (await readStrip(a1)).names;
    a1.write('\x1b,');
    await waitForStrip(a1, names, names[0]);
    return names;
  }

  it('Esc then a key within the window is Alt+key', async () => {
    t = e2e({ escapeTimeoutMs: 1500 });
    const a1 = t.attach();
    const names = await twoTabs(a1);
    a1.write('\x1b');
    // A person's pause, well inside the window and well past the default 30 ms.
    await new Promise((resolve) => setTimeout(resolve, 300));
    a1.write('.');
    await waitForStrip(a1, names, names[1]);
  });

  it('Esc then a key after the window are two keys', async () => {
    t = e2e({ escapeTimeoutMs: 5 });
    const a1 = t.attach();
    const names = await twoTabs(a1);
    const file = path.join(t.home.dir, 'keys.bin');
    a1.write(`clear; node ${RECORDER} ${file}\r`);
    await a1.waitForText('READY legacy');
    a1.write('\x1b');
    await waitFor(() => fs.readFileSync(file, 'latin1') === '\x1b', { what: 'the child getting Esc alone' });
    a1.write('.');
    await waitFor(() => fs.readFileSync(file, 'latin1') === '\x1b.', { what: 'the child getting . after it' });
    expect((await readStrip(a1)).viewed).toBe(names[0]);
  });
});
