// bin/codeCache.js: bare `a1` loads dist/attach.cjs from a V8 code cache. Each load runs in a
// Node of its own, as a start does: the first compiles and writes the cache, the next runs from
// it, and a cache that does not fit (damaged, or the file changed) is compiled past, never run.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const LOADER = path.resolve(__dirname, '../../bin/codeCache.js');
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function bundle(version: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'a1-codecache-'));
  dirs.push(dir);
  // Like attach.cjs: CommonJS that imports an ES module beside it on demand.
  fs.writeFileSync(path.join(dir, 'part.mjs'), `export const part = 'esm part';\n`);
  write(dir, version);
  return dir;
}

function write(dir: string, version: string): void {
  fs.writeFileSync(
    path.join(dir, 'bundle.cjs'),
    `exports.version = ${JSON.stringify(version)};\nexports.load = () => globalThis.a1ImportBesideBundle('./part.mjs');\n`,
  );
}

/** Loads the bundle in a fresh Node; the cache is written at once (not after the client's 3 s). */
function load(dir: string, name = 'bundle.cjs'): { version: string; part: string; fromCache: boolean } {
  const script = `const { loadWithCodeCache } = require(${JSON.stringify(LOADER)});
    const { exports, fromCache } = loadWithCodeCache(${JSON.stringify(path.join(dir, name))}, 0);
    exports.load().then((m) => setTimeout(() => console.log(JSON.stringify({ version: exports.version, part: m.part, fromCache })), 50));`;
  const run = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 20_000 });
  expect(run.status, run.stderr).toBe(0);
  expect(run.stderr).toBe('');
  return JSON.parse(run.stdout);
}

const caches = (dir: string) => (fs.existsSync(path.join(dir, '.v8-cache')) ? fs.readdirSync(path.join(dir, '.v8-cache')) : []);

describe('the code cache of bare a1', () => {
  it('the first start writes it, the next runs from it, and both import the ES module part', () => {
    const dir = bundle('one');
    expect(load(dir)).toEqual({ version: 'one', part: 'esm part', fromCache: false });
    expect(caches(dir)).toHaveLength(1);
    expect(fs.statSync(path.join(dir, '.v8-cache', caches(dir)[0])).mode & 0o777).toBe(0o600);
    expect(load(dir)).toEqual({ version: 'one', part: 'esm part', fromCache: true });
  });

  it('a changed file of the same length is compiled again, and its old cache replaced', () => {
    const dir = bundle('one');
    load(dir);
    const [old] = caches(dir);
    write(dir, 'two');
    expect(load(dir)).toEqual({ version: 'two', part: 'esm part', fromCache: false });
    expect(caches(dir)).not.toContain(old);
    expect(load(dir)).toEqual({ version: 'two', part: 'esm part', fromCache: true });
  });

  it('two files beside each other (attach.cjs, holder.cjs) keep a cache each', () => {
    const dir = bundle('one');
    fs.copyFileSync(path.join(dir, 'bundle.cjs'), path.join(dir, 'other.cjs'));
    load(dir);
    load(dir, 'other.cjs');
    expect(caches(dir)).toHaveLength(2);
    expect(load(dir).fromCache).toBe(true);
    expect(load(dir, 'other.cjs').fromCache).toBe(true);
  });

  it('a damaged cache is not used: the file is compiled and runs as written', () => {
    const dir = bundle('one');
    load(dir);
    const file = path.join(dir, '.v8-cache', caches(dir)[0]);
    const bytes = fs.readFileSync(file);
    bytes.fill(0x5a, 64, 256); // past the digest: V8 itself would run (and crash on) this
    fs.writeFileSync(file, bytes);
    expect(load(dir)).toEqual({ version: 'one', part: 'esm part', fromCache: false });
  });
});
