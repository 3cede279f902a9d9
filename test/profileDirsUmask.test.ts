// Profile directories are created 0700 whatever the umask. Setting the umask is per process
// (a worker thread may not), so these run in the `unit` project, apart from test/paths.test.ts.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensureProfileDirs, resolvePaths } from '../src/paths.js';
import { modeOf, withUmask } from './helpers/fileModes.js';

let tmp: string;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'a1-paths-'));
});
afterEach(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('ensurePrivateDir under a umask', () => {
  it('creates every profile directory 0700 whatever the umask', () => {
    const p = resolvePaths({ env: { A1_HOME: tmp } });
    withUmask(0o700, () => ensureProfileDirs(p));
    for (const dir of [p.stateDir, path.dirname(p.stateDir), p.backupsDir, p.logsDir, p.crashDir, p.recoveryDir, p.runDir]) {
      expect(modeOf(dir)).toBe(0o700);
    }
    // Idempotent.
    ensureProfileDirs(p);
  });

  it('creates missing ordinary ancestors 0700 too', () => {
    const env = { XDG_STATE_HOME: path.join(tmp, 'deep', 'state'), TMPDIR: path.join(tmp, 'run') };
    const p = resolvePaths({ env, home: tmp });
    withUmask(0o022, () => ensureProfileDirs(p));
    expect(modeOf(path.join(tmp, 'deep'))).toBe(0o700);
    expect(modeOf(path.join(tmp, 'deep', 'state'))).toBe(0o700);
    expect(modeOf(path.join(tmp, 'deep', 'state', 'a1'))).toBe(0o700);
    expect(modeOf(path.dirname(p.runDir))).toBe(0o700);
  });
});
