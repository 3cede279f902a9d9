// The maintenance commands of SPEC §11 and §15, driven through the real binary: listing with and
// without a server, creating and stopping tabs without attaching, help and argument errors, and
// host stop.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { detach, e2e, hostStop, listing, livePids, PROMPT_SEEN, runDir, type E2E, type Listing } from './harness.js';
import { isAlive } from '../helpers/procs.js';
import type { PtyExit } from '../helpers/pty.js';
import { waitFor } from '../helpers/wait.js';
import { COMMANDS, GROUPS } from '../../src/cli/commands/index.js';
import { ATTENTION_WORDS, GLYPH_STATES, TAB_STATES } from '../../src/status/vocabulary.js';

let t: E2E | undefined;
afterEach(async () => {
  await t?.teardown();
  t = undefined;
});

const STATUSES = Object.keys(TAB_STATES);
const TAB_KEYS = ['agent', 'attention', 'childPid', 'cwd', 'exit', 'glyph', 'holderPid', 'id', 'name', 'position', 'startCwd', 'status', 'title'];
const ATTENTIONS = [null, ...ATTENTION_WORDS];

/** The documented shape of `a1 tabs --json` (version 1, src/status/scripting.ts), exactly: no
 * missing and no extra keys. */
function expectListingShape(value: unknown): asserts value is Listing {
  expect(value).toBeTypeOf('object');
  const l = value as Record<string, unknown>;
  expect(Object.keys(l).sort()).toEqual(['server', 'tabs', 'version']);
  expect(l.version).toBe(1);
  if (l.server !== null) {
    const server = l.server as Record<string, unknown>;
    expect(Object.keys(server).sort()).toEqual(['epoch', 'pid']);
    expect(Number.isInteger(server.pid)).toBe(true);
    expect(Number.isInteger(server.epoch)).toBe(true);
  }
  expect(Array.isArray(l.tabs)).toBe(true);
  for (const tab of l.tabs as Record<string, unknown>[]) {
    expect(Object.keys(tab).sort()).toEqual(TAB_KEYS);
    expect(tab.id).toBeTypeOf('string');
    expect(tab.name).toBeTypeOf('string');
    expect(tab.cwd).toBeTypeOf('string');
    expect(STATUSES).toContain(tab.status);
    for (const pid of [tab.holderPid, tab.childPid]) expect(pid === null || Number.isInteger(pid)).toBe(true);
    expect(tab.glyph === null || Object.keys(GLYPH_STATES).includes(tab.glyph as string)).toBe(true);
    expect(ATTENTIONS).toContain(tab.attention);
    if (tab.agent !== null) expect(Object.keys(tab.agent as object).sort()).toEqual(['kind', 'sessionId', 'state']);
  }
}

async function jsonListing(t: E2E): Promise<Listing> {
  const r = await t.run('tabs', '--json');
  expect(r.code, r.stderr).toBe(0);
  const parsed: unknown = JSON.parse(r.stdout);
  expectListingShape(parsed);
  return parsed;
}

/** Nothing of the profile runs and no server socket exists. */
function expectNothingRunning(t: E2E): void {
  expect(livePids(t)).toEqual([]);
  expect(fs.existsSync(path.join(runDir(t), 'server.sock'))).toBe(false);
}

function cmdline(pid: number): string[] {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter((a) => a !== '');
  } catch {
    return [];
  }
}

function cwdOf(pid: number): string {
  return fs.readlinkSync(`/proc/${pid}/cwd`);
}

async function waitRunning(t: E2E, ids: string[]): Promise<Listing> {
  return waitFor(async () => {
    const l = await jsonListing(t);
    const ready = ids.every((id) => l.tabs.some((x) => x.id === id && x.status === 'running' && x.childPid !== null && x.holderPid !== null));
    return ready ? l : undefined;
  }, { what: `tabs ${ids.join(', ')} running` });
}

/** The maintenance reports that must work with no server, each with what it must say. */
async function expectNoServerReports(t: E2E): Promise<Listing> {
  const tabs = await t.run('tabs');
  expect(tabs.code, tabs.stderr).toBe(0);
  expect(tabs.stdout).toMatch(/No a1 server is running/);
  expectNothingRunning(t);

  const status = await t.run('tabs', 'host', 'status');
  expect(status.code, status.stderr).toBe(0);
  expect(status.stdout).toMatch(/No a1 server is running/);
  expectNothingRunning(t);

  const statusJson = await t.run('tabs', 'host', 'status', '--json');
  expect(statusJson.code, statusJson.stderr).toBe(0);
  expect(JSON.parse(statusJson.stdout)).toMatchObject({ server: null });
  expectNothingRunning(t);

  const l = await jsonListing(t);
  expect(l.server).toBeNull();
  expectNothingRunning(t);
  return l;
}

describe('reports with no server', () => {
  it('a1 tabs and a1 tabs host status say so, start nothing and exit 0 on a fresh profile', async () => {
    t = e2e();
    const l = await expectNoServerReports(t);
    expect(l.tabs).toEqual([]);
  });

  it('after a host stop they list the kept tabs from the registry and still start nothing', async () => {
    t = e2e();
    const created = await t.run('new', '--name', 'kept');
    expect(created.code, created.stderr).toBe(0);
    const id = created.stdout.trim();
    await waitRunning(t, [id]);
    await hostStop(t);

    const l = await expectNoServerReports(t);
    expect(l.tabs).toHaveLength(1);
    const cwd = fs.realpathSync(t.home.dir);
    expect(l.tabs[0]).toMatchObject({ id, name: 'kept', cwd, holderPid: null, childPid: null });
    const text = await t.run('tabs');
    expect(text.stdout).toContain(id);
    expect(text.stdout).toContain(cwd);
  });
});

describe('a1 new and a1 tabs stop', () => {
  it('creates tabs without attaching, lists them with their cwd, and stops one', async () => {
    t = e2e();
    const work = path.join(t.home.dir, 'work');
    fs.mkdirSync(work);
    // Starts the server: there is none yet.
    const made = await t.run('new', '--name', 'sleeper', '--cwd', work, '--', '/bin/sleep', '1000');
    expect(made.code, made.stderr).toBe(0);
    expect(made.stdout).toMatch(/^\S+\n$/);
    const sleeper = made.stdout.trim();
    const plain = await t.run('new');
    expect(plain.code, plain.stderr).toBe(0);
    const shell = plain.stdout.trim();
    expect(shell).not.toBe(sleeper);

    const l = await waitRunning(t, [sleeper, shell]);
    expect(l.server).not.toBeNull();
    const one = l.tabs.find((x) => x.id === sleeper)!;
    const two = l.tabs.find((x) => x.id === shell)!;
    expect(one).toMatchObject({ name: 'sleeper', cwd: work });
    expect(two.cwd).toBe(fs.realpathSync(t.home.dir));
    // The command and its arguments run as given, in the given directory.
    expect(cmdline(one.childPid!)).toEqual(['/bin/sleep', '1000']);
    expect(cwdOf(one.childPid!)).toBe(fs.realpathSync(work));
    expect(cwdOf(two.childPid!)).toBe(fs.realpathSync(t.home.dir));

    // Nothing attached: every process of the profile is the server, a holder or a tab's child.
    const resident = new Set([l.server!.pid, ...l.tabs.flatMap((x) => [x.holderPid!, x.childPid!])]);
    expect(livePids(t).filter((pid) => !resident.has(pid)).map(cmdline)).toEqual([]);

    const text = await t.run('tabs');
    expect(text.code, text.stderr).toBe(0);
    const row = (id: string) => text.stdout.split('\n').find((line) => line.startsWith(id)) ?? '';
    expect(row(sleeper)).toContain('sleeper');
    expect(row(sleeper)).toContain(work);
    expect(row(shell)).toContain(two.cwd);

    const stopped = await t.run('tabs', 'stop', sleeper);
    expect(stopped.code, stopped.stderr).toBe(0);
    await waitFor(() => !isAlive(one.childPid!) && !isAlive(one.holderPid!), { what: 'the stopped tab’s child and holder gone' });
    const after = await jsonListing(t);
    expect(after.tabs.map((x) => x.id)).toEqual([shell]);
    // The other tab is untouched.
    expect(after.tabs[0]).toMatchObject({ holderPid: two.holderPid, childPid: two.childPid, status: 'running' });
    expect(isAlive(two.childPid!)).toBe(true);

    const unknown = await t.run('tabs', 'stop', 'tab-that-never-was');
    expect(unknown.code).not.toBe(0);
    expectOneConciseMessage(unknown.stderr);
  });
});

describe('help and argument errors', () => {
  const forms: { args: string[]; usage: string; lists?: string[] }[] = [
    { args: [], usage: 'a1 [command]', lists: ['a1 new', 'a1 tabs'] },
    { args: ['new'], usage: 'a1 new', lists: ['--name', '--cwd'] },
    { args: ['tabs'], usage: 'a1 tabs', lists: ['a1 tabs stop', 'a1 tabs host', '--json'] },
    { args: ['tabs', 'stop'], usage: 'a1 tabs stop', lists: ['--all'] },
    { args: ['tabs', 'host'], usage: 'a1 tabs host', lists: ['a1 tabs host status', 'a1 tabs host stop'] },
    { args: ['tabs', 'host', 'status'], usage: 'a1 tabs host status', lists: ['--json'] },
    { args: ['tabs', 'host', 'stop'], usage: 'a1 tabs host stop' },
  ];

  it('--help works for every command form, exits 0 and starts nothing', async () => {
    t = e2e();
    for (const form of forms) {
      const r = await t.run(...form.args, '--help');
      const what = `a1 ${[...form.args, '--help'].join(' ')}`;
      expect(r.code, what).toBe(0);
      expect(r.stderr, what).toBe('');
      expect(r.stdout, what).toContain(form.usage);
      for (const item of form.lists ?? []) expect(r.stdout, what).toContain(item);
      expectNothingRunning(t);
    }
  });

  it('--help of every declared command and group shows its usage, options and subcommands; a1 --help lists every form', async () => {
    t = e2e();
    const top = await t.run('--help');
    expect(top.code).toBe(0);
    for (const entry of COMMANDS) expect(top.stdout).toContain(entry.usage);
    for (const form of declaredHelpForms()) {
      const r = await t.run(...form.args, '--help');
      const what = `a1 ${[...form.args, '--help'].join(' ')}`;
      expect(r.code, what).toBe(0);
      expect(r.stderr, what).toBe('');
      expect(r.stdout, what).toContain(form.usage);
      for (const item of form.lists) expect(r.stdout, what).toContain(item);
    }
    expectNothingRunning(t);
  });

  it('a bad argument exits non-zero with one concise message and starts nothing', async () => {
    t = e2e();
    const bad = [
      ['--bogus'],
      ['frob'],
      ['tabs', '--bogus'],
      ['tabs', 'stop'],
      ['tabs', 'stop', 'a', '--all'],
      ['tabs', 'host'],
      ['tabs', 'host', 'frob'],
      ['new', '--cwd', path.join(t.home.dir, 'no-such-dir')],
    ];
    for (const args of bad) await expectRefused(t, args);
  });

  it('an option that takes a value refuses to run without one', async () => {
    t = e2e();
    // Otherwise `a1 new --name -- CMD` silently creates a tab with a default name.
    for (const args of [['new', '--name'], ['new', '--cwd'], ['new', '--name', '--', '/bin/true']]) await expectRefused(t, args);
  });
});

/** From the command table: each command and group, its usage line, and what its help must list
 * (its options and the commands one word below it). */
function declaredHelpForms(): { args: string[]; usage: string; lists: string[] }[] {
  const paths = [...COMMANDS.flatMap((e) => (e.kind === 'command' ? [e.path] : [])), ...GROUPS.map((g) => g.path)];
  const unique = [...new Map(paths.map((p) => [p.join(' '), [...p]])).values()];
  return unique.map((path) => {
    const options = COMMANDS.flatMap((e) => (e.kind === 'command' && e.path.join(' ') === path.join(' ') ? Object.keys(e.options ?? {}) : []));
    const below = unique.filter((p) => p.length === path.length + 1 && path.every((w, i) => p[i] === w));
    return {
      args: path,
      usage: path.length === 0 ? 'a1 [command]' : `a1 ${path.join(' ')}`,
      lists: [...options.map((o) => `--${o}`), ...below.map((p) => `a1 ${p.join(' ')}`)],
    };
  });
}

/** `a1 ...args` fails: non-zero, nothing on stdout, one concise message, nothing started. */
async function expectRefused(t: E2E, args: string[]): Promise<void> {
  const r = await t.run(...args);
  const what = `a1 ${args.join(' ')}`;
  expect(r.code, `${what} exited ${r.code} and printed ${JSON.stringify(r.stdout)}`).not.toBe(0);
  expect(r.stdout, what).toBe('');
  expectOneConciseMessage(r.stderr, what);
  expectNothingRunning(t);
}

/** "a1: <message>", optionally followed by a pointer to --help; never a stack or a usage dump. */
function expectOneConciseMessage(stderr: string, what = ''): void {
  const lines = stderr.trimEnd().split('\n');
  expect(lines[0], what).toMatch(/^a1: \S/);
  expect(lines.length, `${what}: ${stderr}`).toBeLessThanOrEqual(2);
  if (lines.length === 2) expect(lines[1], what).toMatch(/--help/);
}

describe('host stop', () => {
  it('ends every process of the profile: server, holders and children', async () => {
    t = e2e();
    const a1 = t.attach();
    await a1.waitForText(PROMPT_SEEN);
    await detach(a1);
    const made = await t.run('new', '--', '/bin/sleep', '1000');
    expect(made.code, made.stderr).toBe(0);
    const l = await waitRunning(t, [made.stdout.trim()]);
    expect(l.tabs).toHaveLength(2);
    const resident = [l.server!.pid, ...l.tabs.flatMap((x) => [x.holderPid!, x.childPid!])];
    expect(livePids(t).sort()).toEqual([...resident].sort());

    const r = await t.run('tabs', 'host', 'stop');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Stopped 2 tabs/);
    await waitFor(() => livePids(t!).length === 0, { what: 'no process of the profile left' });
    for (const pid of resident) expect(isAlive(pid)).toBe(false);
    expect(fs.existsSync(path.join(runDir(t), 'server.sock'))).toBe(false);

    // The tab set is kept for the next a1 (SPEC §9), with no process recorded.
    const after = await jsonListing(t);
    expect(after.server).toBeNull();
    expect(after.tabs.map((x) => x.id).sort()).toEqual(l.tabs.map((x) => x.id).sort());
    for (const tab of after.tabs) expect(tab).toMatchObject({ holderPid: null, childPid: null });
  });

  it('detaches an attached client instead of letting it start a replacement server', async () => {
    t = e2e();
    const a1 = t.attach();
    await a1.waitForText(PROMPT_SEEN);
    const l = await jsonListing(t);
    const resident = [l.server!.pid, l.tabs[0].holderPid!, l.tabs[0].childPid!];

    let exit: PtyExit | undefined;
    void a1.exited.then((e) => (exit = e));
    const r = await t.run('tabs', 'host', 'stop');
    expect(r.code, r.stderr).toBe(0);
    // Host stop detaches every view (SPEC §9): the client leaves and gives the terminal back.
    await waitFor(() => exit, { what: 'the attached client to leave after host stop' }).catch(async (error: Error) => {
      await a1.flush();
      const left = livePids(t!).map((pid) => cmdline(pid).slice(1).join(' '));
      throw new Error(`${error.message}\nscreen:\n${a1.screenText().join('\n').trimEnd()}\nprocesses of the profile: ${JSON.stringify(left)}`);
    });
    expect(exit!.exitCode).toBe(0);
    await a1.flush();
    expect(a1.bufferType()).toBe('normal');
    await waitFor(() => livePids(t!).length === 0, { what: 'no process of the profile left' });
    for (const pid of resident) expect(isAlive(pid)).toBe(false);
    expect((await jsonListing(t)).server).toBeNull();
  });
});

describe('a broken config.json', () => {
  it('never stands between a user and running tabs: a1 new and a1 go on with the defaults, one notice naming file, line and column', async () => {
    t = e2e();
    const made = await t.run('new', '--name', 'first');
    expect(made.code, made.stderr).toBe(0);
    const file = path.join(t.home.dir, 'config', 'config.json');
    // The user's edit went wrong while tabs run: a missing comma on line 3.
    fs.writeFileSync(file, '{\n  "tabsMax": 5\n  "scrollbackLines": 100\n}\n');
    const second = await t.run('new', '--name', 'second');
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toBe(`a1: ${file}:3:3: not valid JSON (comma expected); using the defaults.\n`);
    expect((await listing(t)).tabs.map((x) => x.name).sort()).toEqual(['first', 'second']);
    const a1 = t.attach();
    await a1.waitForText(`${path.basename(file)}:3:3: not valid JSON`);
    await a1.waitForText(PROMPT_SEEN);
    await detach(a1);
  });
});

describe('profiles', () => {
  it('two profiles at once: separate servers, registries and tab lists; stopping one leaves the other', async () => {
    t = e2e();
    const run = (profile: string, ...args: string[]) => t!.run(...args, '--profile', profile);
    const list = async (profile: string): Promise<Listing> => {
      const r = await run(profile, 'tabs', '--json');
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(r.stdout) as Listing;
    };
    for (const [profile, name] of [['work', 'in-work'], ['play', 'in-play']]) {
      const made = await run(profile, 'new', '--name', name);
      expect(made.code, made.stderr).toBe(0);
    }
    const [work, play] = [await list('work'), await list('play')];
    expect(work.tabs.map((x) => x.name)).toEqual(['in-work']);
    expect(play.tabs.map((x) => x.name)).toEqual(['in-play']);
    expect(work.server!.pid).not.toBe(play.server!.pid);
    expect(isAlive(work.server!.pid) && isAlive(play.server!.pid)).toBe(true);
    const registries = ['work', 'play'].map((p) => path.join(t!.home.dir, 'state', p, 'registry.db'));
    for (const file of registries) expect(fs.existsSync(file), file).toBe(true);

    const stopped = await run('work', 'tabs', 'host', 'stop');
    expect(stopped.code, stopped.stderr).toBe(0);
    await waitFor(() => !isAlive(work.server!.pid), { what: 'the work server gone' });
    const after = await list('play');
    expect(after.server?.pid).toBe(play.server!.pid);
    expect(after.tabs.map((x) => [x.name, x.status])).toEqual([['in-play', 'running']]);
    expect(isAlive(play.tabs[0].childPid!)).toBe(true);
    expect((await list('work')).server).toBeNull();
  });
});
