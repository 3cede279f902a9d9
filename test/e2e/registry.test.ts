// The registry and the files around it, driven through the real binary: a recorded pid that now
// names an unrelated process, a corrupt registry with and without a good generation, and the
// modes of everything a1 leaves under A1_HOME (SPEC §4, §5).
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { detach, e2e, hostStop, listing, livePids, PROMPT_SEEN, runDir, stateDir, type E2E } from './harness.js';
import { isAlive, killTracked, startTimeOf, track } from '../helpers/procs.js';
import { waitFor } from '../helpers/wait.js';
import { FIELD_COLUMNS } from '../../src/store/tabRow.js';
import { resolvePaths } from '../../src/paths.js';

let t: E2E | undefined;
afterEach(async () => {
  killTracked();
  await t?.teardown();
  t = undefined;
});

/** Every signal a process can catch: a decoy that traps them all records any that reaches it. */
const CATCHABLE_SIGNALS = ['HUP', 'INT', 'QUIT', 'TERM', 'USR1', 'USR2', 'ALRM', 'CONT', 'PIPE', 'TSTP'];

/**
 * Starts an unrelated long-running bash (no A1_HOME marker, its own process group) that appends
 * the name of every signal it receives to `signalsFile`, and resolves once its traps are set.
 */
async function startDecoy(dir: string): Promise<{ pid: number; signalsFile: string }> {
  const signalsFile = path.join(dir, 'decoy-signals');
  const readyFile = path.join(dir, 'decoy-ready');
  const traps = CATCHABLE_SIGNALS.map((s) => `trap 'echo ${s} >> "$SIGNALS"' ${s}`).join('; ');
  // `wait` returns as soon as a trapped signal arrives, so the trap runs at once.
  const script = `${traps}; : > "$READY"; while :; do sleep 1000 & wait $!; done`;
  const decoy = spawn('/bin/bash', ['--norc', '--noprofile', '-c', script], {
    detached: true,
    stdio: 'ignore',
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', SIGNALS: signalsFile, READY: readyFile },
  });
  const pid = decoy.pid!;
  track(pid, { group: true });
  await waitFor(() => fs.existsSync(readyFile), { what: 'the decoy to set its traps' });
  return { pid, signalsFile };
}

/** The process state letter from /proc/<pid>/stat ('T' when stopped). */
function procState(pid: number): string | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0] ?? null;
  } catch {
    return null;
  }
}

function sha256(file: string): string {
  return crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

/** SQLite's page size, from the database header (1 means 65536). */
function pageSizeOf(file: string): number {
  const size = Buffer.alloc(2);
  const fd = fs.openSync(file, 'r');
  try {
    fs.readSync(fd, size, 0, 2, 16);
  } finally {
    fs.closeSync(fd);
  }
  const n = size.readUInt16BE(0);
  return n === 1 ? 65_536 : n;
}

/** Overwrites every page after the first: SQLite still opens the file, but its tables are garbage. */
function corruptTables(file: string): void {
  const page = pageSizeOf(file);
  const size = fs.statSync(file).size;
  expect(size).toBeGreaterThan(page);
  const fd = fs.openSync(file, 'r+');
  try {
    fs.writeSync(fd, Buffer.alloc(size - page, 0xa5), 0, size - page, page);
  } finally {
    fs.closeSync(fd);
  }
}

/** Overwrites the 100-byte database header: the file is no longer recognisable as SQLite. */
function corruptHeader(file: string): void {
  const fd = fs.openSync(file, 'r+');
  try {
    fs.writeSync(fd, Buffer.alloc(100, 0x5a), 0, 100, 0);
  } finally {
    fs.closeSync(fd);
  }
}

/** The registry's own files (registry.db and companions, quarantined copies, generations) and
 * their hashes: the evidence a blocked start must leave exactly as it found it. */
function registryFiles(state: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of fs.readdirSync(state)) {
    if (name.startsWith('registry.db')) files[name] = sha256(path.join(state, name));
  }
  const backups = path.join(state, 'backups');
  if (fs.existsSync(backups)) {
    for (const name of fs.readdirSync(backups)) files[`backups/${name}`] = sha256(path.join(backups, name));
  }
  return files;
}

/** Orders generation file names (registry-<epoch>-<ms>.db) by write time, oldest first. */
function byGenerationTime(a: string, b: string): number {
  const ms = (name: string) => Number(/^registry-\d+-(\d+)\.db$/.exec(name)?.[1] ?? -1);
  return ms(a) - ms(b);
}

/** A WAL with frames would supply pages the corruption did not touch; a clean stop leaves none. */
function expectNoPendingWal(state: string): void {
  const wal = path.join(state, 'registry.db-wal');
  expect(fs.existsSync(wal) ? fs.statSync(wal).size : 0).toBe(0);
}

/** Creates a tab with `a1 new` (starting a server) and returns its id. */
async function newTab(t: E2E, name: string): Promise<string> {
  const r = await t.run('new', '--name', name);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout.trim();
}

/** Output with terminal control sequences removed and line ends normalised. */
function plainText(raw: string): string {
  return raw.replace(/\x1b\[[0-9;?]*[ -/]*[@-~]/g, '').replace(/\x1b[()][0-9A-Za-z]/g, '').replace(/\r/g, '');
}

/** Starts `a1` in a PTY where start is expected to be refused; returns its exit and its words. */
async function refusedStart(t: E2E): Promise<{ exitCode: number; text: string; buffer: 'normal' | 'alternate' }> {
  const a1 = t.attach();
  const { exitCode } = await a1.exited;
  await a1.flush();
  return { exitCode, text: plainText(a1.rawOutput()).trim(), buffer: a1.bufferType() };
}

describe('recorded holder identity', () => {
  it('never signals or adopts a process that took over the recorded holder pid', async () => {
    t = e2e();
    const a1 = t.attach();
    await a1.waitForText(PROMPT_SEEN);
    const before = await listing(t);
    const tab = before.tabs[0];
    expect(before.server).not.toBeNull();
    expect(tab.holderPid).not.toBeNull();
    expect(tab.childPid).not.toBeNull();
    await detach(a1);

    // The whole resident set dies at once, as in a power cut of the profile.
    for (const pid of [before.server!.pid, tab.holderPid!, tab.childPid!]) process.kill(pid, 'SIGKILL');
    await waitFor(() => livePids(t!).length === 0, { what: 'the server, holder and child gone' });

    const decoy = await startDecoy(t.home.dir);
    const decoyStart = startTimeOf(decoy.pid);
    const db = new Database(path.join(stateDir(t), 'registry.db'));
    try {
      const update = db.prepare(`UPDATE tabs SET ${FIELD_COLUMNS.holderPid} = ? WHERE ${FIELD_COLUMNS.id} = ?`).run(decoy.pid, tab.id);
      expect(update.changes).toBe(1);
      const row = db.prepare(`SELECT ${FIELD_COLUMNS.holderStart} AS start FROM tabs WHERE ${FIELD_COLUMNS.id} = ?`).get(tab.id) as { start: string | null };
      // The recorded start time is the dead holder's, so pid and start time no longer agree.
      expect(row.start).not.toBeNull();
      expect(row.start).not.toBe(decoyStart);
    } finally {
      db.close();
    }

    const again = t.attach();
    await again.waitForText(PROMPT_SEEN);
    again.write('echo fresh-$((5*5))\r');
    await again.waitForText('fresh-25');

    const after = await listing(t);
    expect(after.server!.epoch).toBeGreaterThan(before.server!.epoch);
    expect(after.tabs.map((x) => x.id)).toEqual([tab.id]);
    const holderPid = after.tabs[0].holderPid;
    expect(holderPid).not.toBeNull();
    expect(holderPid).not.toBe(decoy.pid);
    expect(holderPid).not.toBe(tab.holderPid);
    expect(isAlive(holderPid!)).toBe(true);
    expect(after.tabs[0].status).toBe('running');

    // Still the same process, running, and no catchable signal ever reached it.
    expect(isAlive(decoy.pid)).toBe(true);
    expect(startTimeOf(decoy.pid)).toBe(decoyStart);
    expect(procState(decoy.pid)).not.toBe('T');
    expect(fs.existsSync(decoy.signalsFile) ? fs.readFileSync(decoy.signalsFile, 'utf8') : '').toBe('');
  });
});

describe('registry recovery', () => {
  it('quarantines a corrupt registry, loads the newest good generation and says so on screen', async () => {
    t = e2e();
    // Each server start writes a generation of the registry as it found it: the second start's
    // generation holds the first tab, and the tab created after it exists only in registry.db.
    const kept = await newTab(t, 'kept');
    await hostStop(t);
    const lost = await newTab(t, 'lost');
    const secondEpoch = (await listing(t)).server!.epoch;
    await hostStop(t);

    const state = stateDir(t);
    const registry = path.join(state, 'registry.db');
    expectNoPendingWal(state);
    corruptTables(registry);
    const corruptHash = sha256(registry);
    const newestGeneration = fs.readdirSync(path.join(state, 'backups')).sort(byGenerationTime).at(-1);
    expect(newestGeneration).toMatch(new RegExp(`^registry-${secondEpoch}-\\d+\\.db$`));

    const a1 = t.attach();
    const screen = await a1.waitForText('Registry recovered');
    await a1.waitForText(PROMPT_SEEN);

    const quarantined = fs.readdirSync(state).filter((name) => /^registry\.db\.corrupt-\d+$/.test(name));
    expect(quarantined).toHaveLength(1);
    // Kept byte for byte: it is the evidence.
    expect(sha256(path.join(state, quarantined[0]))).toBe(corruptHash);
    // The notice names both files (a long notice wraps, so its rows are joined).
    const shown = screen.map((l) => l.trim()).join('');
    expect(shown).toContain(quarantined[0]);
    expect(shown).toContain(newestGeneration);

    const after = await listing(t);
    expect(after.tabs.map((x) => ({ id: x.id, name: x.name }))).toEqual([{ id: kept, name: 'kept' }]);
    expect(after.tabs.some((x) => x.id === lost)).toBe(false);
    // Restoring an older copy never moves the epoch backwards.
    expect(after.server!.epoch).toBeGreaterThan(secondEpoch);
    a1.write('echo restored-$((4*4))\r');
    await a1.waitForText('restored-16');
    // Said once: the same notice twice over the surface is noise.
    expect(shown.match(/Registry recovered/g), screen.join('\n')).toHaveLength(1);
  });

  it('refuses to start with no valid generation and leaves every registry file as it was', async () => {
    t = e2e();
    await newTab(t, 'only');
    await hostStop(t);
    const state = stateDir(t);
    expectNoPendingWal(state);
    corruptHeader(path.join(state, 'registry.db'));
    const generations = fs.readdirSync(path.join(state, 'backups'));
    expect(generations.length).toBeGreaterThan(0);
    for (const name of generations) corruptHeader(path.join(state, 'backups', name));
    const evidence = registryFiles(state);

    const refused = await refusedStart(t);
    expect(refused.exitCode).not.toBe(0);
    expectOneSentenceAboutTheRegistry(refused.text, path.join(state, 'registry.db'));
    // Refused before the client took the terminal over.
    expect(refused.buffer).toBe('normal');

    const viaNew = await t.run('new', '--name', 'another');
    expect(viaNew.code).not.toBe(0);
    expect(viaNew.stdout).toBe('');
    expectOneSentenceAboutTheRegistry(viaNew.stderr.trim(), path.join(state, 'registry.db'));

    await waitFor(() => livePids(t!).length === 0, { what: 'no a1 process left after the refusals' });
    expect(fs.existsSync(path.join(runDir(t), 'server.sock'))).toBe(false);
    expect(registryFiles(state)).toEqual(evidence);
  });

  it('refuses to start on a corrupt registry with no generations at all, changing nothing', async () => {
    t = e2e();
    const state = stateDir(t);
    fs.mkdirSync(state, { recursive: true, mode: 0o700 });
    const registry = path.join(state, 'registry.db');
    fs.writeFileSync(registry, crypto.randomBytes(8192), { mode: 0o600 });
    corruptHeader(registry);
    const evidence = registryFiles(state);

    const refused = await refusedStart(t);
    expect(refused.exitCode).not.toBe(0);
    expectOneSentenceAboutTheRegistry(refused.text, registry);

    await waitFor(() => livePids(t!).length === 0, { what: 'no a1 process left after the refusal' });
    expect(fs.existsSync(path.join(runDir(t), 'server.sock'))).toBe(false);
    expect(registryFiles(state)).toEqual(evidence);
  });
});

/** One line, one sentence, naming the registry: "a1: The registry … is corrupt … ." */
function expectOneSentenceAboutTheRegistry(text: string, registry: string): void {
  expect(text.split('\n'), text).toHaveLength(1);
  expect(text).toMatch(/^a1: \S.*\.$/);
  expect(text).toContain(registry);
  expect(text).toMatch(/corrupt|recovery blocked/i);
  expect(text).not.toMatch(/\n\s+at /);
}

describe('modes of what a1 creates', () => {
  it('leaves every file and socket 0600 inside 0700 directories, whatever the umask', async () => {
    t = e2e();
    // The user's umask must not leak into a1's own files: start everything under the loosest one.
    const saved = process.umask(0o000);
    let a1;
    try {
      a1 = t.attach();
    } finally {
      process.umask(saved);
    }
    await a1.waitForText(PROMPT_SEEN);
    const loose = process.umask(0o000);
    let created;
    try {
      created = t.run('new', '--name', 'second');
    } finally {
      process.umask(loose);
    }
    expect((await created).code).toBe(0);
    await waitFor(async () => {
      const l = await listing(t!);
      return l.tabs.length === 2 && l.tabs.every((x) => x.status === 'running' && x.holderPid !== null);
    }, { what: 'both tabs running' });

    const roots = [t.home.dir];
    const socketDir = resolvePaths({ env: t.env }).socketDir;
    if (!socketDir.startsWith(t.home.dir + path.sep)) roots.push(socketDir);
    const seen = { dirs: [] as string[], files: [] as string[], sockets: [] as string[], other: [] as string[] };
    const wrong: string[] = [];
    const walk = (p: string): void => {
      const st = fs.lstatSync(p);
      const mode = st.mode & 0o777;
      if (st.isDirectory()) {
        seen.dirs.push(p);
        if (mode !== 0o700) wrong.push(`${p} dir ${mode.toString(8)}`);
        for (const name of fs.readdirSync(p)) walk(path.join(p, name));
      } else if (st.isFile()) {
        seen.files.push(p);
        if (mode !== 0o600) wrong.push(`${p} file ${mode.toString(8)}`);
      } else if (st.isSocket()) {
        seen.sockets.push(p);
        if (mode !== 0o600) wrong.push(`${p} socket ${mode.toString(8)}`);
      } else {
        seen.other.push(p);
      }
    };
    for (const root of roots) walk(root);

    expect(wrong).toEqual([]);
    expect(seen.other).toEqual([]);
    const names = (list: string[]) => list.map((p) => path.basename(p));
    // The walk saw what a live profile has: otherwise it proves nothing.
    expect(names(seen.sockets)).toContain('server.sock');
    expect(names(seen.sockets).filter((n) => /^h-.*\.sock$/.test(n))).toHaveLength(2);
    expect(names(seen.files)).toEqual(expect.arrayContaining(['registry.db', 'secret', 'client.token']));
    expect(seen.files.some((p) => p.includes(`${path.sep}backups${path.sep}`))).toBe(true);
    expect(seen.files.some((p) => p.includes(`${path.sep}logs${path.sep}`))).toBe(true);
  });
});
