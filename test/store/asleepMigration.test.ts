// Schema version 5 (issue 29): a sleeping tab is 'asleep' in the registry as everywhere else. A
// file an older a1 wrote, its sleeping tabs 'suspended', opens showing them asleep: read-only
// before any server has migrated it, and after the migration rewrote it.
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { registryPath } from '../../src/store/layout.js';
import { Registry, type TabRow } from '../../src/store/registry.js';
import { ASLEEP_SCHEMA_VERSION, SCHEMA_VERSION } from '../../src/store/schema.js';
import { LIFECYCLES } from '../../src/tabLifecycle.js';
import { RAN, rawState, registryFixture, SLEPT, writeV4Registry } from './v4Registry.js';

const { stateDir, started } = registryFixture();

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
