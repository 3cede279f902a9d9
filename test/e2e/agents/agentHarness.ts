// What the real-agent end-to-end tests share: a hermetic a1 with the real Claude Code and Codex on
// loopback mock models (test/agents/rig.ts), the chip as a person reads it, `a1 tabs --json` with
// the agent's status, and the processes of one tab.
import fs from 'node:fs';
import path from 'node:path';
import { commandListing, e2e, type E2E } from '../harness.js';
import type { ScriptTab as ListingEntry, ScriptTabs as Listing } from '../../../src/status/scripting.js';
import { ensureAgents, prepareAgentHome, startMockModel, type AgentHome, type AgentName, type MockModel } from '../../agents/rig.js';
import type { PtyDriver } from '../../helpers/pty.js';
import { pidsWithEnv, isAlive } from '../../helpers/procs.js';
import { waitFor, type WaitOptions } from '../../helpers/wait.js';

export { ensureAgents, INSTALL_TIMEOUT_MS } from '../../agents/rig.js';

/** A real agent needs seconds to start and to answer, more on a loaded machine. */
export const AGENT_WAIT_MS = 60_000;

export interface AgentWorld {
  t: E2E;
  mock: MockModel;
  agent: AgentHome;
  teardown(): Promise<void>;
}

/** A fresh a1 (its own A1_HOME) whose tabs see the agents' HOME, PATH and mock model. */
export async function agentWorld(config: object = {}): Promise<AgentWorld> {
  ensureAgents();
  const t = e2e({ closeGraceMs: 1_000, ...config });
  const mock = await startMockModel(t.home.dir);
  const agent = prepareAgentHome(t.home.dir, mock.port, t.env);
  Object.assign(t.env, agent.env);
  return {
    t,
    mock,
    agent,
    teardown: async () => {
      await t.teardown();
      await mock.stop();
    },
  };
}

/**
 * `a1 tabs --json` (SPEC §15 listing, with the agent's status: issue 14), run as the command. A
 * real agent's hooks can report a turn after its answer is on the screen, and a poll answered in
 * process read the state from before the turn as its end: `turn` in realAgents.test.ts returned
 * early, and the turn's own end then came in unviewed, a ✓ the test did not expect (seen once in a
 * clean-clone run, 'codex' "two tabs of it never touch each other's chip"). Until those tests see
 * the turn reported, not only its answer, they keep the command's pace, as they always had.
 */
export function listAgents(t: E2E): Promise<Listing> {
  return commandListing(t);
}

/**
 * Whether the agent has saved session `sessionId` with an answer holding `text`: an agent writes
 * its conversation on its own schedule, after it reports idle, so a test that kills it to see the
 * session resumed waits for this first (a kill before it loses the turn, with or without a1).
 * Claude Code saves to ~/.claude/projects/<dir>/<session>.jsonl, Codex to
 * $CODEX_HOME/sessions/<date>/rollout-<time>-<session>.jsonl; both a line per message.
 */
export function conversationSaved(w: AgentWorld, sessionId: string, text: string): boolean {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.jsonl') && e.name.includes(sessionId)) files.push(p);
    }
  };
  walk(w.agent.home);
  return files.some((f) => fs.readFileSync(f, 'utf8').split('\n').some((line) => line.includes('"role":"assistant"') && line.includes(text)));
}

export async function tabEntry(t: E2E, tabId: string): Promise<ListingEntry> {
  const tab = (await listAgents(t)).tabs.find((x) => x.id === tabId);
  if (!tab) throw new Error(`tab ${tabId} is not listed`);
  return tab;
}

/** Creates an agent tab with `a1 new` in the agent's work dir; returns its id. */
export async function newAgentTab(w: AgentWorld, kind: AgentName, name: string): Promise<string> {
  const r = await w.t.run('new', '--agent', kind, '--name', name, '--cwd', w.agent.work);
  if (r.code !== 0) throw new Error(`a1 new exited ${r.code}: ${r.stderr.trim()}`);
  return r.stdout.trim();
}

/** What a chip's glyph means, as src/status/glyphs.ts draws it. */
export type ChipGlyph = 'none' | 'spinning' | 'needs-input' | 'done' | 'error' | 'asleep' | 'unresponsive' | 'stalled';
const GLYPH_OF: Readonly<Record<string, ChipGlyph>> = { '?': 'needs-input', '✓': 'done', '✗': 'error', '◌': 'asleep', '!': 'unresponsive', '⧗': 'stalled' };
const SPINNER = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/;

/** The glyph on the chip named `name`, as the screen shows it; null when there is no such chip. */
export async function chipGlyph(a1: PtyDriver, name: string): Promise<ChipGlyph | null> {
  await a1.flush();
  // The viewed chip's brackets (`[name]`) stand for its padding.
  const strip = ` ${a1.line(0).replace(/[[\]]/g, ' ')} `;
  const at = strip.indexOf(` ${name} `);
  if (at < 0) return null;
  // A chip is ` [glyph ]name `: a glyph sits right before the space before the name, after a space.
  const glyph = strip[at - 1];
  if (glyph === undefined || glyph === ' ' || strip[at - 2] !== ' ') return 'none';
  if (SPINNER.test(glyph)) return 'spinning';
  return GLYPH_OF[glyph] ?? 'none';
}

export async function waitForGlyph(a1: PtyDriver, name: string, glyph: ChipGlyph, opts: WaitOptions = {}): Promise<void> {
  let last: ChipGlyph | null = null;
  try {
    await waitFor(async () => (last = await chipGlyph(a1, name)) === glyph, { timeoutMs: AGENT_WAIT_MS, what: `chip "${name}" showing ${glyph}`, ...opts });
  } catch (error) {
    throw new Error(`${(error as Error).message}; it shows ${last}; strip "${a1.line(0)}"`);
  }
}

/**
 * Watches a chip until `until` holds, sampling the screen every few ms; returns every distinct
 * glyph seen in order (a person's view of the transitions).
 */
export async function watchGlyphs(a1: PtyDriver, name: string, until: (seen: ChipGlyph[]) => boolean, timeoutMs = AGENT_WAIT_MS): Promise<ChipGlyph[]> {
  const seen: ChipGlyph[] = [];
  await waitFor(
    async () => {
      const g = await chipGlyph(a1, name);
      if (g !== null && seen[seen.length - 1] !== g) seen.push(g);
      return until(seen);
    },
    { timeoutMs, intervalMs: 20, what: `chip "${name}" transitions` },
  ).catch((error: Error) => {
    throw new Error(`${error.message}; saw ${JSON.stringify(seen)}; strip "${a1.line(0)}"`);
  });
  return seen;
}

/** Waits until `a1 tabs --json` says what `check` wants of the tab. */
export async function waitForEntry(t: E2E, tabId: string, check: (e: ListingEntry) => boolean, what: string): Promise<ListingEntry> {
  let last: ListingEntry | null = null;
  try {
    return await waitFor(async () => {
      last = await tabEntry(t, tabId);
      return check(last) ? last : null;
    }, { timeoutMs: AGENT_WAIT_MS, what });
  } catch (error) {
    throw new Error(`${(error as Error).message}; last listing ${JSON.stringify(last)}`);
  }
}

/** Every live process of the tab: its A1_TAB_ID marker (SPEC §15, counting processes). */
export function tabPids(tabId: string): number[] {
  return pidsWithEnv('A1_TAB_ID', tabId).filter(isAlive);
}

/** Every live process that runs from the agents' HOME (their daemons carry it in CODEX_HOME/HOME). */
export function agentHomePids(w: AgentWorld): number[] {
  return pidsWithEnv('HOME', w.agent.home).filter(isAlive);
}

/**
 * Types a prompt as a person does: the text, then Enter once the agent shows it. Agents read a
 * burst of characters ending in Enter as a paste, whose Enter is a newline, not a submit.
 */
export async function submit(a1: PtyDriver, text: string): Promise<void> {
  await a1.flush();
  const count = (lines: string[]) => lines.filter((l) => l.includes(text)).length;
  // The same prompt may be on screen already, from an earlier turn: wait for one more.
  const before = count(a1.screenText());
  a1.write(text);
  await a1.waitForScreen((lines) => count(lines) > before, AGENT_WAIT_MS, `the typed "${text}" on screen`);
  a1.write('\r');
}

/**
 * Waits until the screen below the strip has not changed for `quietMs`: the agent has drawn what
 * it was drawing (Claude Code ignores keys for about 150 ms after a dialog appears).
 */
export async function waitForStill(a1: PtyDriver, quietMs = 500): Promise<void> {
  let last = '';
  let since = Date.now();
  await waitFor(
    async () => {
      await a1.flush();
      const now = a1.screenText().slice(1).join('\n');
      if (now !== last) {
        last = now;
        since = Date.now();
      }
      return Date.now() - since >= quietMs;
    },
    { timeoutMs: AGENT_WAIT_MS, what: `the screen still for ${quietMs} ms` },
  );
}

/**
 * Waits until the screen shows what `ok` asks and has stayed still for `quietMs` while it did:
 * an agent that resumes a session first paints a placeholder ("Resuming session…") and sits on
 * it while it loads, which a bare wait for stillness takes for the finished screen.
 */
export async function waitForSettled(a1: PtyDriver, ok: (rows: string[]) => boolean, what: string, quietMs = 500): Promise<void> {
  await waitFor(
    async () => {
      await a1.waitForScreen(ok, AGENT_WAIT_MS, what);
      await waitForStill(a1, quietMs);
      return ok(a1.screenText());
    },
    { timeoutMs: AGENT_WAIT_MS, what },
  );
}

/**
 * The screen's rows from `from` on as a person sees them: each cell's character (an empty cell
 * is a blank) with its colours and attributes, runs of equal style marked `{fg,bg,flags}`, and
 * trailing unstyled blanks dropped. Two terminals that show the same thing give the same rows,
 * however each was told to draw it (a blank written in a colour, or a colour-erased cell).
 */
export function visibleRows(d: PtyDriver, from: number): string[] {
  const rows: string[] = [];
  for (let y = from; y < d.rows; y++) {
    let row = '';
    let style = '';
    let kept = '';
    for (let x = 0; x < d.cols; x++) {
      const c = d.cell(x, y);
      if (c.width === 0) continue;
      const flags = [c.bold && 'b', c.dim && 'd', c.italic && 'i', c.underline && 'u', c.inverse && 'r', c.strikethrough && 's'].filter(Boolean).join('');
      const next = `{${c.fg},${c.bg},${flags}}`;
      const ch = c.chars || ' ';
      if (next !== style) {
        row += next;
        style = next;
      }
      row += ch;
      // Everything up to the last cell a person could tell from an unstyled blank.
      if (ch !== ' ' || next !== '{-1,-1,}') kept = row;
    }
    rows.push(kept);
  }
  return rows;
}

/** Whether a file the agent's tool was to create exists. */
export function ran(w: AgentWorld, file: string): boolean {
  return fs.existsSync(path.join(w.agent.work, file));
}
