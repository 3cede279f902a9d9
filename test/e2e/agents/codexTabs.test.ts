// Codex 0.169 started by hand in a1 tabs (issue 28, items 1 and 9): typed `codex` in two shell
// tabs, the way a person starts it. Codex otherwise shares one background app-server between every
// Codex of a CODEX_HOME, started inside whichever tab needed it first and running every Codex's
// hooks with that tab's environment. Real Codex on its loopback mock model (test/agents).
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PtyDriver } from '../../helpers/pty.js';
import { isAlive, statFields } from '../../helpers/procs.js';
import { waitFor } from '../../helpers/wait.js';
import { KEY, PROMPT_SEEN } from '../harness.js';
import { AGENTS_DIR } from '../../agents/rig.js';
import { isSharedAgentServer } from '../../../src/lifecycle/agents.js';
import {
  AGENT_WAIT_MS,
  agentHomePids,
  agentWorld,
  chipGlyph,
  ensureAgents,
  INSTALL_TIMEOUT_MS,
  waitForStill,
  tabEntry,
  tabPids,
  waitForEntry,
  watchGlyphs,
  type AgentWorld,
} from './agentHarness.js';

const READY = 'Ask Codex to do anything';
/** Codex's screen for a conversation another process holds (its shared app-server, say). */
const HELD_ELSEWHERE = 'This conversation is open in another app';
const AGENT_BIN_DIR = path.join(AGENTS_DIR, 'node_modules', '.bin');

let w: AgentWorld | null = null;

afterEach(async () => {
  await w?.teardown();
  w = null;
});

beforeAll(() => ensureAgents(), INSTALL_TIMEOUT_MS);

function argvOf(pid: number): string[] {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return [];
  }
}

/** Whether `pid` is `ancestor` or runs under it. */
function descendsFrom(pid: number, ancestor: number): boolean {
  for (let p = pid, hops = 0; p > 1 && hops < 64; hops++) {
    if (p === ancestor) return true;
    const ppid = Number(statFields(p)?.[1]);
    if (!Number.isSafeInteger(ppid)) return false;
    p = ppid;
  }
  return false;
}

/** The live shared app-servers of the agents' HOME. */
function sharedServers(world: AgentWorld): number[] {
  return agentHomePids(world).filter((pid) => isSharedAgentServer(argvOf(pid)));
}

/** Two shell tabs, `one` then `two`, in the agents' work dir, viewed by a new client on `one`. */
async function twoShellTabs(world: AgentWorld): Promise<{ a1: PtyDriver; one: string; two: string }> {
  const one = (await world.t.run('new', '--name', 'one', '--cwd', world.agent.work)).stdout.trim();
  const two = (await world.t.run('new', '--name', 'two', '--cwd', world.agent.work)).stdout.trim();
  const a1 = world.t.attach();
  await a1.waitForText(PROMPT_SEEN, AGENT_WAIT_MS);
  return { a1, one, two };
}

/** Types `command` at the viewed shell's prompt and waits for Codex's empty prompt. */
async function startCodex(a1: PtyDriver, command: string): Promise<void> {
  await a1.waitForScreen((rows) => rows.slice(1).some((r) => r.trimEnd().endsWith(PROMPT_SEEN)), AGENT_WAIT_MS, 'the shell prompt');
  a1.write(`${command}\r`);
  await a1.waitForText(READY, AGENT_WAIT_MS);
}

/** Types a prompt into the viewed Codex and submits it. The Enter goes once the screen has been
 * still a while: Codex takes an Enter within 120 ms of a burst of typed characters for a newline
 * in a paste (its paste_burst.rs), and a loaded machine draws late. */
async function enter(a1: PtyDriver, prompt: string): Promise<void> {
  await a1.flush();
  const count = (rows: string[]) => rows.filter((r) => r.includes(prompt)).length;
  const before = count(a1.screenText());
  a1.write(prompt);
  await a1.waitForScreen((rows) => count(rows) > before, AGENT_WAIT_MS, `the typed "${prompt}" on screen`);
  await waitForStill(a1, 300);
  a1.write('\r');
}

/** A turn in the viewed Codex: the answer on screen, and Codex's prompt back. */
async function say(a1: PtyDriver, words: string): Promise<void> {
  await enter(a1, `say ${words}`);
  await a1.waitForText(`• ${words}`, AGENT_WAIT_MS);
  await a1.waitForText(READY, AGENT_WAIT_MS);
}

/** The tab's Codex as a script sees it once its turn is over: idle, with its own session id. */
async function idleSession(world: AgentWorld, id: string, what: string): Promise<string> {
  const entry = await waitForEntry(world.t, id, (e) => e.agent?.state === 'idle' && typeof e.agent.sessionId === 'string', what);
  return entry.agent!.sessionId!;
}

describe('codex typed by hand in shell tabs', () => {
  it('each tab runs its own Codex: its chip and session follow its own turns, and closing the first leaves the second answering', async () => {
    w = await agentWorld();
    const { a1, one, two } = await twoShellTabs(w);
    await startCodex(a1, 'codex');
    a1.write(KEY.nextTab);
    await startCodex(a1, 'codex');
    // No Codex in a tab joined or started the shared app-server.
    expect(sharedServers(w)).toEqual([]);

    await say(a1, 'from two');
    const sessionTwo = await idleSession(w, two, 'two idle with its session after its turn');
    // The first tab's Codex said nothing yet: nothing of the second's reached it.
    const oneBefore = await tabEntry(w.t, one);
    expect(oneBefore.agent?.sessionId ?? null).toBeNull();
    expect(await chipGlyph(a1, 'one')).toBe('none');

    // A background turn in two spins two's chip only.
    await enter(a1, 'slow 3');
    a1.write(KEY.prevTab);
    const seenTwo = await watchGlyphs(a1, 'two', (s) => s.includes('spinning') && s[s.length - 1] === 'done');
    expect(seenTwo).toContain('spinning');
    expect(await chipGlyph(a1, 'one')).toBe('none');

    await say(a1, 'from one');
    const sessionOne = await idleSession(w, one, 'one idle with its session after its turn');
    expect(sessionOne).not.toBe(sessionTwo);
    expect((await tabEntry(w.t, two)).agent?.sessionId).toBe(sessionTwo);

    expect((await w.t.run('tabs', 'stop', one)).code).toBe(0);
    await waitFor(() => tabPids(one).length === 0, { what: 'every process of tab one gone' });
    await a1.waitForText(READY, AGENT_WAIT_MS);
    await say(a1, 'two still answers');
    // Codex draws its answer before its Stop hook reports: the chip settles a moment later.
    expect(await idleSession(w, two, 'two idle again after its turn')).toBe(sessionTwo);
  });

  it('a Codex that bypasses the shim and shares an app-server: nothing that server runs speaks for the tab that started it, and closing that tab leaves the server to the other', async () => {
    w = await agentWorld();
    // Tab one runs the real codex by its path, and tab two's user's PATH puts it first (as nvm's
    // does after a1's shim): the first starts Codex's shared app-server, the second joins it.
    const r = await w.t.run('new', '--agent', 'codex', '--name', 'one', '--cwd', w.agent.work, '--', path.join(AGENT_BIN_DIR, 'codex'));
    expect(r.code).toBe(0);
    const one = r.stdout.trim();
    const two = (await w.t.run('new', '--name', 'two', '--cwd', w.agent.work)).stdout.trim();
    const a1 = w.t.attach();
    await a1.waitForText(READY, AGENT_WAIT_MS);
    await waitFor(() => sharedServers(w!).length === 1, { timeoutMs: AGENT_WAIT_MS, what: "Codex's shared app-server started from tab one" });
    a1.write(KEY.nextTab);
    await startCodex(a1, `PATH=${AGENT_BIN_DIR}:$PATH codex`);
    // Still one server, and it runs with tab one's environment: tab two joined it. (Its pid is read
    // only now: Codex may hand its first app-server process on to another while it installs it.)
    const [server] = await waitFor(() => {
      const servers = sharedServers(w!);
      return servers.length === 1 ? servers : null;
    }, { what: 'one shared app-server for both tabs', timeoutMs: AGENT_WAIT_MS });
    expect(tabPids(one)).toContain(server);

    await say(a1, 'shared two');
    // Its hooks ran in the server, with tab one's bridge: refused, so tab one shows none of it.
    await waitFor(() => holderLogs(w!).includes('bridge-report-from-outside'), { timeoutMs: AGENT_WAIT_MS, what: "the holder refusing the shared server's reports" });
    expect((await tabEntry(w.t, one)).agent?.sessionId ?? null).toBeNull();
    expect(await chipGlyph(a1, 'one')).toBe('none');
    expect((await tabEntry(w.t, two)).agent ?? null).toBeNull();

    expect((await w.t.run('tabs', 'stop', one)).code).toBe(0);
    // What lives on of tab one is the server and what it runs for its clients.
    await waitFor(() => tabPids(one).every((pid) => descendsFrom(pid, server)), { what: "tab one's own processes gone" }).catch((error: Error) => {
      throw new Error(`${error.message}; left: ${tabPids(one).map((pid) => `${pid}<${statFields(pid)?.[1]} ${argvOf(pid).join(' ').slice(0, 80)}`).join(' | ')}; server ${server}`);
    });
    expect(isAlive(server)).toBe(true);
    await say(a1, 'two after one closed');
  });

  it('a Codex the tab started without --no-daemon comes back after kill -9 as its own resume brings it back', async () => {
    w = await agentWorld();
    const r = await w.t.run('new', '--agent', 'codex', '--name', 'cx', '--cwd', w.agent.work, '--', 'codex');
    expect(r.code).toBe(0);
    const id = r.stdout.trim();
    const a1 = w.t.attach();
    await a1.waitForText(READY, AGENT_WAIT_MS);
    await say(a1, 'before the kill');
    const session = await idleSession(w, id, 'cx idle with its session');
    expect(sharedServers(w)).toEqual([]);
    const child = (await tabEntry(w.t, id)).childPid;
    // The native binary under Codex's npm wrapper (the tab's child), which ends with it.
    const codex = tabPids(id).find((pid) => /\/vendor\/[^/]+\/bin\/codex$/.test(argvOf(pid)[0] ?? ''));
    expect(codex).toBeDefined();
    process.kill(codex!, 'SIGKILL');
    await waitForEntry(w.t, id, (e) => e.status === 'running' && e.childPid !== null && e.childPid !== child, 'cx restarted');
    await a1.waitForScreen((rows) => rows.some((row) => row.includes('• before the kill')) && rows.some((row) => row.includes(READY)), AGENT_WAIT_MS, 'the resumed conversation at its prompt');
    expect(a1.screenText().join('\n')).not.toContain(HELD_ELSEWHERE);
    await say(a1, 'after the kill');
    expect(await idleSession(w, id, 'cx idle again after its turn')).toBe(session);
  });
});

/** Every holder log of the test's profile, as text (allowlisted metadata only). */
function holderLogs(world: AgentWorld): string {
  const dir = path.join(world.t.home.dir, 'state');
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.startsWith('holder-')) out.push(fs.readFileSync(p, 'utf8'));
    }
  };
  walk(dir);
  return out.join('\n');
}
