// Schema version 5 (issue 29): a sleeping tab is 'asleep' in the registry as everywhere else. A
// file an older a1 wrote, its sleeping tabs 'suspended', opens showing them asleep: read-only
// before any server has migrated it, and after the migration rewrote it.
import fs from 'node:fs';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { registryPath } from '../../src/store/layout.js';
import { Registry, WriterLease, type TabRow } from '../../src/store/registry.js';
import { ASLEEP_SCHEMA_VERSION, SCHEMA_VERSION } from '../../src/store/schema.js';
import { LIFECYCLES } from '../../src/tabLifecycle.js';
import { makeStateDir } from './helpers.js';
import { RAN, rawState, SLEPT, writeV4Registry } from './v4Registry.js';

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

/** Opens the registry as a server does (lease, migration, epoch commit). */
function started(dir: string): Registry {
  const lease = WriterLease.tryAcquire(dir);
  if (lease === null) throw new Error('lease unexpectedly taken');
  closers.push(() => lease.release());
  const { registry } = Registry.open({ stateDir: dir });
  closers.push(() => registry.close());
  registry.startServer(lease, SERVER_ID);
  return registry;
}

describe('schema v5: asleep', () => {
  it('shows a version 4 file’s sleeping tab asleep, read-only before it is migrated and after', () => {
    const dir = stateDir();
    writeV4Registry(dir);
    expect(rawState(dir)).toEqual({ version: '4', lifecycles: [{ id: 'slept', lifecycle: 'suspended' }, { id: 'ran', lifecycle: 'exited' }], check: "'starting', 'running', 'exited', 'failed', 'suspended'" });

    // `a1 tabs` and `a1 sessions` with no server running read the file as it is.
    const ro = Registry.openReadOnly(dir);
    expect(ro?.listTabs()).toEqual([SLEPT, RAN]);
    ro?.close();

    const registry = started(dir);
    expect(SCHEMA_VERSION).toBe(ASLEEP_SCHEMA_VERSION);
    expect(registry.getMeta('schema_version')).toBe(String(ASLEEP_SCHEMA_VERSION));
    expect(registry.revision).toBe(9);
    expect(registry.listTabs()).toEqual([SLEPT, RAN]);
    expect(rawState(dir)).toEqual({ version: '5', lifecycles: [{ id: 'slept', lifecycle: 'asleep' }, { id: 'ran', lifecycle: 'exited' }], check: "'starting', 'running', 'exited', 'failed', 'asleep'" });

    const db = new Database(registryPath(dir), { readonly: true });
    const indexes = db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'tabs' AND name NOT LIKE 'sqlite_%'").all();
    const leftover = db.prepare("SELECT name FROM sqlite_master WHERE name = 'tabs_v5'").all();
    db.close();
    expect(indexes).toEqual([{ name: 'tabs_by_ord' }]);
    expect(leftover).toEqual([]);

    // The column takes every lifecycle of src/tabLifecycle.ts, and the older word no more.
    for (const lifecycle of LIFECYCLES) registry.updateTab('ran', { lifecycle }, { topology: false });
    expect(() => registry.updateTab('ran', { lifecycle: 'suspended' as TabRow['lifecycle'] }, { topology: false })).toThrow(/CHECK/);
  });
});
