// What the tab's terminal does: exit screens, resize, queries, bells, mouse, input bounds.
import { describe, it, expect, afterEach } from 'vitest';
import { e2e, PROMPT_SEEN, waitForChildSize, type E2E } from './harness.js';
import { waitFor } from '../helpers/wait.js';

let t: E2E;
afterEach(async () => {
  await t?.teardown();
});

/** A bash in an agent tab, which stays exited after an exit 0 (a plain shell tab closes). */
async function agentShellTab(): Promise<void> {
  const made = await t.run('new', '--agent', 'generic', '--', '/bin/bash', '--norc', '--noprofile');
  expect(made.code, made.stderr).toBe(0);
}

describe('the tab terminal', () => {
  it('keeps an exited child\'s last screen, read-only, with its exit status', async () => {
    t = e2e();
    // An agent tab: a plain shell tab that exits 0 closes instead (issue 18).
    await agentShellTab();
    const a1 = t.attach();
    await a1.waitForText(PROMPT_SEEN);
    // Status 0 is a clean exit: never restarted (a non-zero one is a crash, see lifecycle tests).
    a1.write('echo last-words-$((1+1)); exit 0\r');
    await a1.waitForText('exited with status 0');
    await a1.waitForText('[r] restart');
    await a1.waitForText('last-words-2');
    const listed = await t.run('tabs', '--json');
    expect(JSON.parse(listed.stdout).tabs[0].status).toBe('exited');
    // Typing reaches nothing: the screen does not change.
    a1.write('echo typed\r');
    await a1.flush();
    const mark = a1.mark();
    a1.write('x');
    await waitFor(async () => (await t.run('tabs', '--json')).code === 0, { what: 'a round trip' });
    await a1.flush();
    expect(a1.screenText().join('\n')).not.toContain('typed');
    expect(a1.rawOutput(mark)).not.toContain('x');
  });

  it('drains the PTY before fixing an exited child\'s last screen', async () => {
    t = e2e();
    await agentShellTab();
    const a1 = t.attach();
    await a1.waitForText(PROMPT_SEEN);
    a1.write("exec seq -f 'n%.0f' 1 300000\r");
    await a1.waitForText('exited with status 0');
    const text = (await a1.waitForText('n300000')).map((l) => l.trim());
    expect(text).toContain('n299999');
  });

  it('propagates the terminal size to the child, less the strip row', async () => {
    t = e2e();
    const a1 = t.attach();
    await a1.waitForText(PROMPT_SEEN);
    a1.write('stty size\r');
    await a1.waitForText('39 120');
    a1.resize(100, 30);
    await waitForChildSize(a1, '29 100');
  });

  it('answers terminal queries from the model and swallows bells', async () => {
    t = e2e();
    const a1 = t.attach();
    await a1.waitForText(PROMPT_SEEN);
    const mark = a1.mark();
    a1.write("clear; printf 'ding\\a\\a'; printf '\\033[6n'; read -rs -d R pos; echo \"POS${pos#*[}\"\r");
    await a1.waitForText(/POS\d+;\d+/);
    expect(a1.rawOutput(mark)).not.toContain('\x07');
  });

  it('forwards the mouse only when the child asked, offset by the strip', async () => {
    t = e2e();
    const a1 = t.attach();
    await a1.waitForText(PROMPT_SEEN);
    a1.write("clear; printf '\\033[?1000h\\033[?1006h'; echo mouse-$((1+1))-on; cat -v\r");
    // Computed text: the typed command line itself must not satisfy the wait.
    await a1.waitForText('mouse-2-on');
    // A click on outer row 6, column 10 (1-based) is row 5 of the child's surface.
    a1.write('\x1b[<0;10;6M\x1b[<0;10;6m');
    await a1.waitForText('^[[<0;10;5M^[[<0;10;5m');
    a1.write('\x03');
    await a1.waitForText(PROMPT_SEEN);
    a1.write("clear; printf '\\033[?1000l'; echo mouse-$((1+1))-off; cat -v\r");
    await a1.waitForText('mouse-2-off');
    a1.write('\x1b[<0;10;6M\x1b[<0;10;6mtyped-after\r');
    await a1.waitForText('typed-after');
    expect(a1.screenText().join('\n')).not.toContain('^[[<');
  });

  it('rejects a paste larger than the input queue whole, and says so', async () => {
    t = e2e({ inputQueueBytes: 64 * 1024 });
    const a1 = t.attach();
    await a1.waitForText(PROMPT_SEEN);
    a1.write('cat > pasted.txt\r');
    const big = 'p'.repeat(100 * 1024);
    a1.write(`\x1b[200~${big}\x1b[201~`);
    await a1.waitForText('not accepting input');
    a1.write('\x1b[200~small-paste\x1b[201~\r\x04');
    await a1.waitForText(PROMPT_SEEN);
    const fs = await import('node:fs');
    const path = await import('node:path');
    await waitFor(() => fs.readFileSync(path.join(t.home.dir, 'pasted.txt'), 'utf8') === 'small-paste\n', { what: 'only the small paste arrived' });
  });
});
