// The first-run hint (issue 18): on a profile's first launch one line names the main keys as this
// profile binds them; its own key (F12) dismisses it for good, recorded in the profile's state
// directory, and a later launch does not show it. Once dismissed, F12 is the tab's again.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { e2e, PROMPT_SEEN, stateDir, waitForStrip, type E2E } from './harness.js';
import { HINT_DISMISSED_FILE } from '../../src/app/attach/firstRunHint.js';
import { waitFor } from '../helpers/wait.js';

const F12 = '\x1b[24~';
const HINT = 'Alt+A new tab · Alt+. Alt+, switch · Alt+W close · Alt+E detach · Alt+; commands · F12 hides this';

let t: E2E;
afterEach(async () => {
  await t?.teardown();
});

const screen = (lines: string[]): string => lines.join('\n');

describe('the first-run hint', () => {
  it('shows on the first launch, goes for good with its own key, and is not shown on the next launch', async () => {
    t = e2e({}, { firstRunHint: true });
    const a1 = t.attach();
    await a1.waitForText(HINT);
    await waitForStrip(a1, ['agent'], 'agent');
    // Under the strip, on the right, as notices are.
    expect(a1.line(1).trimEnd().endsWith(` ${HINT}`)).toBe(true);
    a1.write(F12);
    await waitFor(() => !screen(a1.screenText()).includes('hides this'), { what: 'the hint gone after F12' });
    expect(fs.existsSync(path.join(stateDir(t), HINT_DISMISSED_FILE))).toBe(true);
    // F12 reached nothing: the shell's line is still empty, and F12 is now the tab's own key.
    a1.write('cat -v\r');
    await a1.waitForText(/^a1\$ cat -v$/m);
    a1.write(F12);
    a1.write('\r');
    await a1.waitForText('^[[24~');
    a1.write('\x04');
    await a1.waitForText(/^a1\$ ?$/m);
    a1.write('\x1be');
    expect((await a1.exited).exitCode).toBe(0);

    const again = t.attach();
    await again.waitForText(PROMPT_SEEN);
    // The hint would be drawn in the same frame as the strip: the strip is there, the hint is not.
    await waitForStrip(again, ['agent'], 'agent');
    await again.flush();
    expect(screen(again.screenText())).not.toContain('hides this');
  });

  it('names the keys as the profile binds them', async () => {
    t = e2e({}, { firstRunHint: true });
    fs.writeFileSync(path.join(t.home.dir, 'config', 'keybindings.json'), JSON.stringify({ newTab: 'alt+t', closeTab: 'alt+x' }), { mode: 0o600 });
    const a1 = t.attach();
    await a1.waitForText('F12 hides this');
    const text = screen(a1.screenText());
    expect(text).toContain('Alt+T new tab');
    expect(text).toContain('Alt+X close');
    expect(text).not.toContain('Alt+A new tab');
  });
});
