// The schema migration is one transaction (src/store/schema.ts migrateTo): a process SIGKILLed in
// the middle of migrating a version 4 file to 5 leaves the file as version 4 left it, and the next
// open migrates it.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registryPath } from '../../src/store/layout.js';
import { waitFor } from '../helpers/wait.js';
import { bundleRegistry, runChild } from './helpers.js';
import { RAN, rawState, registryFixture, SLEPT, writeV4Registry } from './v4Registry.js';

const SQLITE = createRequire(import.meta.url).resolve('better-sqlite3');
const { stateDir, started } = registryFixture();

describe('schema v5 migration killed mid-way', () => {
  let bundleDir: string;
  let bundle: string;
  beforeAll(async () => {
    bundleDir = fs.mkdtempSync(path.join(os.tmpdir(), 'a1-schema-bundle-'));
    bundle = await bundleRegistry(bundleDir, 'schema.ts');
  });
  afterAll(() => fs.rmSync(bundleDir, { recursive: true, force: true }));

  // The child runs the real migration; a temporary trigger on `meta` (its own connection's only)
  // stops it where the last step has run and the version is being written, inside the
  // transaction, and the test SIGKILLs it there.
  const MIGRATING_CHILD = `
    import fs from 'node:fs';
    import Database from ${JSON.stringify(SQLITE)};
    const { migrate } = await import(process.env.SCHEMA_BUNDLE);
    const db = new Database(process.env.REGISTRY_FILE);
    db.function('stop_here', () => {
      fs.writeSync(1, 'migrated, not committed\\n');
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
      return null;
    });
    db.exec('CREATE TEMP TRIGGER stop_here AFTER INSERT ON main.meta BEGIN SELECT stop_here(); END;');
    migrate(db);
  `;

  it('leaves the version 4 file as it was, and the next open migrates it', async () => {
    const dir = stateDir();
    writeV4Registry(dir);
    const before = rawState(dir);
    const child = runChild(MIGRATING_CHILD, { SCHEMA_BUNDLE: bundle, REGISTRY_FILE: registryPath(dir) });
    await waitFor(() => child.lines.includes('migrated, not committed'), { what: 'the migration to reach its last write' });
    process.kill(child.pid, 'SIGKILL');
    await child.exited;

    expect(rawState(dir)).toEqual(before);
    expect(started(dir).listTabs()).toEqual([SLEPT, RAN]);
    expect(rawState(dir).version).toBe('5');
  });
});
