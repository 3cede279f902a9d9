// A tab hidden by the strip that wants the user is never invisible (issue 28 item 4): ten tabs in
// a 120-column terminal, viewing the tenth, the third asking (`?`). The hidden tabs collapse into
// one `…` chip on their side, the left, carrying that `?` in yellow; its menu lists every tab
// with its glyph, marks the viewed one, opens at the chip and starts on the tab that asks.
import { describe, it, expect, afterEach } from 'vitest';
import { e2e, listing, probeViewed, readStrip, sgrMouse, STRIP_ROW, stripPlaces, tabId, waitForListing, type E2E } from './harness.js';
import { a1Argv } from '../helpers/pty.js';
import { waitFor } from '../helpers/wait.js';

/** Alt+0: view tab 10. */
const JUMP_10 = '\x1b0';
/** The row (0-based) where an overlay's box starts: one below the strip (OVERLAY_TOP_GAP). */
const OVERLAY_TOP_ROW = 2;
/** ANSI yellow, the colour of a `?` glyph (SPEC §8). */
const YELLOW = 3;

/** Ten tabs as the issue saw them; together too wide for 120 columns, so viewing the tenth hides
 *  the first three. */
const NAMES = [
  'web-frontend', 'payments-api', 'api-tests', 'auth-service-v2', 'billing-worker', 'search-indexer', 'ci-pipeline-fix', 'docs-update', 'migrate-db', 'infra-terraform',
];
const ASKING = 'api-tests';

let t: E2E;
afterEach(async () => {
  await t?.teardown();
});

/** `a1 new --name NAME`; the asking tab's program reports `needs-input` over its bridge first,
 *  as an agent's hook does, then stays. */
async function newTab(name: string): Promise<void> {
  const report = a1Argv('status', 'needs-input', '--agent', 'generic').map((a) => `'${a}'`).join(' ');
  const command = name === ASKING ? ['--', '/bin/bash', '-c', `${report} && exec sleep 100000`] : [];
  const r = await t.run('new', '--name', name, ...command);
  expect(r.code, r.stderr).toBe(0);
}

describe('a hidden tab that needs you', () => {
  it('ten tabs viewing the tenth: the `…` chip on the left carries the hidden `?`, and its menu lists the glyphs', async () => {
    t = e2e();
    for (const name of NAMES) await newTab(name);
    const l = await waitForListing(t, NAMES);
    await waitFor(async () => (await listing(t)).tabs.find((x) => x.name === ASKING)?.attention === 'needs-input', { what: `${ASKING} needing input` });
    const a1 = t.attach();
    await waitFor(async () => (await readStrip(a1)).names.length > 0, { what: 'the strip drawn' });
    a1.write(JUMP_10);
    await waitFor(async () => (await readStrip(a1)).viewed === 'infra-terraform', { what: 'the tenth tab viewed' });
    await probeViewed(a1, tabId(l, 'infra-terraform'));

    const shown = NAMES.slice(3);
    const places = await waitFor(async () => {
      const p = await stripPlaces(a1);
      return p.overflows.length === 1 && p.overflows[0].glyph === '?' ? p : null;
    }, { what: 'one `…` chip carrying `?`' }).catch(async (error: Error) => {
      throw new Error(`${error.message}; strip was "${(await readStrip(a1)).text}"`);
    });
    expect((await readStrip(a1)).text.trimEnd()).toBe(` ? …  ${shown.slice(0, -1).join('  ')} [infra-terraform] +`);
    expect(places.chips.map((c) => c.name)).toEqual(shown);
    // On the side of the tabs it hides: left of every chip.
    expect(places.overflows[0].x).toBeLessThan(places.chips[0].x);
    expect(a1.cell(places.overflows[0].x, 0)).toMatchObject({ chars: '?', fg: YELLOW });

    // Its menu: at the chip, every tab with its glyph, the viewed one marked, starting on the asker.
    const boxColumn = places.overflows[0].x - 1;
    a1.write(sgrMouse.leftPress(places.overflows[0].x + 1, STRIP_ROW) + sgrMouse.leftRelease(places.overflows[0].x + 1, STRIP_ROW));
    const asking = /│ {3}\? api-tests +│/;
    const lines = await a1.waitForScreen((s) => s.some((line) => asking.test(line)), undefined, 'the overflow menu listing the asking tab with its `?`');
    expect(lines[OVERLAY_TOP_ROW].indexOf('╭')).toBe(boxColumn);
    expect(lines.some((line) => /│ • infra-terraform +│/.test(line))).toBe(true);
    for (const name of NAMES.filter((n) => n !== ASKING && n !== 'infra-terraform')) {
      expect(lines.some((line) => new RegExp(`│ {3}${name} +│`).test(line)), name).toBe(true);
    }
    const row = lines.findIndex((line) => asking.test(line));
    expect(a1.cell(lines[row].indexOf('api-tests'), row).inverse).toBe(true);
    a1.write('\r');
    await waitFor(async () => (await readStrip(a1)).viewed === ASKING, { what: `${ASKING} viewed from the menu` });
  });
});
