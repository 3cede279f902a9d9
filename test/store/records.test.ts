import fs from 'node:fs';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { ensurePrivateFile } from '../../src/store/files.js';
import { registryPath } from '../../src/store/layout.js';
import {
  FencedError,
  Registry,
  TabNotFoundError,
  WriterLease,
  type HistoryEntry,
  type HistoryReason,
  type ReadonlyRegistry,
  type ResumeRecord,
} from '../../src/store/registry.js';
import { migrateTo, SCHEMA_VERSION } from '../../src/store/schema.js';
import { makeStateDir, makeTab } from './helpers.js';

const SERVER_ID = { pid: 4242, startTime: '123456', bootId: 'boot-a' };

const dirs: string[] = [];
const closers: (() => void)[] = [];

afterEach(() => {
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

function open(dir: string): Registry {
  const { registry } = Registry.open({ stateDir: dir });
  closers.push(() => registry.close());
  return registry;
}

function openReadOnly(dir: string): ReadonlyRegistry {
  const ro = Registry.openReadOnly(dir);
  if (ro === null) throw new Error('no registry to read');
  closers.push(() => ro.close());
  return ro;
}

/** A registry started as a server would start it, with its own lease. */
function started(dir: string): { registry: Registry; lease: WriterLease } {
  const lease = acquire(dir);
  const registry = open(dir);
  registry.startServer(lease, SERVER_ID);
  return { registry, lease };
}

function record(tabId: string, origin: ResumeRecord['origin'], overrides: Partial<ResumeRecord> = {}): Omit<ResumeRecord, 'id'> {
  return { tabId, agentKind: 'claude', sessionId: `session-${tabId}`, cwd: '/work', name: `tab ${tabId}`, origin, capturedAt: 1_000, command: null, ...overrides };
}

function closed(tabId: string, overrides: Partial<HistoryEntry> = {}): Omit<HistoryEntry, 'id'> {
  return { tabId, name: `tab ${tabId}`, agentKind: 'claude', sessionId: `session-${tabId}`, cwd: '/work', reason: 'closed', at: 9_000, command: null, ...overrides };
}

/** Everything the record and history methods can change, to prove a refused write changed none of it. */
function durableState(registry: Registry): { tabs: unknown[]; records: ResumeRecord[]; history: HistoryEntry[]; revision: number } {
  return { tabs: registry.listTabs(), records: registry.listResumeRecords(), history: registry.listHistory(), revision: registry.revision };
}

/** Writes a registry file as a v1 a1 left it: WAL, schema version 1, one tab, revision 3. */
function writeV1Registry(dir: string): void {
  const file = registryPath(dir);
  ensurePrivateFile(file);
  const db = new Database(file);
  try {
    db.pragma('journal_mode = WAL');
    migrateTo(db, 1);
    db.prepare(
      `INSERT INTO tabs (id, kind, name, name_source, ord, cwd, command, desired, lifecycle, controller_rev, created_at)
       VALUES ('old', 'claude', 'kept', 'user', 0, '/srv', '["claude"]', 'stopped', 'exited', 4, 1700)`,
    ).run();
    db.prepare("UPDATE meta SET value = '3' WHERE key = 'revision'").run();
  } finally {
    db.close();
  }
}

describe('schema v2 migration', () => {
  it('keeps the tabs and revision of a v1 registry and adds records, history and the tab session', () => {
    const dir = stateDir();
    writeV1Registry(dir);
    const file = registryPath(dir);
    const v1 = new Database(file, { readonly: true });
    expect(v1.prepare("SELECT name FROM sqlite_master WHERE name IN ('resume_records', 'history')").all()).toEqual([]);
    v1.close();

    // Read-only access cannot migrate: a v1 file reads as having no records or history yet.
    const ro = openReadOnly(dir);
    expect(ro.listResumeRecords()).toEqual([]);
    expect(ro.listHistory()).toEqual([]);
    expect(ro.listTabs().map((t) => [t.id, t.sessionId])).toEqual([['old', null]]);
    ro.close();

    const { registry } = started(dir);
    expect(SCHEMA_VERSION).toBe(5);
    expect(registry.getMeta('schema_version')).toBe('5');
    expect(registry.revision).toBe(3);
    expect(registry.listTabs()).toEqual([
      {
        ...makeTab('old', { kind: 'claude', name: 'kept', nameSource: 'user', cwd: '/srv', command: ['claude'], desired: 'stopped', lifecycle: 'exited', controllerRev: 4, createdAt: 1700 }),
        ord: 0,
      },
    ]);
    expect(registry.listResumeRecords()).toEqual([]);
    expect(registry.listHistory()).toEqual([]);

    const indexes = new Database(file, { readonly: true });
    const names = indexes.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_%' ORDER BY name").all();
    indexes.close();
    expect(names).toEqual([
      { name: 'history_by_at' },
      { name: 'resume_records_by_tab' },
      { name: 'resume_records_one_per_origin' },
      { name: 'tabs_by_ord' },
    ]);

    registry.updateTab('old', { sessionId: 'sess-1' }, { topology: false });
    expect(registry.getTab('old')?.sessionId).toBe('sess-1');
  });

  it('refuses a step past the newest and leaves a current registry as it is', () => {
    const dir = stateDir();
    started(dir);
    const db = new Database(registryPath(dir));
    try {
      expect(() => migrateTo(db, SCHEMA_VERSION + 1)).toThrow(RangeError);
      migrateTo(db, 1);
      expect(db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get()).toEqual({ value: String(SCHEMA_VERSION) });
    } finally {
      db.close();
    }
  });
});

describe('resume records', () => {
  it('keep the session\'s own argv, and history keeps it too', () => {
    const { registry } = started(stateDir());
    registry.insertTab(makeTab('a'));
    const command = ['node', '/x/agent.mjs', 'with space'];
    registry.putResumeRecord(record('a', 'live', { command }));
    registry.retireTab('a', { revoke: [], history: [closed('a', { command })] });
    expect(registry.listResumeRecords()[0].command).toEqual(command);
    expect(registry.listHistory()[0].command).toEqual(command);
  });

  it('keeps one record per origin per tab, replacing it in place with its id', () => {
    const { registry } = started(stateDir());
    registry.insertTab(makeTab('a'));
    const revision = registry.revision;

    const live = registry.putResumeRecord(record('a', 'live'));
    expect(live).toEqual({ ...record('a', 'live'), id: expect.any(String) });
    const replaced = registry.putResumeRecord({ ...record('a', 'live', { sessionId: 'newer', capturedAt: 2_000 }), id: 'ignored' });
    expect(replaced).toEqual({ ...record('a', 'live', { sessionId: 'newer', capturedAt: 2_000 }), id: live.id });
    const quit = registry.putResumeRecord({ ...record('a', 'quit', { capturedAt: 1_500 }), id: 'quit-a' });
    expect(quit.id).toBe('quit-a');
    // Records outlive tabs (a reboot keeps them), so one needs no tab row.
    const other = registry.putResumeRecord(record('gone', 'sleep', { capturedAt: 500 }));

    expect(registry.listResumeRecords()).toEqual([other, quit, replaced]);
    expect(registry.listResumeRecordsOf('a')).toEqual([quit, replaced]);
    expect(registry.listResumeRecordsOf('nobody')).toEqual([]);
    expect(registry.revision).toBe(revision);
  });

  it('orders records captured at the same time by id', () => {
    const { registry } = started(stateDir());
    registry.putResumeRecord({ ...record('b', 'live'), id: 'y' });
    registry.putResumeRecord({ ...record('a', 'live'), id: 'x' });
    registry.putResumeRecord({ ...record('c', 'live', { capturedAt: 0 }), id: 'z' });
    expect(registry.listResumeRecords().map((r) => r.id)).toEqual(['z', 'x', 'y']);
  });

  it('rejects an origin outside live, quit and sleep', () => {
    const { registry } = started(stateDir());
    expect(() => registry.putResumeRecord(record('a', 'forever' as never))).toThrow(/CHECK constraint/);
    expect(registry.listResumeRecords()).toEqual([]);
  });

  it('deletes records by id and counts only those that existed', () => {
    const { registry } = started(stateDir());
    const a = registry.putResumeRecord(record('a', 'live'));
    const b = registry.putResumeRecord(record('b', 'live'));
    const revision = registry.revision;
    expect(registry.deleteResumeRecords([a.id, a.id, 'missing'])).toBe(1);
    expect(registry.deleteResumeRecords([])).toBe(0);
    expect(registry.listResumeRecords()).toEqual([b]);
    expect(registry.revision).toBe(revision);
  });
});

describe('retireTab', () => {
  it('removes the tab and exactly its listed records, records history, and bumps the revision once', () => {
    const { registry } = started(stateDir());
    registry.insertTab(makeTab('a'));
    registry.insertTab(makeTab('b'));
    const aLive = registry.putResumeRecord(record('a', 'live'));
    const aSleep = registry.putResumeRecord(record('a', 'sleep'));
    const aQuit = registry.putResumeRecord(record('a', 'quit', { capturedAt: 2_000 }));
    const bLive = registry.putResumeRecord(record('b', 'live', { capturedAt: 3_000 }));
    const revision = registry.revision;

    // bLive is listed too, as a stale plan might list it: only the retired tab's records go.
    const after = registry.retireTab('a', { revoke: [aLive.id, aSleep.id, bLive.id], history: [closed('a')] });

    expect(after).toBe(revision + 1);
    expect(registry.revision).toBe(revision + 1);
    expect(registry.listTabs().map((t) => t.id)).toEqual(['b']);
    expect(registry.listResumeRecords()).toEqual([aQuit, bLive]);
    expect(registry.listHistory()).toEqual([{ ...closed('a'), id: expect.any(String) }]);
  });

  it('refuses a tab that is gone, committing nothing', () => {
    const { registry } = started(stateDir());
    registry.insertTab(makeTab('a'));
    const kept = registry.putResumeRecord(record('gone', 'live'));
    const before = durableState(registry);
    expect(() => registry.retireTab('gone', { revoke: [kept.id], history: [closed('gone')] })).toThrow(TabNotFoundError);
    expect(durableState(registry)).toEqual(before);
  });

  it('is atomic: a failing history insert leaves the tab, its records and the revision in place', () => {
    const { registry } = started(stateDir());
    registry.insertTab(makeTab('a'));
    const live = registry.putResumeRecord(record('a', 'live'));
    registry.addHistory(closed('earlier', { at: 1 }));
    const before = durableState(registry);

    const bad = closed('a', { reason: 'vanished' as HistoryReason });
    expect(() => registry.retireTab('a', { revoke: [live.id], history: [closed('a'), bad] })).toThrow(/CHECK constraint/);

    expect(durableState(registry)).toEqual(before);
    expect(registry.retireTab('a', { revoke: [live.id], history: [closed('a')] })).toBe(before.revision + 1);
  });
});

describe('moveAllTabsToHistory', () => {
  it('moves every tab to history in tab order, keeps every record, and bumps the revision once', () => {
    const { registry } = started(stateDir());
    registry.insertTab(makeTab('agent', { kind: 'claude', sessionId: 's-1', name: 'fixing', cwd: '/repo' }));
    registry.insertTab(makeTab('shell'));
    const records = [registry.putResumeRecord(record('agent', 'live')), registry.putResumeRecord(record('agent', 'quit', { capturedAt: 2_000 }))];
    const revision = registry.revision;
    const seen: string[] = [];

    const entries = registry.moveAllTabsToHistory('reboot', 5_000, (tab) => {
      seen.push(tab.id);
      return { agentKind: tab.kind, sessionId: tab.sessionId };
    });

    expect(seen).toEqual(['agent', 'shell']);
    expect(entries).toEqual([
      { id: expect.any(String), tabId: 'agent', name: 'fixing', agentKind: 'claude', sessionId: 's-1', cwd: '/repo', reason: 'reboot', at: 5_000, command: null },
      { id: expect.any(String), tabId: 'shell', name: 'tab shell', agentKind: 'shell', sessionId: null, cwd: '/tmp', reason: 'reboot', at: 5_000, command: null },
    ]);
    expect(registry.listTabs()).toEqual([]);
    expect(registry.listResumeRecords()).toEqual(records);
    expect(registry.revision).toBe(revision + 1);
    // Newest first; entries of one move, all at the same time, come last-written first.
    expect(registry.listHistory()).toEqual([entries[1], entries[0]]);

    expect(registry.moveAllTabsToHistory('reboot', 6_000, () => ({ agentKind: 'x', sessionId: null }))).toEqual([]);
    expect(registry.revision).toBe(revision + 1);
  });

  it('moves nothing when mapping a tab throws', () => {
    const { registry } = started(stateDir());
    registry.insertTab(makeTab('a'));
    registry.insertTab(makeTab('b'));
    const before = durableState(registry);
    expect(() =>
      registry.moveAllTabsToHistory('reboot', 1, (tab) => {
        if (tab.id === 'b') throw new Error('injected');
        return { agentKind: 'shell', sessionId: null };
      }),
    ).toThrow('injected');
    expect(durableState(registry)).toEqual(before);
  });
});

describe('history', () => {
  it('lists newest first, up to a limit, without bumping the revision', () => {
    const { registry } = started(stateDir());
    const revision = registry.revision;
    const first = registry.addHistory(closed('a', { at: 1 }));
    const third = registry.addHistory(closed('c', { at: 3, reason: 'expired', sessionId: null }));
    const second = registry.addHistory(closed('b', { at: 2, reason: 'reboot' }));
    expect(registry.listHistory()).toEqual([third, second, first]);
    expect(registry.listHistory(2)).toEqual([third, second]);
    expect(registry.listHistory(0)).toEqual([]);
    expect(() => registry.listHistory(-1)).toThrow(RangeError);
    expect(new Set([first.id, second.id, third.id]).size).toBe(3);
    expect(registry.revision).toBe(revision);
  });
});

describe('read-only access', () => {
  it('reads records and history beside a live writer, and sees later commits', () => {
    const dir = stateDir();
    const { registry } = started(dir);
    const live = registry.putResumeRecord(record('a', 'live'));
    const entry = registry.addHistory(closed('z'));

    const ro = openReadOnly(dir);
    expect(ro.listResumeRecords()).toEqual([live]);
    expect(ro.listHistory()).toEqual([entry]);

    const later = registry.addHistory(closed('y', { at: 10_000 }));
    registry.deleteResumeRecords([live.id]);
    expect(ro.listHistory(1)).toEqual([later]);
    expect(ro.listResumeRecords()).toEqual([]);
  });
});

describe('fencing', () => {
  it('refuses every record and history write from a superseded epoch, committing nothing', () => {
    const dir = stateDir();
    const lease = acquire(dir);
    const first = open(dir);
    first.startServer(lease, SERVER_ID);
    first.insertTab(makeTab('a'));
    const live = first.putResumeRecord(record('a', 'live'));

    const second = open(dir);
    second.startServer(lease, { ...SERVER_ID, bootId: 'boot-b' });
    const before = durableState(second);

    expect(() => first.putResumeRecord(record('a', 'quit'))).toThrow(FencedError);
    expect(() => first.retireTab('a', { revoke: [live.id], history: [closed('a')] })).toThrow(FencedError);
    expect(() => first.deleteResumeRecords([live.id])).toThrow(FencedError);
    expect(() => first.addHistory(closed('a'))).toThrow(FencedError);
    expect(() => first.moveAllTabsToHistory('reboot', 1, () => ({ agentKind: 'shell', sessionId: null }))).toThrow(FencedError);

    expect(durableState(second)).toEqual(before);
    expect(second.retireTab('a', { revoke: [live.id], history: [closed('a')] })).toBe(before.revision + 1);
  });

  it('refuses record writes once the lease is released', () => {
    const { registry, lease } = started(stateDir());
    registry.insertTab(makeTab('a'));
    lease.release();
    expect(() => registry.putResumeRecord(record('a', 'live'))).toThrow(FencedError);
    expect(() => registry.retireTab('a', { revoke: [], history: [] })).toThrow(FencedError);
    expect(registry.listResumeRecords()).toEqual([]);
    expect(registry.listTabs().map((t) => t.id)).toEqual(['a']);
  });
});
