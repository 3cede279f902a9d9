import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { propertyRuns } from '../helpers/runs.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  BACKUP_GENERATIONS,
  FencedError,
  Registry,
  RegistryBlockedError,
  RegistryTooNewError,
  RegistryUnreadableError,
  ReservedMetaKeyError,
  TabNotFoundError,
  WriterLease,
  type ReadonlyRegistry,
} from '../../src/store/registry.js';
import { SCHEMA_VERSION } from '../../src/store/schema.js';
import { killTracked } from '../helpers/procs.js';
import { waitFor } from '../helpers/wait.js';
import { bundleRegistry, makeStateDir, makeTab, modeOf, runChild, snapshotDir, tabArb } from './helpers.js';

const SERVER_ID = { pid: 4242, startTime: '123456', bootId: 'boot-a' };

const dirs: string[] = [];
const closers: (() => void)[] = [];

afterEach(() => {
  killTracked();
  for (const close of closers.splice(0).reverse()) close();
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function stateDir(): string {
  const dir = makeStateDir();
  dirs.push(dir);
  return dir;
}

function acquire(dir: string): WriterLease {
  const lease = WriterLease.tryAcquire(dir);
  if (lease === null) throw new Error('lease unexpectedly taken');
  closers.push(() => lease.release());
  return lease;
}

function open(dir: string, now?: () => number): { registry: Registry; notices: string[] } {
  const opened = Registry.open({ stateDir: dir, now });
  closers.push(() => opened.registry.close());
  return opened;
}

function openReadOnly(dir: string): ReadonlyRegistry | null {
  const ro = Registry.openReadOnly(dir);
  if (ro !== null) closers.push(() => ro.close());
  return ro;
}

/** A registry started as a server would start it, with its own lease. */
function started(dir: string, now?: () => number): { registry: Registry; lease: WriterLease } {
  const lease = acquire(dir);
  const { registry } = open(dir, now);
  registry.startServer(lease, SERVER_ID);
  return { registry, lease };
}

/** Closes everything opened so far (registries, then leases), as a server's exit would. */
function closeAll(): void {
  for (const close of closers.splice(0).reverse()) close();
}

function rawQuery<T>(file: string, sql: string): T[] {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare(sql).all() as T[];
  } finally {
    db.close();
  }
}

/** Overwrites part of a closed database file with garbage, as a failing disk or stray write would. */
function corrupt(file: string, where: 'header' | 'last-page'): void {
  const bytes = fs.readFileSync(file);
  const start = where === 'header' ? 0 : bytes.length - 4096;
  const end = where === 'header' ? 16 : bytes.length;
  bytes.fill(0xa5, start, end);
  fs.writeFileSync(file, bytes);
}

describe('Registry.open', () => {
  it('uses WAL, synchronous=FULL and a busy timeout of a few seconds', () => {
    const dir = stateDir();
    const { registry } = open(dir);
    expect(registry.diagnostics()).toEqual({ journalMode: 'wal', synchronous: 2, busyTimeoutMs: expect.any(Number) });
    expect(registry.diagnostics().busyTimeoutMs).toBeGreaterThanOrEqual(1_000);
    expect(registry.diagnostics().busyTimeoutMs).toBeLessThanOrEqual(10_000);
    expect(rawQuery<{ journal_mode: string }>(path.join(dir, 'registry.db'), 'PRAGMA journal_mode')).toEqual([
      { journal_mode: 'wal' },
    ]);
    expect(registry.getMeta('schema_version')).toBe(String(SCHEMA_VERSION));
  });

  it('creates every file 0600 and the backups directory 0700, whatever the umask', () => {
    const dir = stateDir();
    const previous = process.umask(0o022);
    try {
      const { registry } = started(dir);
      registry.insertTab(makeTab('a'));
      const generation = registry.backup();
      expect(modeOf(path.join(dir, 'backups'))).toBe(0o700);
      expect(modeOf(generation)).toBe(0o600);
      for (const file of ['registry.db', 'registry.db-wal', 'registry.db-shm', 'writer.lock']) {
        expect(modeOf(path.join(dir, file)), file).toBe(0o600);
      }
    } finally {
      process.umask(previous);
    }
  });

  it('keeps the file locks of a connection already open in this process when opened again', async () => {
    const dir = stateDir();
    const file = path.join(dir, 'registry.db');
    const { registry } = started(dir);
    registry.insertTab(makeTab('a'));
    // Another process can lock the file exclusively only if no connection here holds its lock.
    const probe = async (): Promise<string> => {
      const child = runChild(
        `
        const { default: Database } = await import(process.env.SQLITE);
        const db = new Database(process.env.DB, { timeout: 0 });
        try {
          db.pragma('locking_mode = EXCLUSIVE');
          db.prepare('SELECT count(*) FROM tabs').get();
          console.log('exclusive');
        } catch (error) {
          console.log(error.code);
        }
        `,
        { SQLITE: createRequire(import.meta.url).resolve('better-sqlite3'), DB: file },
      );
      await child.exited;
      return child.lines[0];
    };
    expect(await probe()).toBe('SQLITE_BUSY');
    open(dir);
    expect(await probe()).toBe('SQLITE_BUSY');
  });

  it('clears scratch copies that a crashed integrity check left behind', () => {
    const dir = stateDir();
    fs.mkdirSync(path.join(dir, '.verify-crashed'));
    fs.writeFileSync(path.join(dir, '.verify-crashed', 'check.db'), 'partial copy');
    open(dir);
    expect(fs.readdirSync(dir).filter((f) => f.startsWith('.verify-'))).toEqual([]);
  });

  it('refuses a registry written by a newer schema', () => {
    const dir = stateDir();
    const { registry } = started(dir);
    closeAll();
    const db = new Database(path.join(dir, 'registry.db'));
    db.prepare("UPDATE meta SET value = ? WHERE key = 'schema_version'").run(String(SCHEMA_VERSION + 1));
    db.close();
    expect(() => Registry.open({ stateDir: dir })).toThrow(RegistryTooNewError);
    expect(registry).toBeDefined();
  });
});

describe('startServer', () => {
  it('increments the epoch durably on every start and records the lease and boot id', () => {
    const dir = stateDir();
    const times = [1_000, 2_000, 3_000];
    for (const [i, at] of times.entries()) {
      const lease = acquire(dir);
      const { registry } = open(dir, () => at);
      const result = registry.startServer(lease, { pid: 100 + i, startTime: `start-${i}`, bootId: `boot-${i}` });
      expect(result).toEqual({ epoch: i + 1, previousBootId: i === 0 ? null : `boot-${i - 1}` });
      expect(registry.epoch).toBe(i + 1);
      closeAll();
    }
    expect(rawQuery(path.join(dir, 'registry.db'), 'SELECT * FROM leases')).toEqual([
      { name: 'writer', owner_pid: 102, owner_start: 'start-2', epoch: 3, acquired_at: 3_000 },
    ]);
    expect(rawQuery(path.join(dir, 'registry.db'), "SELECT value FROM meta WHERE key = 'boot_id'")).toEqual([
      { value: 'boot-2' },
    ]);
  });

  it('refuses a released lease and a lease for another state directory', () => {
    const dir = stateDir();
    const lease = acquire(dir);
    const { registry } = open(dir);
    lease.release();
    expect(() => registry.startServer(lease, SERVER_ID)).toThrow(FencedError);
    const otherLease = acquire(stateDir());
    expect(() => registry.startServer(otherLease, SERVER_ID)).toThrow(FencedError);
    expect(registry.epoch).toBe(0);
  });
});

describe('tabs and revision', () => {
  it('bumps the revision for topology changes only', () => {
    const { registry } = started(stateDir());
    expect(registry.revision).toBe(0);
    expect(registry.insertTab(makeTab('a')).revision).toBe(1);
    expect(registry.insertTab(makeTab('b')).revision).toBe(2);
    expect(registry.updateTab('a', { lifecycle: 'running', holderPid: 77, childPid: 78 }, { topology: false })).toBe(2);
    expect(registry.updateTab('a', { name: 'renamed', nameSource: 'user' }, { topology: true })).toBe(3);
    registry.setMeta('last_viewed_tab', 'b');
    expect(registry.revision).toBe(3);
    expect(registry.deleteTab('b')).toBe(4);
    expect(registry.revision).toBe(4);
    expect(registry.getTab('a')).toMatchObject({ name: 'renamed', nameSource: 'user', lifecycle: 'running', holderPid: 77 });
    expect(registry.getMeta('last_viewed_tab')).toBe('b');
  });

  it('appends each new tab after the last and lists tabs in order', () => {
    const { registry } = started(stateDir());
    for (const id of ['a', 'b', 'c']) registry.insertTab(makeTab(id));
    registry.deleteTab('c');
    registry.updateTab('a', { ord: 5 }, { topology: true });
    const { tab } = registry.insertTab(makeTab('d'));
    expect(tab.ord).toBe(6);
    expect(registry.listTabs().map((t) => [t.id, t.ord])).toEqual([
      ['b', 1],
      ['a', 5],
      ['d', 6],
    ]);
  });

  it('stores and returns every tab field faithfully', () => {
    const { registry } = started(stateDir());
    let n = 0;
    fc.assert(
      fc.property(tabArb, (generated) => {
        const { ord: _ignored, ...tab } = { ...generated, id: `tab-${n++}` };
        const inserted = registry.insertTab(tab).tab;
        expect(registry.getTab(tab.id)).toEqual(inserted);
        expect(inserted).toEqual({ ...tab, ord: inserted.ord });
      }),
      { numRuns: propertyRuns(50) },
    );
  });

  it('rejects a mutation of a missing tab without committing a revision', () => {
    const { registry } = started(stateDir());
    registry.insertTab(makeTab('a'));
    expect(() => registry.updateTab('nope', { name: 'x' }, { topology: true })).toThrow(TabNotFoundError);
    expect(() => registry.updateTab('nope', {}, { topology: true })).toThrow(TabNotFoundError);
    expect(() => registry.deleteTab('nope')).toThrow(TabNotFoundError);
    expect(registry.revision).toBe(1);
  });

  it('keeps the keys it maintains out of setMeta', () => {
    const { registry } = started(stateDir());
    for (const key of ['schema_version', 'revision', 'epoch', 'boot_id']) {
      expect(() => registry.setMeta(key, '99')).toThrow(ReservedMetaKeyError);
    }
    expect(registry.epoch).toBe(1);
  });
});

describe('fencing', () => {
  it('refuses every write from a registry whose epoch was superseded, committing nothing', () => {
    const dir = stateDir();
    const lease = acquire(dir);
    const first = open(dir).registry;
    first.startServer(lease, SERVER_ID);
    first.insertTab(makeTab('a'));
    first.setMeta('last_viewed_tab', 'a');

    const second = open(dir).registry;
    expect(second.startServer(lease, { ...SERVER_ID, bootId: 'boot-b' }).epoch).toBe(2);
    const before = { tabs: second.listTabs(), revision: second.revision, viewed: second.getMeta('last_viewed_tab') };

    expect(() => first.insertTab(makeTab('b'))).toThrow(FencedError);
    expect(() => first.updateTab('a', { name: 'x' }, { topology: true })).toThrow(FencedError);
    expect(() => first.updateTab('a', { holderPid: 9 }, { topology: false })).toThrow(FencedError);
    expect(() => first.deleteTab('a')).toThrow(FencedError);
    expect(() => first.setMeta('last_viewed_tab', 'b')).toThrow(FencedError);
    expect(() => first.backup()).toThrow(FencedError);

    expect({ tabs: second.listTabs(), revision: second.revision, viewed: second.getMeta('last_viewed_tab') }).toEqual(before);
    expect(fs.existsSync(path.join(dir, 'backups'))).toBe(false);
    expect(second.insertTab(makeTab('b')).revision).toBe(before.revision + 1);
  });

  it('refuses writes once the lease is released, and before a server epoch started', () => {
    const dir = stateDir();
    const { registry, lease } = started(dir);
    lease.release();
    expect(() => registry.insertTab(makeTab('a'))).toThrow(FencedError);
    expect(registry.listTabs()).toEqual([]);

    const unstarted = open(dir).registry;
    expect(() => unstarted.insertTab(makeTab('a'))).toThrow(FencedError);
    expect(unstarted.revision).toBe(0);
  });
});

describe('generations and recovery', () => {
  it('keeps at most BACKUP_GENERATIONS backups, newest kept', () => {
    const dir = stateDir();
    let clock = 10_000;
    const { registry } = started(dir, () => clock++);
    const written = Array.from({ length: BACKUP_GENERATIONS + 3 }, () => registry.backup());
    expect(fs.readdirSync(path.join(dir, 'backups')).sort()).toEqual(
      written.slice(-BACKUP_GENERATIONS).map((f) => path.basename(f)).sort(),
    );
    for (const file of written) expect(path.basename(file)).toMatch(/^registry-1-\d+\.db$/);
  });

  it.each(['header', 'last-page'] as const)(
    'quarantines a registry corrupt in its %s and loads the newest valid generation',
    (where) => {
      const dir = stateDir();
      let clock = 1_000;
      const { registry } = started(dir, () => clock);
      registry.insertTab(makeTab('a'));
      registry.insertTab(makeTab('b'));
      const good = registry.backup();
      clock = 2_000;
      registry.insertTab(makeTab('c'));
      const newestButBad = registry.backup();
      for (let i = 0; i < 50; i++) registry.insertTab(makeTab(`filler-${i}`, { cwd: 'x'.repeat(200) }));
      closeAll();

      const file = path.join(dir, 'registry.db');
      corrupt(file, where);
      corrupt(newestButBad, 'header');
      const corruptBytes = fs.readFileSync(file);

      const { registry: recovered, notices } = open(dir, () => 5_000);
      const quarantined = path.join(dir, 'registry.db.corrupt-5000');
      expect(notices).toHaveLength(1);
      expect(notices[0]).toContain(file);
      expect(notices[0]).toContain(quarantined);
      expect(notices[0]).toContain(good);
      expect(fs.readFileSync(quarantined).equals(corruptBytes)).toBe(true);
      expect(recovered.listTabs().map((t) => t.id)).toEqual(['a', 'b']);
      expect(modeOf(file)).toBe(0o600);
    },
  );

  it('blocks start when no valid generation remains, leaving every file as it was', () => {
    const dir = stateDir();
    const { registry } = started(dir);
    registry.insertTab(makeTab('a'));
    const generation = registry.backup();
    closeAll();
    corrupt(path.join(dir, 'registry.db'), 'last-page');
    corrupt(generation, 'last-page');
    const before = snapshotDir(dir);

    let error: unknown;
    try {
      Registry.open({ stateDir: dir });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(RegistryBlockedError);
    expect((error as RegistryBlockedError).code).toBe('registry-blocked');
    expect((error as Error).message).toContain(path.join(dir, 'registry.db'));
    expect((error as Error).message).toMatch(/no valid backup generation remains/);
    expect(snapshotDir(dir)).toEqual(before);
  });

  it('blocks on a corrupt registry with no backups at all', () => {
    const dir = stateDir();
    started(dir).registry.insertTab(makeTab('a'));
    closeAll();
    corrupt(path.join(dir, 'registry.db'), 'header');
    const before = snapshotDir(dir);
    expect(() => Registry.open({ stateDir: dir })).toThrow(RegistryBlockedError);
    expect(snapshotDir(dir)).toEqual(before);
  });

  it('restores a missing registry from a generation, moving a stray WAL aside first', () => {
    const dir = stateDir();
    const { registry } = started(dir, () => 1_000);
    registry.insertTab(makeTab('a'));
    const generation = registry.backup();
    closeAll();
    const file = path.join(dir, 'registry.db');
    fs.rmSync(file);
    fs.writeFileSync(file + '-wal', 'left over from the quarantined registry', { mode: 0o600 });

    const { registry: recovered, notices } = open(dir, () => 7_000);
    expect(notices).toEqual([expect.stringContaining(generation)]);
    expect(notices[0]).toContain('missing');
    expect(fs.readFileSync(path.join(dir, 'registry.db.corrupt-7000-wal'), 'utf8')).toBe(
      'left over from the quarantined registry',
    );
    expect(recovered.listTabs().map((t) => t.id)).toEqual(['a']);
  });

  it('starts fresh with no registry and no generation, moving a stray WAL aside', () => {
    const dir = stateDir();
    fs.writeFileSync(path.join(dir, 'registry.db-wal'), 'orphaned', { mode: 0o600 });
    const { registry, notices } = open(dir, () => 8_000);
    expect(notices).toEqual([]);
    expect(registry.listTabs()).toEqual([]);
    expect(fs.readFileSync(path.join(dir, 'registry.db.corrupt-8000-wal'), 'utf8')).toBe('orphaned');
  });

  it('never moves the epoch backwards when restoring an older generation', () => {
    const dir = stateDir();
    let clock = 1_000;
    const first = started(dir, () => clock++);
    first.registry.backup();
    closeAll();
    const later = started(dir, () => clock++);
    expect(later.registry.startServer(later.lease, SERVER_ID).epoch).toBe(3);
    const newest = later.registry.backup();
    closeAll();
    corrupt(path.join(dir, 'registry.db'), 'header');
    corrupt(newest, 'header');

    const lease = acquire(dir);
    const { registry, notices } = open(dir);
    expect(notices).toHaveLength(1);
    expect(registry.startServer(lease, SERVER_ID).epoch).toBe(4);
  });
});

describe('Registry.openReadOnly', () => {
  let bundleDir: string;
  let bundle: string;
  beforeAll(async () => {
    bundleDir = makeStateDir();
    bundle = await bundleRegistry(bundleDir);
  });
  afterAll(() => fs.rmSync(bundleDir, { recursive: true, force: true }));

  it('returns null when there is no registry yet', () => {
    const dir = stateDir();
    expect(openReadOnly(dir)).toBeNull();
    fs.writeFileSync(path.join(dir, 'registry.db'), '');
    expect(openReadOnly(dir)).toBeNull();
  });

  it('reports an unreadable file with a typed error and changes nothing', () => {
    const dir = stateDir();
    fs.writeFileSync(path.join(dir, 'registry.db'), 'this is not a database at all, just some text'.repeat(100));
    const before = snapshotDir(dir);
    expect(() => openReadOnly(dir)).toThrow(RegistryUnreadableError);
    expect(snapshotDir(dir)).toEqual(before);
  });

  it('reads a consistent registry while another process holds the lease and writes', async () => {
    const dir = stateDir();
    const writer = runChild(
      `
      const { Registry, WriterLease } = await import(process.env.STORE_BUNDLE);
      const template = JSON.parse(process.env.TAB_TEMPLATE);
      const lease = WriterLease.tryAcquire(process.env.STATE_DIR);
      const { registry } = Registry.open({ stateDir: process.env.STATE_DIR });
      registry.startServer(lease, { pid: process.pid, startTime: 'child', bootId: 'boot-child' });
      let n = 0;
      let stop = false;
      process.stdin.on('data', () => { stop = true; });
      const step = () => {
        if (stop) return console.log('stopped ' + registry.revision);
        registry.insertTab({ ...template, id: 'tab-' + n++ });
        if (n === 1) console.log('writing');
        setImmediate(step);
      };
      step();
      setInterval(() => {}, 60_000);
      `,
      { STORE_BUNDLE: bundle, STATE_DIR: dir, TAB_TEMPLATE: JSON.stringify(makeTab('template')) },
    );
    await waitFor(() => writer.lines.includes('writing'), { what: 'the writer to start writing' });

    const seen = new Set<number>();
    let last = 0;
    await waitFor(
      () => {
        const ro = Registry.openReadOnly(dir)!;
        try {
          const revision = ro.revision;
          const tabs = ro.listTabs();
          expect(ro.epoch).toBe(1);
          expect(revision).toBeGreaterThanOrEqual(last);
          // Each insert bumps the revision once, and tabs are read after the revision.
          expect(tabs.length).toBeGreaterThanOrEqual(revision);
          last = revision;
          seen.add(revision);
        } finally {
          ro.close();
        }
        return seen.size >= 5;
      },
      { what: 'five distinct revisions read during writes' },
    );
    expect(fs.existsSync(path.join(dir, 'writer.lock'))).toBe(true);
    expect(WriterLease.tryAcquire(dir)).toBeNull();

    writer.process.stdin!.write('stop\n');
    const stopped = await waitFor(() => writer.lines.find((l) => l.startsWith('stopped ')), { what: 'the writer to stop' });
    const finalRevision = Number(stopped.split(' ')[1]);
    const ro = openReadOnly(dir)!;
    expect(ro.revision).toBe(finalRevision);
    expect(ro.listTabs()).toHaveLength(finalRevision);
    ro.close();

    // A writer killed mid-life leaves its last commits in the WAL; they are the registry's state.
    process.kill(writer.pid, 'SIGKILL');
    await writer.exited;
    expect(fs.existsSync(path.join(dir, 'registry.db-wal'))).toBe(true);
    const lease = await waitFor(() => WriterLease.tryAcquire(dir), { what: 'the dead writer’s lease to be free' });
    closers.push(() => lease.release());
    const { registry, notices } = open(dir);
    expect(notices).toEqual([]);
    expect(registry.listTabs()).toHaveLength(finalRevision);
    expect(registry.startServer(lease, SERVER_ID).epoch).toBe(2);
  });
});
