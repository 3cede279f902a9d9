// Helpers for the registry tests: a private state directory per test, a tab fixture, a snapshot of
// a directory's files, and child processes that run the real store module (bundled from source by
// esbuild, since node 20 cannot import TypeScript).

import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import fc from 'fast-check';
import type { TabRow } from '../../src/store/registry.js';
import { track } from '../helpers/procs.js';

const REGISTRY_SOURCE = fileURLToPath(new URL('../../src/store/registry.ts', import.meta.url));

export function makeStateDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'a1-store-'));
  fs.chmodSync(dir, 0o700);
  return dir;
}

const nullable = <T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T | null> => fc.option(arb, { nil: null });
const int = fc.integer({ min: 0, max: 2 ** 31 });

/** Any tab the registry must store faithfully. */
export const tabArb: fc.Arbitrary<TabRow> = fc.record({
  id: fc.string(),
  kind: fc.string(),
  sessionId: nullable(fc.string()),
  name: fc.string(),
  nameSource: fc.constantFrom('default', 'user', 'auto'),
  ord: int,
  cwd: fc.string(),
  command: nullable(fc.array(fc.string())),
  desired: fc.constantFrom('running', 'stopped'),
  lifecycle: fc.constantFrom('starting', 'running', 'exited', 'failed', 'asleep'),
  holderPid: nullable(int),
  holderStart: nullable(fc.string()),
  holderInc: nullable(fc.string()),
  childPid: nullable(int),
  childStart: nullable(fc.string()),
  childInc: nullable(fc.string()),
  controllerRev: int,
  lastExit: nullable(fc.record({ code: nullable(fc.integer({ min: -1, max: 255 })), signal: nullable(fc.integer({ min: 1, max: 64 })) })),
  createdAt: fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
  viewedAt: nullable(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER })),
});

export function makeTab(id: string, overrides: Partial<TabRow> = {}): Omit<TabRow, 'ord'> {
  return {
    id,
    kind: 'shell',
    sessionId: null,
    name: `tab ${id}`,
    nameSource: 'default',
    cwd: '/tmp',
    command: null,
    desired: 'running',
    lifecycle: 'starting',
    holderPid: null,
    holderStart: null,
    holderInc: null,
    childPid: null,
    childStart: null,
    childInc: null,
    controllerRev: 0,
    lastExit: null,
    createdAt: 1_700_000_000_000,
    viewedAt: null,
    ...overrides,
  };
}

/** Relative path -> mode and content hash of every file under `dir`, to prove nothing changed. */
export function snapshotDir(dir: string): Record<string, string> {
  const snapshot: Record<string, string> = {};
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const full = path.join(entry.parentPath, entry.name);
    const stat = fs.statSync(full);
    const rel = path.relative(dir, full);
    snapshot[rel] = entry.isDirectory()
      ? `dir ${(stat.mode & 0o777).toString(8)}`
      : `${(stat.mode & 0o777).toString(8)} ${crypto.createHash('sha256').update(fs.readFileSync(full)).digest('hex')}`;
  }
  return snapshot;
}

export { modeOf } from '../helpers/fileModes.js';

/**
 * Bundles src/store/registry.ts (or another module of src/store, by file name) into `outDir` as one
 * ES module. better-sqlite3 stays external, imported by absolute path, because the bundle lives
 * outside the repository's node_modules.
 */
export async function bundleRegistry(outDir: string, storeModule = 'registry.ts'): Promise<string> {
  const outfile = path.join(outDir, `${path.basename(storeModule, '.ts')}.bundle.mjs`);
  const sqlite = createRequire(import.meta.url).resolve('better-sqlite3');
  await esbuild.build({
    entryPoints: [path.join(path.dirname(REGISTRY_SOURCE), storeModule)],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile,
    logLevel: 'silent',
    plugins: [
      {
        name: 'absolute-better-sqlite3',
        setup(build) {
          build.onResolve({ filter: /^better-sqlite3$/ }, () => ({ path: sqlite, external: true }));
        },
      },
    ],
  });
  return outfile;
}

export interface Child {
  process: ChildProcess;
  pid: number;
  /** Every complete line the child has printed on stdout so far (all of them once `exited`). */
  lines: string[];
  exited: Promise<void>;
}

/** Runs `source` as an ES module in a new node process; its pid is tracked for killTracked(). */
export function runChild(source: string, env: Record<string, string>): Child {
  const child = spawn(process.execPath, ['--input-type=module', '-e', source], {
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  if (child.pid === undefined) throw new Error('child process did not start');
  track(child.pid);
  const lines: string[] = [];
  let partial = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    const parts = (partial + chunk).split('\n');
    partial = parts.pop() ?? '';
    lines.push(...parts);
  });
  // 'close', not 'exit': 'exit' can come before the child's last output has been read (libuv
  // reaps every exited child on any SIGCHLD, possibly before reading its pipe), and callers
  // read `lines` once it resolves.
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  return { process: child, pid: child.pid, lines, exited };
}
