// Tabs keep separate state across switches, and a background tab keeps running.
import { describe, it, expect, afterEach } from 'vitest';
import { e2e, PROMPT_SEEN, waitForStrip, type E2E } from './harness.js';

let t: E2E;
afterEach(async () => {
  await t?.teardown();
});

describe('switching tabs', () => {
  it('keeps a draft in one tab while another is used, and input reaches only the viewed tab', async () => {
    t = e2e();
    const a1 = t.attach();
    await a1.waitForText(PROMPT_SEEN);
    a1.write('echo draft-one-unsent');
    await a1.waitForText('echo draft-one-unsent');
    a1.write('\x1ba'); // Alt+A
    await waitForStrip(a1, ['agent', 'agent 2'], 'agent 2');
    await a1.waitForScreen((lines) => !lines.join('\n').includes('draft-one'), undefined, 'the new tab shown');
    a1.write('echo in-two-$((2*2))\r');
    await a1.waitForText('in-two-4');
    a1.write('\x1b,'); // Alt+, back to the first tab
    await waitForStrip(a1, ['agent', 'agent 2'], 'agent');
    await a1.waitForText('echo draft-one-unsent');
    expect(a1.screenText().join('\n')).not.toContain('in-two-4');
    a1.write('\r');
    await a1.waitForScreen((lines) => lines.some((l) => l.trim() === 'draft-one-unsent'), undefined, 'the draft ran in tab 1');
  });

  it('a background tab keeps printing while another is viewed', async () => {
    t = e2e();
    const a1 = t.attach();
    await a1.waitForText(PROMPT_SEEN);
    a1.write("for i in $(seq 1 400); do echo bg-$i; sleep 0.01; done; echo bg-done-$((1+1))\r");
    await a1.waitForText(/bg-\d+/);
    a1.write('\x1ba');
    await waitForStrip(a1, ['agent', 'agent 2'], 'agent 2');
    a1.write('echo fg-$((3+3))\r');
    await a1.waitForText('fg-6');
    // By the time tab 1 is viewed again, its loop has finished without pause or restart.
    a1.write('\x1b1'); // Alt+1
    await a1.waitForText('bg-done-2', 30_000);
    const lines = a1.screenText().map((l) => l.trim());
    expect(lines).toContain('bg-400');
  });
});
