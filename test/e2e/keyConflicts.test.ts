// The launch notice for the user's keys that a program in a tab uses (issue 16, docs/keys.md):
// shown once, like the notice for a keybindings.json a1 cannot use, and the binding still works.
import fs from 'node:fs';
import path from 'node:path';
import { describe, it, expect, afterEach } from 'vitest';
import { e2e, KEY, PROMPT_SEEN, waitForListing, type E2E } from './harness.js';

let t: E2E;
afterEach(async () => {
  await t?.teardown();
});

function writeBindings(bindings: object): void {
  fs.writeFileSync(path.join(t.home.dir, 'config', 'keybindings.json'), JSON.stringify(bindings), { mode: 0o600 });
}

describe('key table conflicts at launch', () => {
  it("names the program a user's key takes, and the key still does what the user bound", async () => {
    t = e2e();
    writeBindings({ tabsPicker: 'alt+t' });
    const a1 = t.attach();
    await a1.waitForText(PROMPT_SEEN);
    const screen = await a1.waitForText('Alt+T is bound to tabsPicker but Claude Code uses it for Chat: chat:thinkingToggle');
    expect(screen.filter((l) => l.includes('is bound to'))).toHaveLength(1);
    await waitForListing(t, ['agent']);
    a1.write('\x1bt');
    await a1.waitForText(/type to filter · Enter views · Esc closes/);
    // /hotkeys lists the effective binding, not the default.
    a1.write('\x1b');
    await a1.waitForScreen((rows) => !rows.some((r) => /type to filter/.test(r)), 20_000, 'the picker closed');
    a1.write(KEY.commandPrompt);
    a1.write('hotkeys\r');
    const rows = await a1.waitForText(/Alt\+T +Open the tabs picker · tabsPicker/);
    expect(rows.some((r) => /Alt\+J +Open the tabs picker/.test(r))).toBe(false);
  });

  it('says nothing with the default keys', async () => {
    t = e2e();
    writeBindings({ newTab: 'f6' });
    const a1 = t.attach();
    await a1.waitForText(PROMPT_SEEN);
    await waitForListing(t, ['agent']);
    // A notice that will not come cannot be waited for: a later one (typed text echoed) shows
    // the launch ones were drawn by then.
    a1.write('echo launched\r');
    await a1.waitForText(/^launched$/m);
    expect(a1.screenText().join('\n')).not.toContain('is bound to');
  });
});
