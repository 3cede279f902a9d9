// Reading back a 10,000-line history (a1 only; the targets are fixed bounds, issue 8).
//
// Scroll: the wheel at a trackpad's pace, one notch every 1/60 s whether or not the last one has
// been drawn, from the live screen back through the history. Each notch's latency is from its
// write until the screen first shows the view it asked for (or one further back, when a paint
// covered several notches). Holding 60 frames per second means a notch is drawn within a frame:
// p95 ≤ 16.7 ms.
//
// Search: in copy mode, from the Enter that ends `/NEEDLE` until the indicator counts every
// planted match, then `q`; repeated, each from a fresh copy mode.

import { setTimeout as delay } from 'node:timers/promises';
import { performance } from 'node:perf_hooks';
import { percentile } from '../lib/stats.mjs';
import { PROMPT, a1, withSystem } from '../lib/systems.mjs';

const HISTORY_LINES = 10_000;
/** Every 997th line carries the word: 10 matches, spread over the whole history. */
const PLANT_EVERY = 997;
const PLANTED = Math.floor(HISTORY_LINES / PLANT_EVERY);
/** 10 s of wheeling at 60 notches a second: 1,800 lines, across several of the holder's pages. */
const NOTCHES = 600;
const NOTCH_MS = 1000 / 60;
/** Lines one notch scrolls in a1. */
const WHEEL_LINES = 3;
/** SGR wheel-up over the surface, as the outer terminal reports it. */
const WHEEL_UP = '\x1b[<64;20;20M';
const ALT_K = '\x1bk';
const SEARCHES = 20;
const INDICATOR = /copy · line \d+ of \d+/;
const SETUP_TIMEOUT_MS = 30_000;
/** Far above the targets: a slow step is measured, a missing one fails. */
const STEP_TIMEOUT_MS = 10_000;
const PROMPT_SEEN = PROMPT.trimEnd();

/** The history line at the top of the surface (row 0 is the strip), or null. */
function topLine(lines) {
  const m = /^line (\d+)/.exec(lines[1] ?? '');
  return m ? Number(m[1]) : null;
}

const showsIndicator = (lines, re = INDICATOR) => lines.some((line) => re.test(line));

async function printHistory(client) {
  // awk builds the word, so the typed command line never contains it.
  client.write(`clear; seq 1 ${HISTORY_LINES} | awk '{ if ($1 % ${PLANT_EVERY} == 0) print "line " $1 " NEE" "DLE"; else print "line " $1 }'\r`);
  const { lines } = await client.waitForScreen(
    (screen) => screen.some((l) => l.startsWith(`line ${HISTORY_LINES}`)) && screen.at(-1)?.trim() === PROMPT_SEEN,
    { timeoutMs: SETUP_TIMEOUT_MS, what: `${HISTORY_LINES} lines printed and the prompt back` },
  );
  return lines;
}

async function timeScroll(client, liveTop) {
  const samples = [];
  const waits = [];
  const start = performance.now();
  for (let i = 1; i <= NOTCHES; i++) {
    const due = start + (i - 1) * NOTCH_MS;
    const ahead = due - performance.now();
    if (ahead > 1) await delay(ahead);
    const want = Math.max(1, liveTop - WHEEL_LINES * i);
    const drawn = client.waitForScreen(
      (lines) => {
        const top = topLine(lines);
        return top !== null && top <= want && showsIndicator(lines);
      },
      { timeoutMs: STEP_TIMEOUT_MS, what: `the view of notch ${i} (line ${want} on top)` },
    );
    const sent = client.write(WHEEL_UP);
    waits.push(drawn.then(({ at }) => samples.push(Math.max(0, at - sent))));
  }
  await Promise.all(waits);
  return { samples };
}

async function timeSearches(client) {
  const samples = [];
  for (let i = 0; i < SEARCHES; i++) {
    client.write(ALT_K);
    await client.waitForScreen((lines) => showsIndicator(lines), { timeoutMs: STEP_TIMEOUT_MS, what: 'copy mode' });
    client.write('/NEEDLE');
    await client.waitForScreen((lines) => showsIndicator(lines, /\/NEEDLE/), { timeoutMs: STEP_TIMEOUT_MS, what: 'the search text' });
    const counted = new RegExp(`(match \\d+ of|) ${PLANTED}( matches)? · q leaves`);
    const found = client.waitForScreen((lines) => showsIndicator(lines, counted), { timeoutMs: STEP_TIMEOUT_MS, what: `all ${PLANTED} matches` });
    const sent = client.write('\r');
    const { at } = await found;
    samples.push(at - sent);
    client.write('q');
    await client.waitForScreen((lines) => !showsIndicator(lines) && !lines.some((l) => /match \d+ of|\/NEEDLE/.test(l)), {
      timeoutMs: STEP_TIMEOUT_MS,
      what: 'copy mode left',
    });
  }
  return samples;
}

async function measureHistory(client) {
  const lines = await printHistory(client);
  const liveTop = topLine(lines);
  if (liveTop === null) throw new Error(`no history line at the top of the screen:\n${lines.join('\n')}`);
  const scroll = await timeScroll(client, liveTop);
  client.write('q');
  await client.waitForScreen((screen) => !showsIndicator(screen), { timeoutMs: STEP_TIMEOUT_MS, what: 'the live view again' });
  const search = await timeSearches(client);
  return {
    scrollP50: percentile(scroll.samples, 50),
    scrollP95: percentile(scroll.samples, 95),
    scrollLate: (100 * scroll.samples.filter((ms) => ms > NOTCH_MS).length) / scroll.samples.length,
    searchP50: percentile(search, 50),
    searchP95: percentile(search, 95),
  };
}

export const history = {
  name: 'history',
  description: 'wheel scroll and search in a 10,000-line history (a1)',
  metrics: [
    { key: 'scrollP50', label: `wheel notch to its view, 10,000-line history, p50`, unit: 'ms' },
    { key: 'scrollP95', label: `wheel notch to its view, 10,000-line history, p95`, unit: 'ms' },
    { key: 'scrollLate', label: `wheel notches drawn later than one 60 Hz frame`, unit: '%' },
    { key: 'searchP50', label: `search of 10,000 lines to every match counted, p50`, unit: 'ms' },
    { key: 'searchP95', label: `search of 10,000 lines to every match counted, p95`, unit: 'ms' },
  ],
  prepare: () => ({}),
  drivers: { a1: (ctx) => withSystem(a1, ctx, measureHistory) },
};
