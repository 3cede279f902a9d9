// Helpers for the tab lifecycle end-to-end tests (close, restart, sleep, reboot): the fake agent
// fixture wired into a test's A1_HOME and agent tabs running it, the profile's sessions and resume
// records, and processes identified by pid and start time so a recycled pid never passes for a
// survivor.
import fs from 'node:fs';
import path from 'node:path';
import { Registry } from '../../src/store/registry.js';
import type { ResumeRecord } from '../../src/lifecycle/records.js';
import { sessionRows, type SessionRow } from '../../src/cli/sessionRows.js';
import { A1_BIN, REPO_ROOT } from '../helpers/pty.js';
import { isAlive, pidsWithEnv, startTimeOf } from '../helpers/procs.js';
import { waitFor } from '../helpers/wait.js';
import { listing, stateDir, stripPlaces, waitForStrip, type E2E, type Listing } from './harness.js';
import { KEY, livePids, runDir } from './harness.js';
import type { PtyDriver } from '../helpers/pty.js';
import { escapeRegExp } from '../helpers/regex.js';

export const FAKE_AGENT = path.join(REPO_ROOT, 'test', 'fixtures', 'fake-agent.mjs');

/** The notice on a tab whose agent crashed too often in a row to be restarted again. */
export const FAILED_NOTICE = 'failed: crashed 3 times · read-only';

/** The argv that runs the fake agent with this test runner's node. */
export function fakeAgentArgv(): string[] {
  return [process.execPath, FAKE_AGENT];
}

/**
 * Makes the fake agent's session directory under the test's A1_HOME and puts it (and the a1
 * binary it reports status with) in the test's environment. A tab's environment is the creating
 * client's, so call this before `a1 new` or attaching. Returns the directory.
 */
export function useFakeAgent(t: E2E): string {
  const dir = path.join(t.home.dir, 'agent-sessions');
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  t.env.FAKE_AGENT_DIR = dir;
  t.env.A1_BIN = A1_BIN;
  return dir;
}

/** `a1 new --agent generic --name <name> -- <argv>` (the fake agent by default); returns the new
 * tab's id, or throws with what the command printed. */
export async function newAgentTab(t: E2E, name: string, argv: readonly string[] = fakeAgentArgv()): Promise<string> {
  const made = await t.run('new', '--agent', 'generic', '--name', name, '--', ...argv);
  if (made.code !== 0) throw new Error(`a1 new exited ${made.code}: ${made.stderr.trim()}`);
  return made.stdout.trim();
}

/** An agent tab named `name` running `argv` (the fake agent by default) on a newly attached
 * client, which views it, once `a1 sessions` lists the session it holds: the client, the tab's id
 * and that session's row. Call useFakeAgent first. */
export async function viewedAgentTab(t: E2E, name: string, argv?: readonly string[]): Promise<{ a1: PtyDriver; id: string; session: SessionRow }> {
  const id = await newAgentTab(t, name, argv);
  const a1 = t.attach();
  await waitForStrip(a1, [name], name);
  const session = await waitForTabSession(t, id);
  return { a1, id, session };
}

/** A JSON-lines file as records; an absent file has none. */
export function readJsonLines(file: string): Record<string, unknown>[] {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** One line per start of the fake agent with this session: {pid, argv, resumed, at}. */
export function agentStarts(dir: string, sessionId: string): Record<string, unknown>[] {
  return readJsonLines(path.join(dir, `${sessionId}.starts.jsonl`));
}

/** One line per status report the fake agent made with this session: {state, ok, at}. */
export function agentReports(dir: string, sessionId: string): { state: string; ok: boolean; at: string }[] {
  return readJsonLines(path.join(dir, `${sessionId}.reports.jsonl`)) as { state: string; ok: boolean; at: string }[];
}

/** The start the fake agent process `pid` recorded, in any session, or undefined before it has. */
export function agentStartOf(dir: string, pid: number): Record<string, unknown> | undefined {
  for (const name of fs.readdirSync(dir)) {
    if (!name.endsWith('.starts.jsonl')) continue;
    const start = readJsonLines(path.join(dir, name)).find((s) => s.pid === pid);
    if (start !== undefined) return start;
  }
  return undefined;
}

/** The fake agent processes of `sessionId` alive now: every recorded start whose pid still runs
 * the fake agent, so a pid recycled by anything else never counts. */
export function liveAgents(dir: string, sessionId: string): number[] {
  return agentStarts(dir, sessionId)
    .map((s) => Number(s.pid))
    .filter((pid) => isAlive(pid) && argvOf(pid).includes(FAKE_AGENT));
}

/** Waits until a1 has acknowledged `count` `done` reports of the session's fake agent: a turn is
 * settled for a1 only then (a kill before it leaves the prompt to be offered back). */
export function waitForDoneReports(dir: string, sessionId: string, count: number): Promise<unknown> {
  return waitFor(() => agentReports(dir, sessionId).filter((r) => r.ok && r.state === 'done').length >= count, {
    what: `${count} done reports of session ${sessionId} acknowledged by a1`,
  });
}

/** The fake agent's transcript of this session: {role, text} per turn. */
export function agentTranscript(dir: string, sessionId: string): Record<string, unknown>[] {
  return readJsonLines(path.join(dir, `${sessionId}.jsonl`));
}

/** Waits until the session's transcript holds `count` lines and returns them: the fake agent shows
 * a reply's last word before it appends the reply, so a reply on screen is not yet on disk. */
export function waitForTranscript(dir: string, sessionId: string, count: number): Promise<Record<string, unknown>[]> {
  return waitFor(() => {
    const lines = agentTranscript(dir, sessionId);
    return lines.length >= count ? lines : null;
  }, { what: `${count} lines in the transcript of ${sessionId}` });
}

/** The rows `a1 sessions --json` prints, read from the registry in this process as the command
 * reads them (src/cli/commands/sessions.ts), without a process per poll (issue 29). */
export function sessionsOf(t: E2E): SessionRow[] {
  const reg = Registry.openReadOnly(stateDir(t));
  if (!reg) return [];
  try {
    // As printed and parsed: fields the command's JSON leaves out (undefined) are left out here.
    return JSON.parse(JSON.stringify(sessionRows(reg.listResumeRecords(), reg.listHistory(), reg.listTabs()))) as SessionRow[];
  } finally {
    reg.close();
  }
}

/** Runs `a1 sessions --json` itself, for tests about the command; a failure is thrown with what it printed. */
export async function commandSessions(t: E2E): Promise<SessionRow[]> {
  const r = await t.run('sessions', '--json');
  if (r.code !== 0) throw new Error(`a1 sessions --json exited ${r.code}: ${r.stderr.trim()}`);
  return (JSON.parse(r.stdout) as { sessions: SessionRow[] }).sessions;
}

/** Waits until `a1 sessions --json` lists a session held by the tab; returns its row. */
export function waitForTabSession(t: E2E, tabId: string): Promise<SessionRow> {
  return waitFor(async () => (await sessionsOf(t)).find((s) => s.tabId === tabId), {
    what: `a session held by tab ${tabId} in a1 sessions --json`,
  });
}

/** Every resume record in the profile's registry, read the way `a1 sessions` reads it. */
export function resumeRecordsOf(t: E2E): ResumeRecord[] {
  const reg = Registry.openReadOnly(stateDir(t));
  if (reg === null) return [];
  try {
    return reg.listResumeRecords();
  } finally {
    reg.close();
  }
}

/** A process as a test remembers it: a recycled pid has another start time. */
export interface ProcRef {
  pid: number;
  startTime: string;
  /** Its argv, for messages and for picking processes out. */
  argv: string[];
}

export function argvOf(pid: number): string[] {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter((a) => a !== '');
  } catch {
    return [];
  }
}

/** The live processes whose environment carries A1_TAB_ID=<tabId>. */
export function tabProcesses(tabId: string): ProcRef[] {
  const refs: ProcRef[] = [];
  for (const pid of pidsWithEnv('A1_TAB_ID', tabId)) {
    const startTime = startTimeOf(pid);
    if (startTime !== null && isAlive(pid)) refs.push({ pid, startTime, argv: argvOf(pid) });
  }
  return refs;
}

/** The process of `pid` as it is now, or null when there is none. */
export function procRef(pid: number): ProcRef | null {
  const startTime = startTimeOf(pid);
  return startTime !== null && isAlive(pid) ? { pid, startTime, argv: argvOf(pid) } : null;
}

/** True while the very process remembered (same pid and start time) runs. */
export function isSameAlive(ref: ProcRef): boolean {
  return isAlive(ref.pid) && startTimeOf(ref.pid) === ref.startTime;
}

/** Ends a process the test remembered, by pid, only if it is still that process. */
export function killRef(ref: ProcRef): void {
  if (!isSameAlive(ref)) return;
  try {
    process.kill(ref.pid, 'SIGKILL');
  } catch {
    // Gone between the check and the signal.
  }
}

/** The listed tab with this id; throws with the listing when absent. */
export function listedTab(l: Listing, tabId: string): Listing['tabs'][number] {
  const tab = l.tabs.find((x) => x.id === tabId);
  if (!tab) throw new Error(`no tab ${tabId} in ${JSON.stringify(l.tabs)}`);
  return tab;
}

/** Waits until the tab runs a child other than `previous` (a restart); returns the new child's pid. */
export function waitForNewChild(t: E2E, tabId: string, previous: number | null): Promise<number> {
  return waitFor(async () => {
    const tab = listedTab(await listing(t), tabId);
    return tab.status === 'running' && tab.childPid !== null && tab.childPid !== previous && isAlive(tab.childPid) ? tab.childPid : null;
  }, { what: `tab ${tabId} running a child other than ${previous}` });
}

/** Waits until `a1 tabs --json` shows the tab with `status`. */
export function waitForStatus(t: E2E, tabId: string, status: string): Promise<Listing['tabs'][number]> {
  return waitFor(async () => {
    const tab = listedTab(await listing(t), tabId);
    return tab.status === status ? tab : null;
  }, { what: `tab ${tabId} ${status}` });
}

/** The profile's recovery files (last screens of exited and failed children) for the tab. */
export function recoveryFilesOf(t: E2E, tabId: string): string[] {
  const dir = path.join(stateDir(t), 'recovery');
  try {
    return fs.readdirSync(dir).filter((name) => name.startsWith(`${tabId}-`) && name.endsWith('.txt')).map((name) => path.join(dir, name));
  } catch {
    return [];
  }
}

/** Lines the server logged at level `error` (its log holds event names, never content). */
export function serverLogErrors(t: E2E): Record<string, unknown>[] {
  return readJsonLines(path.join(stateDir(t), 'logs', 'server.log')).filter((line) => line.level === 'error');
}

/** How many PTY masters (/dev/ptmx descriptors) the given processes hold. */
export function ptmxCount(pids: readonly number[]): number {
  let count = 0;
  for (const pid of pids) {
    let fds: string[];
    try {
      fds = fs.readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue; // exited meanwhile
    }
    for (const fd of fds) {
      try {
        if (fs.readlinkSync(`/proc/${pid}/fd/${fd}`) === '/dev/ptmx') count++;
      } catch {
        // closed meanwhile
      }
    }
  }
  return count;
}

/** The profile's live processes other than `exclude` (the server, attached clients), and the
 * PTYs they hold: what a tab's life must give back. */
export function profileFootprint(t: E2E, exclude: readonly number[]): { pids: number[]; ptys: number } {
  const pids = livePids(t).filter((pid) => !exclude.includes(pid));
  return { pids, ptys: ptmxCount(pids) };
}

/** Whether the profile's server socket exists (a maintenance command must not create one). */
export function serverSocketExists(t: E2E): boolean {
  return fs.existsSync(path.join(runDir(t), 'server.sock'));
}


/** Runs `/text` in the command prompt (Alt+;): opens it, types `/text`, waits until it shows the line,
 * presses Enter and waits until it has closed. Rows below the strip hold the prompt's box. */
export async function runPromptCommand(a1: PtyDriver, text: string): Promise<void> {
  const row = (line: string) => new RegExp(`│ ${escapeRegExp(line)}(?: |│|$)`);
  const shown = (re: RegExp) => (lines: string[]) => lines.slice(1).some((l) => re.test(l));
  a1.write(KEY.commandPrompt);
  await a1.waitForScreen(shown(row('')), undefined, 'the command prompt open');
  a1.write(`/${text}`);
  await a1.waitForScreen(shown(row(`/${text}`)), undefined, `the command prompt showing /${text}`);
  a1.write('\r');
  await a1.waitForScreen((lines) => !shown(row(`/${text}`))(lines), undefined, `the command prompt closed after /${text}`);
}

/** Sends the fake agent of `sessionId` one line through its control file, as if typed at its
 * prompt (`y`/`n` answer /ask, `/stop` interrupts): drives a tab that no client views. */
export function controlAgent(dir: string, sessionId: string, line: string): void {
  fs.appendFileSync(path.join(dir, `${sessionId}.control`), `${line}\n`, { mode: 0o600 });
}

/** The status glyph the chip called `name` shows on the client's strip, '' for none. Chips are
 * ` [glyph ]name `: the glyph sits two columns before the name (narrow characters assumed). */
export async function chipGlyph(a1: PtyDriver, name: string): Promise<string> {
  const places = await stripPlaces(a1);
  const chip = places.chips.find((c) => c.name === name);
  if (!chip) throw new Error(`no chip named ${name} on the strip "${places.text}"`);
  const before = places.text.slice(Math.max(0, chip.x - 2), chip.x);
  return before.length === 2 && before[0] !== ' ' && before[1] === ' ' ? before[0] : '';
}

/** Waits until the chip called `name` shows a glyph `want` accepts (or equals); returns it. */
export async function waitForChipGlyph(
  a1: PtyDriver,
  name: string,
  want: string | ((glyph: string) => boolean),
  what = typeof want === 'string' ? `glyph "${want}"` : 'glyph',
): Promise<string> {
  const ok = typeof want === 'string' ? (g: string) => g === want : want;
  let last = '';
  try {
    return await waitFor(async () => {
      last = (await stripPlaces(a1)).text;
      const glyph = await chipGlyph(a1, name);
      return ok(glyph) ? { glyph } : null;
    }, { what: `chip ${name} showing ${what}` }).then((r) => r.glyph);
  } catch (error) {
    throw new Error(`${(error as Error).message}; strip was "${last}"`);
  }
}
