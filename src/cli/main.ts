// The `a1` command line (SPEC §11): every command is declared once in yargs, so `--help`
// lists every form. Resident processes start through hidden subcommands.
import fs from 'node:fs';
import path from 'node:path';
// yargs and the registry (a native addon) load only for the commands that need them: bare `a1`
// is the moment people feel, and it needs neither (SPEC §8, start-up).
import type { Argv } from 'yargs';
import { resolvePaths, ensureProfileDirs, type Paths } from '../paths.js';
import { loadConfig, type Config } from '../config.js';
import { ServerClient, ServerError } from '../serverClient.js';
import { VERSION } from '../version.js';
import { isSessionLaunch, isSessionPath, parseSessionLaunch, sessionTarget } from './sessionArgs.js';
import { insideLiveTab } from './nesting.js';
import { sendStatus, runStatusHook, StatusError, STATUS_STATES } from './status.js';
import type { Counters } from '../diag/counters.js';
import type { Listing } from '../protocol/messages.js';
import { SHELL_KIND } from '../lifecycle/agents.js';

interface Common {
  profile?: string;
}

function setup(argv: Common): { paths: Paths; profile: string } {
  const paths = resolvePaths({ env: process.env, profile: argv.profile });
  return { paths, profile: paths.profile };
}

/** The profile's config; a broken file never stops a command (issue 15): its one notice goes to
 * stderr, or with `interactive` it is left for the client to show. */
function config(paths: Paths, opts: { interactive?: boolean } = {}): { config: Config; problem: string | null } {
  const loaded = loadConfig(paths.configDir, process.env);
  if (loaded.problem && !opts.interactive) process.stderr.write(`a1: ${loaded.problem}\n`);
  return loaded;
}

class UserError extends Error {}

/** Connects without ever starting a server: maintenance commands only report. */
async function existingServer(paths: Paths, profile: string): Promise<ServerClient | null> {
  try {
    return await ServerClient.connect(paths, { start: false, profile });
  } catch (err) {
    if (err instanceof ServerError && err.code === 'no-server') return null;
    throw err;
  }
}

async function cmdAttach(argv: Common, openSession?: { sessionId: string; agent: string | null; cwd: string | null }): Promise<number> {
  if (process.env.A1_TAB_ID && (await insideLiveTab(process.env))) {
    throw new UserError('a1 is already running in this tab; use "a1 new" to open another tab.');
  }
  // Captured before a1 changes anything: the child runs in the user's environment and umask.
  const env = { ...process.env };
  const umask = process.umask(0o077);
  const { paths, profile } = setup(argv);
  ensureDirs(paths);
  const cfg = config(paths, { interactive: true });
  process.env.FORCE_COLOR = '3';
  const { runClient } = await import('../app/client.js');
  return runClient({ paths, profile, config: cfg.config, configProblem: cfg.problem, env, umask, openSession });
}

/** `a1 --session <id|path> [--session-dir DIR]`: every misuse fails before anything starts. */
async function cmdSession(args: string[]): Promise<number> {
  const parsed = parseSessionLaunch(args);
  if (!parsed.ok) {
    process.stderr.write(`a1: ${parsed.message} (usage: a1 --session <id|path> [--session-dir DIR])\n`);
    return 2;
  }
  const isPath = isSessionPath(parsed.session);
  if (isPath && !fs.existsSync(parsed.session)) throw new UserError(`There is no session file "${parsed.session}".`);
  // A link to a session file is that session: the file it resolves to names it.
  const target = sessionTarget(parsed.session, isPath ? fs.realpathSync(parsed.session) : undefined);
  const cwd = parsed.sessionDir !== null ? resolveDir(parsed.sessionDir) : null;
  return cmdAttach({ profile: parsed.profile ?? undefined }, { sessionId: target.sessionId, agent: target.agent, cwd });
}

function ensureDirs(paths: Paths): void {
  ensureProfileDirs(paths);
}

async function cmdNew(argv: Common & { name?: string; cwd?: string; agent?: string; '--'?: (string | number)[] }): Promise<number> {
  const env = { ...process.env };
  const umask = process.umask(0o077);
  const cwd = argv.cwd !== undefined ? resolveDir(argv.cwd) : process.cwd();
  const { paths, profile } = setup(argv);
  ensureDirs(paths);
  config(paths);
  const command = (argv['--'] ?? []).map(String);
  const server = await ServerClient.connect(paths, { start: true, profile, env });
  try {
    const { tabId } = await server.request<{ tabId: string }>('create', {
      name: argv.name,
      cwd,
      command: command.length > 0 ? command : null,
      agent: argv.agent,
      env,
      umask,
    });
    process.stdout.write(`${tabId}\n`);
    return 0;
  } finally {
    server.close();
  }
}

function resolveDir(dir: string): string {
  const full = path.resolve(dir);
  if (!fs.existsSync(full) || !fs.statSync(full).isDirectory()) throw new UserError(`"${dir}" is not a directory.`);
  return full;
}


async function cmdTabs(argv: Common & { json?: boolean }): Promise<number> {
  const { paths, profile } = setup(argv);
  const server = await existingServer(paths, profile);
  let listing: Listing;
  if (server) {
    try {
      listing = await server.request<Listing>('list');
    } finally {
      server.close();
    }
  } else {
    const { Registry } = await import('../store/registry.js');
    const reg = Registry.openReadOnly(paths.stateDir);
    const rows = reg ? reg.listTabs() : [];
    reg?.close();
    listing = {
      server: null,
      // The registry knows the agent kind and session, not what the agent is doing now.
      tabs: rows.map((r) => ({
        id: r.id,
        name: r.name,
        status: r.lifecycle,
        cwd: r.cwd,
        holderPid: r.holderPid,
        childPid: r.childPid,
        agent: r.kind === SHELL_KIND ? null : { kind: r.kind, state: null, sessionId: r.sessionId },
        glyph: null,
        attention: null,
      })),
    };
  }
  if (argv.json) {
    process.stdout.write(JSON.stringify(listing) + '\n');
    return 0;
  }
  if (!listing.server) process.stdout.write(`No a1 server is running for profile "${profile}"; showing the registry.\n`);
  if (listing.tabs.length === 0) {
    process.stdout.write('No tabs.\n');
    return 0;
  }
  const agentOf = (t: Listing['tabs'][number]) => (t.agent ? [t.agent.kind, t.attention ?? t.agent.state].filter(Boolean).join(' ') : '-');
  const rows = [
    ['ID', 'NAME', 'STATUS', 'AGENT', 'CWD', 'HOLDER', 'CHILD'],
    ...listing.tabs.map((t) => [t.id, t.name, t.status, agentOf(t), t.cwd, String(t.holderPid ?? '-'), String(t.childPid ?? '-')]),
  ];
  process.stdout.write(formatTable(rows));
  return 0;
}

function formatTable(rows: string[][]): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]))).join('  ')).join('\n') + '\n';
}

/** A close's answer: `incomplete` when some of the tab's processes outlived their SIGKILL. */
interface Closed {
  closed: boolean;
  incomplete?: { pids: number[]; message: string };
}

async function cmdTabsStop(argv: Common & { id?: string; all?: boolean }): Promise<number> {
  if (!argv.id && !argv.all) throw new UserError('Name a tab id, or pass --all.');
  const { paths, profile } = setup(argv);
  const server = await existingServer(paths, profile);
  if (!server) {
    process.stdout.write(`No a1 server is running for profile "${profile}".\n`);
    return 0;
  }
  try {
    const listing = await server.request<Listing>('list');
    const ids = argv.all ? listing.tabs.map((t) => t.id) : [argv.id!];
    if (!argv.all && !listing.tabs.some((t) => t.id === argv.id)) throw new UserError(`No tab has the id "${argv.id}".`);
    if (ids.length === 0) {
      process.stdout.write('No tabs to stop.\n');
      return 0;
    }
    // Closed together; each reply comes once that tab's processes have ended, naming any that
    // outlived their SIGKILL: the tab is closed all the same, and those are left running.
    let done = 0;
    let incomplete = 0;
    const nameOf = (id: string) => listing.tabs.find((t) => t.id === id)?.name ?? id;
    const progress = (id: string, r: Closed | null) => {
      process.stdout.write(`  stopped ${nameOf(id)} (${++done}/${ids.length})\n`);
      if (!r?.incomplete) return;
      incomplete += 1;
      process.stderr.write(`a1: ${r.incomplete.message}\n`);
    };
    if (ids.length > 1) process.stdout.write(`Stopping ${ids.length} tabs…\n`);
    await Promise.all(ids.map((id) => server.request<Closed | null>('close', { tabId: id, wait: true }).then((r) => progress(id, r))));
    process.stdout.write(`Stopped ${ids.length} ${ids.length === 1 ? 'tab' : 'tabs'}.\n`);
    return incomplete > 0 ? 1 : 0;
  } finally {
    server.close();
  }
}

async function cmdTabsSleep(argv: Common & { id: string }): Promise<number> {
  const { paths, profile } = setup(argv);
  const server = await existingServer(paths, profile);
  if (!server) throw new UserError(`No a1 server is running for profile "${profile}".`);
  try {
    const listing = await server.request<Listing>('list');
    if (!listing.tabs.some((t) => t.id === argv.id)) throw new UserError(`No tab has the id "${argv.id}".`);
    await server.request('sleep', { tabId: argv.id });
    process.stdout.write(`Tab ${argv.id} is asleep; viewing it resumes its session.\n`);
    return 0;
  } finally {
    server.close();
  }
}

interface SessionRow {
  sessionId: string;
  agent: string;
  name: string;
  cwd: string;
  /** The live tab holding it, when one does. */
  tabId: string | null;
  /** The tab holding it sleeps. */
  asleep: boolean;
  /** live, quit or sleep (a resume record), or closed, reboot or expired (history). */
  state: string;
  at: number;
}

/** Resumable agent sessions: resume records and history, newest first, one row per session.
 * Read from the registry, so it works with or without a server and starts none. */
async function cmdSessions(argv: Common & { json?: boolean }): Promise<number> {
  const { paths } = setup(argv);
  const { Registry } = await import('../store/registry.js');
  const reg = Registry.openReadOnly(paths.stateDir);
  const rows = new Map<string, SessionRow>();
  if (reg) {
    try {
      const liveTabs = new Map(reg.listTabs().map((t) => [t.id, t]));
      const records = reg.listResumeRecords().sort((a, b) => b.capturedAt - a.capturedAt);
      for (const r of records) {
        if (rows.has(r.sessionId)) continue;
        const tab = liveTabs.get(r.tabId);
        rows.set(r.sessionId, { sessionId: r.sessionId, agent: r.agentKind, name: tab?.name ?? r.name, cwd: r.cwd, tabId: tab ? tab.id : null, asleep: tab?.lifecycle === 'suspended', state: r.origin, at: r.capturedAt });
      }
      for (const h of reg.listHistory()) {
        if (!h.sessionId || rows.has(h.sessionId)) continue;
        rows.set(h.sessionId, { sessionId: h.sessionId, agent: h.agentKind, name: h.name, cwd: h.cwd, tabId: null, asleep: false, state: h.reason, at: h.at });
      }
    } finally {
      reg.close();
    }
  }
  const sessions = [...rows.values()].sort((a, b) => b.at - a.at);
  if (argv.json) {
    process.stdout.write(JSON.stringify({ sessions }) + '\n');
    return 0;
  }
  if (sessions.length === 0) {
    process.stdout.write('No resumable sessions.\n');
    return 0;
  }
  const table = [
    ['SESSION', 'AGENT', 'NAME', 'STATE', 'WHEN', 'CWD'],
    ...sessions.map((s) => [s.sessionId, s.agent, s.name, s.tabId ? `${s.asleep ? 'asleep' : 'open'} in ${s.tabId}` : s.state, new Date(s.at).toISOString().slice(0, 16).replace('T', ' '), s.cwd]),
  ];
  process.stdout.write(formatTable(table));
  return 0;
}

async function cmdStatus(argv: { state?: string; sessionId?: string; agent?: string; name?: string; hook?: string }): Promise<number> {
  if (argv.hook !== undefined) {
    // Hooks always exit 0 (SPEC §15): Claude Code reads other codes as a block or an error.
    await runStatusHook(process.env, argv.hook, argv.state);
    return 0;
  }
  if (argv.state === undefined || !(STATUS_STATES as readonly string[]).includes(argv.state)) {
    throw new UserError(`Name a state: ${STATUS_STATES.join(', ')}.`);
  }
  try {
    await sendStatus(process.env, { state: argv.state!, sessionId: argv.sessionId, agent: argv.agent, name: argv.name });
    return 0;
  } catch (err) {
    if (err instanceof StatusError) throw new UserError(err.message);
    throw err;
  }
}

async function cmdHooks(argv: { action: 'install' | 'uninstall'; agent: string }): Promise<number> {
  const { installHooks, uninstallHooks, HookInstallError, HOOK_AGENTS } = await import('../hooks/install.js');
  if (!(HOOK_AGENTS as readonly string[]).includes(argv.agent)) {
    throw new UserError(`a1 has hooks for ${HOOK_AGENTS.join(' and ')}, not "${argv.agent}".`);
  }
  const opts = { home: process.env.HOME ?? '/', env: process.env, a1Command: [process.execPath, fs.realpathSync(process.argv[1])] };
  try {
    const changes = (argv.action === 'install' ? installHooks : uninstallHooks)(argv.agent as 'claude' | 'codex', opts);
    for (const c of changes) process.stdout.write(`${c.message}\n`);
    return 0;
  } catch (err) {
    if (err instanceof HookInstallError) throw new UserError(err.message);
    throw err;
  }
}

async function cmdDoctor(argv: Common & { out?: string }): Promise<number> {
  const { buildBundle, readRecords } = await import('./doctor.js');
  const { listCrashRecords } = await import('../diag/crashRecord.js');
  const { paths, profile } = setup(argv);
  const server = await existingServer(paths, profile);
  let host: unknown = null;
  if (server) {
    try {
      host = await server.request('hostStatus');
    } finally {
      server.close();
    }
  }
  const { Registry } = await import('../store/registry.js');
  const reg = Registry.openReadOnly(paths.stateDir);
  let registry = null;
  if (reg) {
    try {
      const tabs = reg.listTabs();
      const byStatus: Record<string, number> = {};
      for (const t of tabs) byStatus[t.lifecycle] = (byStatus[t.lifecycle] ?? 0) + 1;
      registry = { tabs: tabs.length, byStatus, resumeRecords: reg.listResumeRecords().length, history: reg.listHistory().length };
    } finally {
      reg.close();
    }
  }
  const bundle = buildBundle({ version: VERSION, profile, host, registry, records: readRecords(paths.logsDir), crashes: listCrashRecords(paths.crashDir) });
  const text = JSON.stringify(bundle, null, 2) + '\n';
  if (argv.out) {
    const file = path.resolve(argv.out);
    fs.writeFileSync(file, text, { mode: 0o600 });
    process.stdout.write(`Wrote ${file} (${bundle.records.length} records, ${Buffer.byteLength(text)} bytes; no terminal, prompt or recovery content).\n`);
  } else {
    process.stdout.write(text);
  }
  return 0;
}

async function cmdHostStatus(argv: Common & { json?: boolean }): Promise<number> {
  const { paths, profile } = setup(argv);
  const { holderCounters, describeCrashes, CRASH_RECORDS_LISTED } = await import('./doctor.js');
  const { listCrashRecords } = await import('../diag/crashRecord.js');
  const { addCounters, formatCounters } = await import('../diag/counters.js');
  // Read without a server too: after a crash they are what there is to see.
  const crashes = listCrashRecords(paths.crashDir, CRASH_RECORDS_LISTED);
  const holders = holderCounters(paths.logsDir);
  const server = await existingServer(paths, profile);
  if (!server) {
    if (argv.json) process.stdout.write(JSON.stringify({ server: null, profile, counters: holders, crashes }) + '\n');
    else process.stdout.write(`No a1 server is running for profile "${profile}".\ncrashes  ${describeCrashes(crashes, paths.crashDir)}\n`);
    return 0;
  }
  try {
    const s = await server.request<Record<string, unknown>>('hostStatus');
    // The server's counters since it started, plus what holders logged.
    const counters = s.counters ? addCounters(s.counters as Counters, holders) : holders;
    if (argv.json) {
      process.stdout.write(JSON.stringify({ server: s, profile, counters, crashes }) + '\n');
    } else {
      const uptime = Math.round(Number(s.uptimeMs) / 1000);
      process.stdout.write(
        [
          `server   pid ${s.pid} · version ${s.version} · epoch ${s.epoch} · up ${uptime}s`,
          `profile  ${profile} · ${s.tabCount} ${s.tabCount === 1 ? 'tab' : 'tabs'} · ${s.clients} attached`,
          `socket   ${s.socket}`,
          `logs     ${s.logs}`,
          `counters ${formatCounters(counters)}`,
          `orphans  ${describeOrphans(s.orphans as { count: number; oldestAgeMs: number | null } | undefined)}`,
          `crashes  ${describeCrashes(crashes, paths.crashDir)}`,
        ].join('\n') + '\n',
      );
    }
    return 0;
  } finally {
    server.close();
  }
}

/** Holders of the profile that no tab owns (SPEC §10): how many, and how long the oldest has been one. */
function describeOrphans(o: { count: number; oldestAgeMs: number | null } | undefined): string {
  if (!o || o.count === 0) return 'none';
  const age = o.oldestAgeMs === null ? '' : ` · oldest ${Math.round(o.oldestAgeMs / 1000)}s`;
  return `${o.count} ${o.count === 1 ? 'holder' : 'holders'} no tab owns${age} (retired after a short grace)`;
}

async function cmdHostStop(argv: Common): Promise<number> {
  const { paths, profile } = setup(argv);
  const server = await existingServer(paths, profile);
  if (!server) {
    process.stdout.write(`No a1 server is running for profile "${profile}".\n`);
    return 0;
  }
  try {
    process.stdout.write('Stopping every tab and the server…\n');
    const r = await server.request<{ stopped: number }>('hostStop');
    process.stdout.write(`Stopped ${r.stopped} ${r.stopped === 1 ? 'tab' : 'tabs'} and the server.\n`);
    return 0;
  } finally {
    server.close();
  }
}

/** Every command form in one place, for the top-level help (SPEC §11). */
const EVERY_FORM = [
  'Every form:',
  '  a1                                          attach (starts the server and a first tab when needed)',
  '  a1 --session <id|path> [--session-dir DIR]  open an agent session as a tab, or focus the tab holding it',
  '  a1 new [--name N] [--cwd D] [--agent KIND] [-- CMD ARGS]',
  '                                              create a tab without attaching; prints its id',
  '  a1 tabs [--json]                            list tabs (never starts a server)',
  '  a1 tabs stop <id> | --all                   stop (close) tabs',
  '  a1 tabs doctor [--out FILE]                a bounded diagnostic bundle (no terminal, prompt or recovery content)',
  '  a1 tabs sleep <id>                          checkpoint an agent tab and stop it; viewing it resumes it',
  '  a1 sessions [--json]                        resumable agent sessions (records and history)',
  '  a1 hooks install|uninstall <claude|codex>  wire an agent\'s own hooks to a1 status',
  '  a1 status <state> [--session-id ID] [--agent KIND] [--name NAME]',
  '                                              report an agent\'s status from inside a tab',
  '  a1 tabs host status [--json]                server pid, version, epoch, uptime, tabs, paths, counters, crashes',
  '  a1 tabs host stop                           stop every tab, then the server',
].join('\n');

type Handler<T> = (argv: T) => Promise<number>;

// eslint-free escape hatch: yargs infers argv types per command; handlers declare theirs.
function run<T>(handler: Handler<T>): (argv: any) => Promise<void> {
  return async (argv) => {
    process.exitCode = await handler(argv as T);
  };
}

/** Runs a command that bypasses yargs, reporting a user's error in one line like yargs' would. */
async function runDirect(command: () => Promise<number>): Promise<void> {
  try {
    process.exitCode = await command();
  } catch (err) {
    if (!(err instanceof UserError || err instanceof ServerError)) throw err;
    process.stderr.write(`a1: ${err.message}\n`);
    process.exitCode = 1;
  }
}

export async function main(args: string[]): Promise<void> {
  // Resident processes skip yargs entirely: they start often and need none of it.
  if (args[0] === '__holder') {
    const { holderMain } = await import('../holder/main.js');
    return holderMain();
  }
  if (args[0] === '__server') {
    const { serverMain } = await import('../server/main.js');
    const i = args.indexOf('--profile');
    return serverMain(i >= 0 ? args[i + 1] : undefined);
  }
  if (isSessionLaunch(args)) return runDirect(() => cmdSession(args));
  // Bare `a1`: attach at once, without parsing anything.
  if (args.length === 0) return runDirect(() => cmdAttach({}));
  const { default: yargs } = await import('yargs');
  const cli = yargs(args)
    .parserConfiguration({ 'populate--': true })
    .scriptName('a1')
    .usage('a1 — resident agent tabs in the terminal\n\nUsage: a1 [command] [options]')
    .option('profile', { type: 'string', describe: 'Profile to use (default: $A1_PROFILE or "default")', global: true })
    .command('$0', 'Attach: show the tabs, starting the server and a first tab when needed', {}, run(cmdAttach))
    .command(
      'new',
      'Create a tab without attaching and print its id (a1 new -- CMD ARGS runs CMD)',
      (y: Argv) =>
        y
          .option('name', { type: 'string', requiresArg: true, describe: 'Tab name' })
          .option('cwd', { type: 'string', requiresArg: true, describe: 'Working directory (default: the current one)' })
          .option('agent', { type: 'string', requiresArg: true, describe: 'Agent kind the tab runs (claude, codex, generic or one from the config)' }),
      run(cmdNew),
    )
    .command('hooks', "Wire an agent's own hooks to a1 status", (y: Argv) =>
      y
        .command('install <agent>', 'Add a1 status hooks to claude or codex (idempotent; other settings untouched)', (z: Argv) => z.positional('agent', { type: 'string', describe: 'claude or codex' }), run((a: { agent: string }) => cmdHooks({ action: 'install', agent: a.agent })))
        .command('uninstall <agent>', 'Remove the hooks a1 added', (z: Argv) => z.positional('agent', { type: 'string', describe: 'claude or codex' }), run((a: { agent: string }) => cmdHooks({ action: 'uninstall', agent: a.agent })))
        .demandCommand(1, 'Name a hooks command: install or uninstall.')
        .strict(),
    )
    .command('sessions', 'List resumable agent sessions (never starts a server)', (y: Argv) => y.option('json', { type: 'boolean', describe: 'Print stable JSON' }), run(cmdSessions))
    .command(
      'status [state]',
      'Report the agent status of this tab (used by agent hooks; only inside an a1 tab)',
      (y: Argv) =>
        y
          .positional('state', { type: 'string', describe: `The state to report: ${STATUS_STATES.join(', ')} (with --hook: the hook's JSON, else stdin)` })
          .option('hook', { type: 'string', requiresArg: true, describe: 'Map an agent hook payload, e.g. claude:Stop (what `a1 hooks install` writes); always exits 0' })
          .option('session-id', { type: 'string', requiresArg: true, describe: 'The agent session id (becomes the tab\'s resume record)' })
          .option('agent', { type: 'string', requiresArg: true, describe: 'Agent kind' })
          .option('name', { type: 'string', requiresArg: true, describe: 'Session name' }),
      run(cmdStatus),
    )
    .command('tabs', 'List and manage tabs (never starts a server)', (y: Argv) =>
      y
        .command('$0', 'List tabs: id, name, status, cwd, holder and child pid', (yy: Argv) => yy.option('json', { type: 'boolean', describe: 'Print stable JSON' }), run(cmdTabs))
        .command(
          'stop [id]',
          'Stop (close) a tab, or every tab with --all',
          (yy: Argv) =>
            yy
              .positional('id', { type: 'string', describe: 'Tab id' })
              .option('all', { type: 'boolean', describe: 'Stop every tab' }),
          run(cmdTabsStop),
        )
        .command('doctor', 'A bounded diagnostic bundle: host status, recent records, counters (no terminal, prompt or recovery content)', (yy: Argv) => yy.option('out', { type: 'string', requiresArg: true, describe: 'Write the bundle to FILE (owner-only) instead of stdout' }), run(cmdDoctor))
        .command('sleep <id>', 'Checkpoint an agent tab and stop it; viewing it resumes the session', (yy: Argv) => yy.positional('id', { type: 'string', describe: 'Tab id' }), run(cmdTabsSleep))
        .command('host', 'The profile server', (yy: Argv) =>
          yy
            .command('status', 'Server pid, version, epoch, uptime, tab count, socket and log paths, counters and recent crash records', (z: Argv) => z.option('json', { type: 'boolean', describe: 'Print stable JSON' }), run(cmdHostStatus))
            .command('stop', 'Stop every tab, then the server', {}, run(cmdHostStop))
            .demandCommand(1, 'Name a host command: status or stop.')
            .strict(),
        )
        .strict(),
    )
    .epilog(EVERY_FORM)
    .version(VERSION)
    .help()
    .alias('h', 'help')
    .strict()
    .fail((msg, err) => {
      // yargs reports argument errors either as a message or as its own YError.
      if (err && err.name !== 'YError') throw err;
      process.stderr.write(`a1: ${msg ?? err?.message}\nRun "a1 --help" for usage.\n`);
      process.exit(2);
    });
  try {
    await cli.parseAsync();
  } catch (err) {
    if (err instanceof UserError || err instanceof ServerError || (err as { code?: string }).code) {
      process.stderr.write(`a1: ${(err as Error).message}\n`);
      process.exitCode = 1;
      return;
    }
    throw err;
  }
}
