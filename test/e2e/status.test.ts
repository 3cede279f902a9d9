// Agent status glyphs end to end (SPEC §8, §10, §15 "Status flow", issue 5): the chip says what
// the tab's child reported over its bridge, read from the real client's strip, never from the
// screen; a bridge refuses another tab's token; no bell reaches the outer terminal; `a1 status`
// outside a tab refuses, and a Claude Code hook payload drives the chip.
import fs from 'node:fs';
import path from 'node:path';
import { describe, it, expect, afterEach } from 'vitest';
import { SPINNER_FRAMES } from '../../src/status/glyphs.js';
import { e2e, KEY, listing, PROMPT_SEEN, tabId, waitForListing, waitForStrip, type E2E } from './harness.js';
import {
  agentStarts,
  chipGlyph,
  controlAgent,
  listedTab,
  newAgentTab,
  serverSocketExists,
  useFakeAgent,
  waitForChipGlyph,
  waitForTabSession,
} from './lifecycleHarness.js';
import { A1_BIN, type PtyDriver } from '../helpers/pty.js';
import { waitFor } from '../helpers/wait.js';

const SPINNER: readonly string[] = SPINNER_FRAMES;
const isSpinner = (glyph: string): boolean => SPINNER.includes(glyph);
/** Enough words that a reply streams for over a second (the fake agent writes one per 10 ms). */
const LONG_REPLY_WORDS = 150;

let t: E2E;
afterEach(async () => {
  await t?.teardown();
});

function words(n: number): string {
  return Array.from({ length: n }, (_, i) => `w${i}`).join(' ');
}

/** `a1 new ...args`; returns the new tab's id. */
async function newTab(...args: string[]): Promise<string> {
  const r = await t.run('new', ...args);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout.trim();
}

/** Waits until the shell of the viewed tab is at its prompt, ready for a typed command. */
async function shellReady(a1: PtyDriver): Promise<void> {
  await a1.waitForScreen((lines) => lines.slice(1).some((l) => l === PROMPT_SEEN), undefined, 'a shell prompt');
}

/** A child process's environment (from /proc), as the tab's holder gave it. */
function environOf(pid: number): Record<string, string> {
  const env: Record<string, string> = {};
  for (const entry of fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0')) {
    const eq = entry.indexOf('=');
    if (eq > 0) env[entry.slice(0, eq)] = entry.slice(eq + 1);
  }
  return env;
}

/** What the client drew, without control sequences (CSI, OSC, other escapes): the text only. */
function drawnText(raw: string): string {
  return raw
    .replace(/\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/g, '')
    .replace(/\x1b\[[0-9;:?<=>]*[ -/]*[@-~]/g, '')
    .replace(/\x1b[^[\]]/g, '');
}

/** A number a child program keeps writing to a file, or 0 before it has. */
function counter(file: string): number {
  try {
    return Number(fs.readFileSync(file, 'utf8').trim()) || 0;
  } catch {
    return 0;
  }
}

describe('agent status glyphs', () => {
  it('shows every glyph of a background agent tab, driven by its reports, in every client', async () => {
    t = e2e({ tabsStallNoticeSeconds: 1, closeGraceMs: 300 });
    // Read by the server at start: the missed-heartbeat window, and 4× it the restart.
    t.env.A1_TEST_UNRESPONSIVE_MS = '1500';
    const dir = useFakeAgent(t);
    await newTab('--name', 'sh');
    const botId = await newAgentTab(t, 'bot');
    const a1 = t.attach();
    const other = t.attach();
    await waitForStrip(a1, ['sh', 'bot'], 'sh');
    await waitForStrip(other, ['sh', 'bot'], 'sh');
    const { sessionId } = await waitForTabSession(t, botId);
    await waitForChipGlyph(a1, 'bot', '');
    const send = (line: string) => controlAgent(dir, sessionId, line);

    // Working: the spinner, animated.
    send(words(LONG_REPLY_WORDS));
    const first = await waitForChipGlyph(a1, 'bot', isSpinner, 'a spinner frame');
    await waitForChipGlyph(a1, 'bot', (g) => isSpinner(g) && g !== first, `a spinner frame other than ${first}`);
    // The turn finished while no client viewed the tab.
    await waitForChipGlyph(a1, 'bot', '✓');

    // A permission prompt, approved: ?, the spinner while the reply streams, then ✓ again.
    send(`/ask ${words(LONG_REPLY_WORDS)}`);
    await waitForChipGlyph(a1, 'bot', '?');
    send('y');
    await waitForChipGlyph(a1, 'bot', isSpinner, 'a spinner frame after y');
    await waitForChipGlyph(a1, 'bot', '✓');
    await waitForChipGlyph(other, 'bot', '✓');

    // Viewing it in one client clears ✓ in both.
    a1.write(KEY.jump2);
    await waitForStrip(a1, ['sh', 'bot'], 'bot');
    await waitForChipGlyph(a1, 'bot', '');
    await waitForChipGlyph(other, 'bot', '');
    expect((await waitForStrip(other, ['sh', 'bot'])).viewed).toBe('sh');
    a1.write(KEY.jump1);
    await waitForStrip(a1, ['sh', 'bot'], 'sh');

    // The turn failed.
    send('/fail');
    await waitForChipGlyph(a1, 'bot', '✗');
    await waitForChipGlyph(other, 'bot', '✗');

    // Working with no progress for tabsStallNoticeSeconds: stalled; interrupted: no glyph.
    send('/work');
    await waitForChipGlyph(a1, 'bot', '⧗');
    send('/stop');
    await waitForChipGlyph(a1, 'bot', '');

    // Heartbeats, then silence past the window: unresponsive, then restarted (resumed) at 4×.
    send('/heartbeat 200');
    send('/quiet');
    await waitForChipGlyph(a1, 'bot', '!');
    await waitFor(() => agentStarts(dir, sessionId).length === 2, { what: 'the unresponsive agent restarted' });
    expect(agentStarts(dir, sessionId)[1]).toMatchObject({ resumed: true });
    await waitForChipGlyph(a1, 'bot', '');

    const slept = await t.run('tabs', 'sleep', botId);
    expect(slept.code, slept.stderr).toBe(0);
    await waitForChipGlyph(a1, 'bot', '◌');
    await waitForChipGlyph(other, 'bot', '◌');
  });

  it('keeps the glyph the bridge gives a tab whose program prints glyphs and a "working" title', async () => {
    t = e2e();
    t.env.A1_BIN = A1_BIN;
    const count = path.join(t.home.dir, 'mimic.count');
    const trigger = path.join(t.home.dir, 'mimic.report');
    // Looks busy in every way a screen reader could be fooled by; reports only when told to.
    const script = [
      'i=0',
      'while :; do',
      '  i=$((i+1))',
      `  printf '\\033]0;working\\007✓ ⠋ ⠙ ⠹ ⠸ working %d\\n' "$i"`,
      '  echo "$i" > "$1"',
      '  if [ -e "$2" ]; then rm -f "$2"; "$A1_BIN" status needs-input; fi',
      '  sleep 0.05',
      'done',
    ].join('\n');
    await newTab('--name', 'sh');
    await newTab('--name', 'mimic', '--', '/bin/bash', '-c', script, 'mimic', count, trigger);
    const a1 = t.attach();
    await waitForStrip(a1, ['sh', 'mimic'], 'sh');

    // A starting tab spins too; the claim is about a running one, so wait for it to run.
    await waitFor(() => counter(count) >= 1, { what: 'the mimic to print' });
    await waitForChipGlyph(a1, 'mimic', '', 'no glyph (running)');

    // Never reported: no glyph, however long it prints.
    const seen = new Set<string>();
    await waitFor(async () => {
      seen.add(await chipGlyph(a1, 'mimic'));
      return counter(count) >= 30;
    }, { what: 'the mimic to print 30 times' });
    expect([...seen]).toEqual(['']);

    // Its screen does hold the look-alikes, and viewing it shows no glyph either.
    a1.write(KEY.jump2);
    await waitForStrip(a1, ['sh', 'mimic'], 'mimic');
    await a1.waitForText(/✓ ⠋ ⠙ ⠹ ⠸ working \d+/);
    expect(await chipGlyph(a1, 'mimic')).toBe('');
    a1.write(KEY.jump1);
    await waitForStrip(a1, ['sh', 'mimic'], 'sh');

    // What the bridge says wins, and stays while the look-alikes keep coming.
    fs.writeFileSync(trigger, '');
    await waitForChipGlyph(a1, 'mimic', '?');
    const after = new Set<string>();
    const from = counter(count);
    await waitFor(async () => {
      after.add(await chipGlyph(a1, 'mimic'));
      return counter(count) >= from + 30;
    }, { what: 'the mimic to print 30 more times' });
    expect([...after]).toEqual(['?']);
  });

  it("refuses a report made with one tab's token on another tab's bridge", async () => {
    t = e2e();
    t.env.A1_BIN = A1_BIN;
    const aId = await newTab('--name', 'tab-a');
    const bId = await newTab('--name', 'tab-b');
    const a1 = t.attach();
    await waitForStrip(a1, ['tab-a', 'tab-b'], 'tab-a');
    await shellReady(a1);
    const l = await waitForListing(t, ['tab-a', 'tab-b']);
    expect(tabId(l, 'tab-a')).toBe(aId);
    const bEnv = environOf(listedTab(l, bId).childPid as number);
    expect(bEnv.A1_TAB_ID).toBe(bId);
    expect(bEnv.A1_BRIDGE).toBeTruthy();
    expect(environOf(listedTab(l, aId).childPid as number).A1_BRIDGE).not.toBe(bEnv.A1_BRIDGE);
    const mark = a1.mark();

    // Tab A's own id and token, aimed at B's bridge. The echoed results are computed by the shell,
    // so the typed command line never satisfies the wait.
    a1.write(`A1_BRIDGE='${bEnv.A1_BRIDGE}' "$A1_BIN" status needs-input && echo accepted-$((40+1)) || echo refused-$((40+1))\r`);
    await a1.waitForText(/^refused-41$/);
    expect(a1.screenText().some((line) => /^accepted-41$/.test(line))).toBe(false);

    // Not even B's own credentials work from A: the reporter must run in B (a shared agent daemon
    // started in one tab carries that tab's credentials into every other tab's agent).
    a1.write(
      `A1_TAB_ID='${bId}' A1_BRIDGE='${bEnv.A1_BRIDGE}' A1_BRIDGE_TOKEN='${bEnv.A1_BRIDGE_TOKEN}' "$A1_BIN" status needs-input && echo accepted-$((40+2)) || echo refused-$((40+2))\r`,
    );
    await a1.waitForText(/^refused-42$/);

    // B's own shell, with its own credentials, is heard.
    a1.write('\x1b.');
    await waitForStrip(a1, ['tab-a', 'tab-b'], 'tab-b');
    a1.write(`"$A1_BIN" status error && echo accepted-$((40+3))\r`);
    await a1.waitForText(/^accepted-43$/);
    await waitForChipGlyph(a1, 'tab-b', '✗');
    // B's chip never showed the refused `?` on the way (every frame the client drew is here).
    expect(drawnText(a1.rawOutput(mark))).not.toContain('?');
    expect(await chipGlyph(a1, 'tab-a')).toBe('');
  });

  // Issue 28 item 12: bash runs a subshell's last command in the subshell's own process, whose
  // pid is older than that of the report before it; the report still lands.
  it.each([
    ['as the subshell\'s last command', ''],
    ['with a command after it', '; true'],
  ])('a report sent from a backgrounded subshell %s follows the one sent before it', async (_how, tail) => {
    t = e2e();
    t.env.A1_BIN = A1_BIN;
    await newTab('--name', 'sh');
    const bgId = await newTab('--name', 'bg');
    const a1 = t.attach();
    await waitForStrip(a1, ['sh', 'bg'], 'sh');
    await shellReady(a1);
    const result = path.join(t.home.dir, 'reports.result');
    const reports = `(sleep 0.5; "$A1_BIN" status needs-input; sleep 1; "$A1_BIN" status done${tail}) & wait $!; echo "reports-exit-$?" > '${result}'`;
    const sent = await t.run('send', 'bg', reports, 'Enter');
    expect(sent.code, sent.stderr).toBe(0);
    await waitForChipGlyph(a1, 'bg', '?');
    expect(await waitFor(() => fs.existsSync(result) && fs.readFileSync(result, 'utf8').trim(), { what: 'both reports sent' })).toBe('reports-exit-0');
    await waitForChipGlyph(a1, 'bg', '✓');
    expect(listedTab(await listing(t), bgId)).toMatchObject({ glyph: 'done', attention: 'done' });
  });

  it('lets no bell from a viewed or a background child reach the outer terminal', async () => {
    t = e2e();
    const count = path.join(t.home.dir, 'bells.count');
    const script = 'i=0; while :; do i=$((i+1)); printf "bg-bell-%d\\a\\n" "$i"; echo "$i" > "$1"; sleep 0.01; done';
    await newTab('--name', 'fg');
    await newTab('--name', 'bg', '--', '/bin/bash', '-c', script, 'bells', count);
    const a1 = t.attach();
    await waitForStrip(a1, ['fg', 'bg'], 'fg');
    await shellReady(a1);
    const mark = a1.mark();

    a1.write(`for i in $(seq 1 300); do printf 'fg-bell-%d\\a\\n' "$i"; done; echo fg-done-$((40+2))\r`);
    await a1.waitForText(/^fg-done-42$/);
    await waitFor(() => counter(count) >= 100, { what: 'the background child to ring 100 bells' });

    // Viewed, the background child keeps ringing.
    a1.write(KEY.jump2);
    await waitForStrip(a1, ['fg', 'bg'], 'bg');
    const later = counter(count) + 50;
    await a1.waitForScreen(
      (lines) => lines.some((l) => Number(/^bg-bell-(\d+)$/.exec(l)?.[1] ?? 0) >= later),
      undefined,
      `bg-bell-${later} on screen`,
    );
    // Both children's bell lines reached this client's screen (awaited above) through this stream;
    // its bytes are not searched for them, since the client writes only the cells that changed
    // ("fg-bell-12" becomes "bg-bell-12" by one byte).
    const bytes = a1.bytesSince(mark);
    expect(bytes.length).toBeGreaterThan(0);
    expect(bytes.includes(0x07)).toBe(false);
  });

  it('a1 status refuses outside a tab; a Claude Code Stop hook marks an unviewed tab done', async () => {
    t = e2e();
    t.env.A1_BIN = A1_BIN;
    const outside = await t.run('status', 'idle');
    expect(outside.code).toBe(1);
    expect(outside.stdout).toBe('');
    expect(outside.stderr.trim().split('\n')).toHaveLength(1);
    expect(outside.stderr.trim()).toMatch(/^a1: [^.]+ tab\.$/);
    expect(serverSocketExists(t)).toBe(false);

    const trigger = path.join(t.home.dir, 'hook.go');
    const result = path.join(t.home.dir, 'hook.result');
    await newTab('--name', 'sh');
    await newTab('--name', 'hk');
    const a1 = t.attach();
    await waitForStrip(a1, ['sh', 'hk'], 'sh');
    a1.write(KEY.jump2);
    await waitForStrip(a1, ['sh', 'hk'], 'hk');
    await shellReady(a1);
    // Working now; the Stop hook runs once the test says so, when the tab is no longer viewed.
    const payload = JSON.stringify({ session_id: 's', hook_event_name: 'Stop' });
    a1.write(
      `"$A1_BIN" status working && until [ -e '${trigger}' ]; do sleep 0.05; done;` +
        ` echo '${payload}' | "$A1_BIN" status --hook claude:Stop; echo "hook-exit-$?" > '${result}'\r`,
    );
    await waitForChipGlyph(a1, 'hk', isSpinner, 'a spinner frame');
    a1.write(KEY.jump1);
    await waitForStrip(a1, ['sh', 'hk'], 'sh');
    expect(isSpinner(await chipGlyph(a1, 'hk'))).toBe(true);

    fs.writeFileSync(trigger, '');
    await waitForChipGlyph(a1, 'hk', '✓');
    expect(await waitFor(() => fs.existsSync(result) && fs.readFileSync(result, 'utf8').trim())).toBe('hook-exit-0');
    expect((await listing(t)).tabs.map((x) => x.status)).toEqual(['running', 'running']);
  });
});
