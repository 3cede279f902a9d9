// Every key of the key table (src/keymap/keyTable.ts: the keys Claude Code, Codex, bash, zsh and
// vim use) that a1 does not bind by default reaches the program in the tab as it would directly
// (issue 16): typed in a kitty-capable terminal, where a1 tells every key apart, a program that
// did not ask for the protocol gets exactly the bytes that terminal sends such a program.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { e2e, PROMPT_SEEN, type E2E } from './harness.js';
import { REPO_ROOT, type PtyDriver } from '../helpers/pty.js';
import { waitFor } from '../helpers/wait.js';
import { LEGACY_MODES } from '../helpers/modes.js';
import { encodeInput } from '../../src/input/encode.js';
import type { InputEvent, KeyName, Mods } from '../../src/input/events.js';
import { KEY_TABLE, firstKey } from '../../src/keymap/keyTable.js';
import { resolveKeymap } from '../../src/keymap/resolve.js';

let t: E2E;
afterEach(async () => {
  await t?.teardown();
});

const RECORDER = path.join(REPO_ROOT, 'test', 'fixtures', 'key-recorder.mjs');
/** What a1 pushes onto a kitty-capable outer terminal (disambiguate, event types, alternates). */
const A1_FLAGS = 7;
/** What a terminal sends a program that asked for nothing. */
const KEY_NAMES: ReadonlySet<string> = new Set([
  'enter', 'tab', 'backspace', 'escape', 'space', 'up', 'down', 'left', 'right', 'home', 'end', 'pageup', 'pagedown',
  'insert', 'delete', 'f1', 'f2', 'f3', 'f4', 'f5', 'f6', 'f7', 'f8', 'f9', 'f10', 'f11', 'f12',
]);

/** The key press a canonical key ('ctrl+alt+shift+x') names; null for what a keyboard sends no
 * program (meta). */
function pressOf(canonical: string): InputEvent | null {
  const parts = canonical === '+' ? ['+'] : canonical.endsWith('++') ? [...canonical.slice(0, -2).split('+'), '+'] : canonical.split('+');
  const base = parts.pop()!;
  const mods: Mods = {};
  for (const m of parts) {
    if (m === 'meta') return null;
    mods[m as 'ctrl' | 'alt' | 'shift'] = true;
  }
  if (KEY_NAMES.has(base)) return { k: 'key', key: base as KeyName, mods };
  if (/^[a-z]$/.test(base) && mods.shift) return { k: 'text', s: base.toUpperCase(), mods };
  return { k: 'text', s: base, mods };
}

async function kittyOn(a1: PtyDriver): Promise<void> {
  await waitFor(() => a1.keyboardStacks().alternate.at(-1) === A1_FLAGS, { what: 'a1 pushing its keyboard flags' });
}

describe('the key table', () => {
  it('every key a program of the table uses and a1 does not bind reaches the program as directly', async () => {
    const resolved = resolveKeymap({});
    if (!('keymap' in resolved)) throw new Error(resolved.error.message);
    const { keymap } = resolved;
    const unbound = [...new Set(KEY_TABLE.map((row) => firstKey(row.keys)))].filter((k) => !keymap.byKey.has(k) && !keymap.chordStarts.has(k));
    const presses = unbound.flatMap((k) => {
      const ev = pressOf(k);
      return ev && encodeInput(ev, LEGACY_MODES) !== '' ? [{ k, ev }] : [];
    });
    // The table is large (every program's keys); a handful would mean it was not read.
    expect(presses.length).toBeGreaterThan(100);

    t = e2e();
    const a1 = t.attachWith({ kittyKeyboard: {} });
    await a1.waitForText(PROMPT_SEEN);
    await kittyOn(a1);
    const file = path.join(t.home.dir, 'keys.bin');
    a1.write(`clear; node ${RECORDER} ${file}\r`);
    await a1.waitForText('READY legacy');
    await a1.flush();
    let expected = '';
    const got = () => (fs.existsSync(file) ? fs.readFileSync(file, 'latin1') : '');
    // One key at a time, each waited for: a mismatch names its key.
    for (const { k, ev } of presses) {
      const bytes = encodeInput(ev, LEGACY_MODES);
      a1.key(ev);
      expected += Buffer.from(bytes, 'utf8').toString('latin1');
      await waitFor(() => got().length >= expected.length, { what: `${k} at the program (has ${JSON.stringify(got().slice(-20))})` });
      expect(got(), k).toBe(expected);
    }
    fs.writeFileSync(`${file}.stop`, '');
    expect((await t.run('tabs', '--json')).code).toBe(0);
  });
});
