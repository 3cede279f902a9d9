// Shared set-up for end-to-end tests: a hermetic A1_HOME whose tabs run a plain bash with a
// known prompt, the real a1 binary in a PTY, and teardown that ends every process by pid.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { ServerClient } from '../../src/client/serverClient.js';
import { existingServer } from '../../src/cli/commands/shared.js';
import { scriptListing } from '../../src/cli/commands/tabs.js';
import type { ScriptTabs } from '../../src/status/scripting.js';
import { resolvePaths } from '../../src/paths.js';
import { deriveKey, loadOrCreateSecret } from '../../src/security.js';
import { connectHolder, firstState, type HolderConnection } from '../../src/server/holderLink.js';
import { WriterLease } from '../../src/store/lease.js';
import { makeHome, type TestHome } from '../helpers/home.js';
import { PtyDriver, a1Argv, type PtyDriverOptions } from '../helpers/pty.js';
import { isAlive, killAllWithEnv, pidsWithEnv, statFields } from '../helpers/procs.js';
import { waitFor } from '../helpers/wait.js';
import { HINT_DISMISSED_FILE } from '../../src/app/attach/firstRunHint.js';

export const PROMPT = 'a1$ ';
/** The prompt as a screen row shows it: rows are read with trailing blanks trimmed. */
export const PROMPT_SEEN = 'a1$';

export interface E2E {
  home: TestHome;
  env: Record<string, string>;
  /** Starts the a1 client (or `a1 ...args`) in a fresh 120x40 PTY. */
  attach(...args: string[]): PtyDriver;
  /** As `attach`, in a terminal with these driver options (e.g. the kitty keyboard emulation). */
  attachWith(options: Pick<PtyDriverOptions, 'kittyKeyboard'>, ...args: string[]): PtyDriver;
  /** Runs `a1 ...args` to completion, as a maintenance command. */
  run(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }>;
  teardown(): Promise<void>;
}

export interface E2EOptions {
  /** Show the first-run hint (the profile is new). Off by default: most tests are not about it,
   *  and a line over the surface's top right would be in the way of what they read there. */
  firstRunHint?: boolean;
}

export function e2e(config: object = {}, options: E2EOptions = {}): E2E {
  // tabsAutoName off: the tests name tabs `agent`, `agent 2`, … (test/e2e/naming.test.ts turns it on).
  const home = makeHome({ config: { tabCommand: ['/bin/bash', '--norc', '--noprofile'], tabsAutoName: false, ...config } });
  if (!options.firstRunHint) dismissFirstRunHint(home.dir);
  const env = { ...home.env, PS1: PROMPT, HISTFILE: '/dev/null' };
  const drivers: PtyDriver[] = [];
  return {
    home,
    env,
    attach: (...args) => {
      const d = new PtyDriver({ argv: a1Argv(...args), env, cwd: home.dir });
      drivers.push(d);
      return d;
    },
    attachWith: (options, ...args) => {
      const d = new PtyDriver({ ...options, argv: a1Argv(...args), env, cwd: home.dir });
      drivers.push(d);
      return d;
    },
    run: (...args) =>
      new Promise((resolve) => {
        const [file, ...rest] = a1Argv(...args);
        execFile(file, rest, { env, cwd: home.dir, timeout: 30_000 }, (err, stdout, stderr) => {
          const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? ((err as { code: number }).code) : 1) : 0;
          resolve({ code, stdout, stderr });
        });
      }),
    teardown: async () => {
      for (const d of drivers) d.dispose();
      await killAllWithEnv('A1_HOME', home.dir);
      home.cleanup();
    },
  };
}

/** Records the first-run hint as dismissed in `profile` under the A1_HOME `homeDir`, as its key does. */
export function dismissFirstRunHint(homeDir: string, profile = 'default'): void {
  const dir = path.join(homeDir, 'state', profile);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.chmodSync(path.join(homeDir, 'state'), 0o700);
  fs.writeFileSync(path.join(dir, HINT_DISMISSED_FILE), 'dismissed by the test harness\n', { mode: 0o600 });
}

/** `a1 tabs --json`: the versioned listing of src/status/scripting.ts (SPEC §15 "Listing", issue 18). */
export type Listing = ScriptTabs;

/**
 * What `a1 tabs --json` prints, read without starting a process for each poll (issue 29): with a
 * server running, its `list` answer mapped as the command maps it (src/cli/commands/tabs.ts); with
 * none, the command itself, which then reads the registry. Like the command it never starts a
 * server, and a server that does not answer is thrown as the command's failure would be.
 */
export async function listing(t: E2E): Promise<Listing> {
  const server = await existingServer(resolvePaths({ env: t.env }), 'default');
  if (!server) return commandListing(t);
  try {
    const out = scriptListing(await server.request('list'));
    // As printed and parsed: fields the command's JSON leaves out (undefined) are left out here.
    return JSON.parse(JSON.stringify(out)) as Listing;
  } finally {
    server.close();
  }
}

/** Runs `a1 tabs --json` itself, for tests about the command; a failure is thrown with what it printed. */
export async function commandListing(t: E2E): Promise<Listing> {
  const r = await t.run('tabs', '--json');
  if (r.code !== 0) throw new Error(`a1 tabs --json exited ${r.code}: ${r.stderr.trim()}`);
  return JSON.parse(r.stdout) as Listing;
}

/** Every live process carrying this test's A1_HOME marker: server, holders, children, clients. */
export function livePids(t: E2E): number[] {
  return pidsWithEnv('A1_HOME', t.home.dir).filter(isAlive);
}

/** The profile's state directory (registry, backups, logs) under the test's A1_HOME. */
export function stateDir(t: E2E): string {
  return path.join(t.home.dir, 'state', 'default');
}

/** How long a killed server's lock may take to be released by the kernel. */
const LEASE_RELEASE_TIMEOUT_MS = 10_000;

/**
 * Takes the profile's writer lease the moment the kernel releases it (after the test killed the
 * server), so that no replacement can start while the test holds it ("input during the outage",
 * SPEC §15). Tight on purpose: a replacement needs a whole Node start before it even asks.
 */
export function takeLeaseNow(t: E2E): WriterLease {
  const deadline = Date.now() + LEASE_RELEASE_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const lease = WriterLease.tryAcquire(stateDir(t));
    if (lease) return lease;
  }
  throw new Error('the writer lease was not released after the server was killed');
}

/** Live processes of the profile started as `a1 __server`. */
export function serverPids(t: E2E): number[] {
  return livePids(t).filter((pid) => {
    try {
      return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes('__server');
    } catch {
      return false;
    }
  });
}

/** One entry of a1's structured logs: the envelope and whatever allowlisted fields it has. */
export interface LogEntry {
  at: string;
  pid: number;
  level: 'info' | 'warn' | 'error';
  role: string;
  event: string;
  [field: string]: unknown;
}

/** Every entry of the profile's log files whose name matches `file` (e.g. /^server/, /^holder-/). */
export function logEntries(t: E2E, file: RegExp): LogEntry[] {
  const dir = path.join(stateDir(t), 'logs');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((n) => file.test(n))
    .flatMap((n) => fs.readFileSync(path.join(dir, n), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as LogEntry));
}

/** Connects to a tab's holder as its server would, with the credential derived from the profile
 * secret, and waits for the state it sends first. Sends nothing: the real server stays its server. */
export async function holderControl(t: E2E, tabId: string): Promise<{ conn: HolderConnection; state: Awaited<ReturnType<typeof firstState>> }> {
  const paths = resolvePaths({ env: t.env });
  const inc = recordedHolderInc(t, tabId);
  const key = deriveKey(loadOrCreateSecret(paths.secretFile), 'holder', tabId, inc);
  const conn = await connectHolder(paths.holderSock(tabId, inc), key);
  const state = await firstState(conn);
  return { conn, state };
}

/** The holder incarnation the registry records for the tab. */
function recordedHolderInc(t: E2E, tabId: string): string {
  const db = new Database(path.join(stateDir(t), 'registry.db'), { readonly: true });
  try {
    return (db.prepare('SELECT holder_inc AS inc FROM tabs WHERE id = ?').get(tabId) as { inc: string }).inc;
  } finally {
    db.close();
  }
}

/** The tab's holder socket (its data plane), named by the recorded holder incarnation. */
export function holderSocket(t: E2E, tabId: string): string {
  return resolvePaths({ env: t.env }).holderSock(tabId, recordedHolderInc(t, tabId));
}

/** The tab's bridge socket (where its agent reports status), named by the recorded holder incarnation. */
export function bridgeSocket(t: E2E, tabId: string): string {
  return resolvePaths({ env: t.env }).bridgeSock(tabId, recordedHolderInc(t, tabId));
}

/** Whether `file` is a Unix socket now (absent, or anything else, is not). */
export function isSocket(file: string): boolean {
  try {
    return fs.lstatSync(file).isSocket();
  } catch {
    return false;
  }
}

/** The profile's run directory (server socket, client token, holder sockets). */
export function runDir(t: E2E): string {
  return path.join(t.home.dir, 'run', 'default');
}

/** The bytes a legacy terminal sends for a1's default keys (src/keymap/actions.ts). */
export const KEY = {
  newTab: '\x1ba',
  nextTab: '\x1b.',
  prevTab: '\x1b,',
  jump1: '\x1b1',
  jump2: '\x1b2',
  moveTabRight: '\x1b>',
  moveTabLeft: '\x1b<',
  closeTab: '\x1bw',
  detach: '\x1be',
  commandPrompt: '\x1b;',
  tabsPicker: '\x1bj',
  copyMode: '\x1bk',
  takeControl: '\x1bi',
} as const;

/** Ctrl+C twice: the attached client detaches and exits. */
export async function detach(a1: PtyDriver): Promise<void> {
  a1.write('\x03\x03');
  await a1.exited;
}

/** `a1 tabs host stop`, then waits until no process of the profile is left. */
export async function hostStop(t: E2E): Promise<void> {
  const r = await t.run('tabs', 'host', 'stop');
  if (r.code !== 0) throw new Error(`a1 tabs host stop exited ${r.code}: ${r.stderr.trim()}`);
  await waitFor(() => livePids(t).length === 0, { what: 'every process of the profile gone after host stop' });
}

/** One chip of the strip as a person reads it: its name (status glyph removed). */
export interface StripView {
  /** Chip names, left to right; the `+` chip and anything after it are left out. */
  names: string[];
  /** The chip drawn as viewed (bold), or null when none is. */
  viewed: string | null;
  /** Row 1 as text. */
  text: string;
}

/** A chip label starts with a status glyph (never a letter or digit) and a space when it has one. */
const CHIP_GLYPH = /^[^\p{L}\p{N}] /u;
/** Chips are ` [glyph ]name `, adjacent, so a name is a run of text with no two spaces in a row. */
const CHIP_TEXT = /[^ ](?:[^ ]| (?! ))*/g;

/** The strip's text with the viewed chip's brackets (`[name]`, its padding) read as the padding
 *  they stand for, so that every chip reads ` [glyph ]name `. Tab names never hold brackets here. */
function unbracketed(text: string): string {
  return text.replace(/[[\]]/g, ' ');
}

/**
 * Reads the strip (screen row 1). The viewed chip is the one in brackets (`[name]`, the marker
 * that is not colour) or, clipped too narrow for them, the one drawn bold: its colours come
 * from the theme, its weight does not, and other chips are never bold. Assumes narrow
 * characters, so that a string index is a column.
 */
export async function readStrip(a1: PtyDriver): Promise<StripView> {
  await a1.flush();
  const text = a1.line(0);
  const plain = unbracketed(text);
  const plus = /(?:^| )\+(?: |$)/.exec(plain);
  const chips = plus === null ? '' : plain.slice(0, plus.index + plus[0].indexOf('+'));
  const names: string[] = [];
  let viewed: string | null = null;
  for (const m of chips.matchAll(CHIP_TEXT)) {
    const glyph = CHIP_GLYPH.exec(m[0]);
    const name = glyph === null ? m[0] : m[0].slice(glyph[0].length);
    names.push(name);
    if (text[m.index - 1] === '[' || a1.cell(m.index + (glyph === null ? 0 : glyph[0].length), 0).bold) viewed = name;
  }
  return { names, viewed, text };
}

/** Waits until the strip shows exactly `names` in order and, when given, `viewed` as viewed. */
export async function waitForStrip(a1: PtyDriver, names: readonly string[], viewed?: string): Promise<StripView> {
  let last: StripView | null = null;
  try {
    return await waitFor(async () => {
      last = await readStrip(a1);
      const same = last.names.length === names.length && last.names.every((n, i) => n === names[i]);
      return same && (viewed === undefined || last.viewed === viewed) ? last : null;
    }, { what: `strip [${names.join(' | ')}]${viewed === undefined ? '' : ` viewing ${viewed}`}` });
  } catch (error) {
    const seen = last as StripView | null;
    throw new Error(`${(error as Error).message}; strip was "${seen?.text ?? ''}" viewing ${seen?.viewed ?? 'nothing'}`);
  }
}

/**
 * The process group in the foreground of the terminal whose session `childPid` leads, when it
 * is not the child's own (a job such as `sleep` or `cat` runs); null otherwise. Field 8 (tpgid)
 * of /proc/<pid>/stat: a process-level fact, as SPEC §8 defines busy.
 */
export function foregroundJob(childPid: number): number | null {
  const fields = statFields(childPid);
  if (fields === null) return null;
  const tpgid = Number(fields[5]);
  return Number.isInteger(tpgid) && tpgid > 0 && tpgid !== childPid ? tpgid : null;
}

/** Waits until a job (not the shell) holds the foreground of the tab's terminal; returns its group. */
export async function waitForForegroundJob(t: E2E, tabId: string): Promise<number> {
  return waitFor(async () => {
    const tab = (await listing(t)).tabs.find((x) => x.id === tabId);
    return tab?.childPid ? foregroundJob(tab.childPid) : null;
  }, { what: `a foreground job in tab ${tabId}` });
}

/** A protocol-level client of the profile's server, which the real binary must have started:
 * it never starts one itself (ServerClient would start argv[1], the test runner). */
export function protocolClient(t: E2E): Promise<ServerClient> {
  return ServerClient.connect(resolvePaths({ env: t.env }), { start: false, profile: 'default' });
}

/** Subscribes a protocol-level client as `clientId`; resolves with the snapshot's revision. */
export function subscribe(client: ServerClient, clientId: string): Promise<number> {
  return new Promise((resolve) => {
    const off = client.conn.onMessage((msg) => {
      const m = msg as { t: string; rev?: number };
      if (m.t !== 'snapshot') return;
      off();
      resolve(m.rev as number);
    });
    client.conn.send({ t: 'subscribe', clientId, cols: 80, rows: 24 });
  });
}

/** The contents of a file under the test's A1_HOME, or '' while it does not exist. */
export function homeFile(t: E2E, name: string): string {
  try {
    return fs.readFileSync(path.join(t.home.dir, name), 'utf8');
  } catch {
    return '';
  }
}

let probes = 0;

/**
 * Types a command into the tab the client views and waits until the screen shows that tab's
 * shell printing its own id: the surface and the input both belong to `tabId`. The awaited text
 * is computed by the shell, so the echoed command line never satisfies the wait.
 */
export async function probeViewed(a1: PtyDriver, tabId: string): Promise<void> {
  const n = ++probes;
  a1.write(`echo probe-$A1_TAB_ID-$((${n}+1000))\r`);
  await a1.waitForText(`probe-${tabId}-${n + 1000}`);
}

/**
 * Waits until the viewed tab's shell says `size` ("rows cols") for `stty size`. SIGWINCH reaches
 * the client as keys do, with no order between them: a command typed right after a resize may run
 * before the child is resized, so it is asked again until the size arrives.
 */
export async function waitForChildSize(a1: PtyDriver, size: string): Promise<void> {
  await waitFor(
    () => {
      a1.write('clear; stty size\r');
      return a1.waitForText(size, 2_000).then(
        () => true,
        () => false,
      );
    },
    { what: `the child sees ${size} (rows cols)` },
  );
}

/** The listed tab names, in strip order. */
export function tabNames(l: Listing): string[] {
  return l.tabs.map((tab) => tab.name);
}

/** The id of the listed tab called `name`; throws with the names listed when there is none. */
export function tabId(l: Listing, name: string): string {
  const tab = l.tabs.find((x) => x.name === name);
  if (!tab) throw new Error(`no tab named ${name} in ${JSON.stringify(tabNames(l))}`);
  return tab.id;
}

/** Waits until `a1 tabs --json` lists exactly `names`, in order, every tab running. */
export function waitForListing(t: E2E, names: readonly string[]): Promise<Listing> {
  return waitFor(async () => {
    const l = await listing(t);
    const same = JSON.stringify(tabNames(l)) === JSON.stringify(names);
    return same && l.tabs.every((x) => x.status === 'running') ? l : null;
  }, { what: `a1 tabs --json listing ${JSON.stringify(names)}, every tab running` });
}

/** SGR mouse reports (mode 1006) as the outer terminal writes them; col and row are 1-based. */
export const sgrMouse = {
  leftPress: (col: number, row: number): string => `\x1b[<0;${col};${row}M`,
  leftRelease: (col: number, row: number): string => `\x1b[<0;${col};${row}m`,
  /** Motion with the left button held (drag). */
  leftDrag: (col: number, row: number): string => `\x1b[<32;${col};${row}M`,
  rightPress: (col: number, row: number): string => `\x1b[<2;${col};${row}M`,
  rightRelease: (col: number, row: number): string => `\x1b[<2;${col};${row}m`,
  /** Motion with no button held (any-motion mode 1003). */
  move: (col: number, row: number): string => `\x1b[<35;${col};${row}M`,
};

/** The strip is the first screen row; SGR rows are 1-based. */
export const STRIP_ROW = 1;

/** Where things are on the strip, as 0-based columns, for aiming the mouse. */
export interface StripPlaces {
  /** Each chip's name and the columns its name covers (the status glyph left out). */
  chips: { name: string; x: number; w: number }[];
  /** The `…` overflow chips, left to right (none when every chip fits): the column where each
   *  one's text starts, and the status glyph it carries (null for none). */
  overflows: { x: number; glyph: string | null }[];
  /** The `+` chip's column, or null when there is none. */
  plus: number | null;
  text: string;
}

/** Reads where the strip's chips are (narrow characters assumed, as readStrip does). */
export async function stripPlaces(a1: PtyDriver): Promise<StripPlaces> {
  await a1.flush();
  const text = unbracketed(a1.line(0));
  const plusMatch = /(?:^| )\+(?: |$)/.exec(text);
  const plus = plusMatch === null ? null : plusMatch.index + plusMatch[0].indexOf('+');
  const chips: StripPlaces['chips'] = [];
  const overflows: StripPlaces['overflows'] = [];
  for (const m of text.slice(0, plus ?? text.length).matchAll(CHIP_TEXT)) {
    const glyph = CHIP_GLYPH.exec(m[0]);
    const skip = glyph === null ? 0 : glyph[0].length;
    const name = m[0].slice(skip);
    // An overflow chip reads as a chip named `…`, with the most urgent glyph it hides.
    if (name === '…') overflows.push({ x: m.index, glyph: glyph === null ? null : glyph[0].trim() });
    else chips.push({ name, x: m.index + skip, w: m[0].length - skip });
  }
  return { chips, overflows, plus, text };
}

/** The 1-based column of the middle of the chip called `name`; throws with the strip when absent. */
export async function chipColumn(a1: PtyDriver, name: string): Promise<number> {
  const places = await stripPlaces(a1);
  const chip = places.chips.find((c) => c.name === name);
  if (!chip) throw new Error(`no chip named ${name} on the strip "${places.text}"`);
  return chip.x + Math.floor(chip.w / 2) + 1;
}
