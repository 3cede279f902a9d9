// `npm start`'s freshness decision (scripts/buildStamp.mjs) over temp project folders: built once,
// fresh until an input's contents change, a file is added or removed, or an output is missing; a
// build that fails leaves no stamp.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BUILD_INPUTS, BUILD_OUTPUTS, beginBuild, buildDecision, endBuild, fingerprint, inputFiles, needsBuild, STAMP } from '../../scripts/buildStamp.mjs';

let root: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'a1-stamp-'));
  write('src/a.ts', 'export const a = 1;\n');
  write('src/deep/b.ts', 'export const b = 2;\n');
  write('package.json', '{}\n');
  write('tsconfig.json', '{}\n');
  write('README.md', '# not an input\n');
});
afterEach(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

function write(rel: string, text: string): void {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), text);
}

/** What a successful build does: stamp begins, outputs are written, stamp ends. */
function build(): void {
  beginBuild(root);
  for (const out of BUILD_OUTPUTS) write(out, '// built\n');
  endBuild(root);
}

describe('buildDecision', () => {
  it('builds with no stamp or no outputs, or sources changed; else not', () => {
    expect(buildDecision({ stamp: null, current: 'x', outputsExist: false })).toEqual({ build: true, why: 'first run' });
    expect(buildDecision({ stamp: null, current: 'x', outputsExist: true })).toEqual({ build: true, why: 'sources changed' });
    expect(buildDecision({ stamp: 'x', current: 'x', outputsExist: false })).toEqual({ build: true, why: 'first run' });
    expect(buildDecision({ stamp: 'x', current: 'y', outputsExist: true })).toEqual({ build: true, why: 'sources changed' });
    expect(buildDecision({ stamp: 'x', current: 'x', outputsExist: true })).toEqual({ build: false, why: 'up to date' });
  });
});

describe('needsBuild', () => {
  it('a fresh clone builds once, then is up to date', () => {
    expect(needsBuild(root)).toEqual({ build: true, why: 'first run' });
    build();
    expect(needsBuild(root)).toEqual({ build: false, why: 'up to date' });
  });

  it('a changed, added or removed input makes it stale; a file that is no input does not', () => {
    build();
    write('README.md', '# changed\n');
    expect(needsBuild(root).build).toBe(false);
    write('src/deep/b.ts', 'export const b = 3;\n');
    expect(needsBuild(root)).toEqual({ build: true, why: 'sources changed' });
    build();
    write('src/c.ts', '\n');
    expect(needsBuild(root).why).toBe('sources changed');
    build();
    fs.rmSync(path.join(root, 'src/c.ts'));
    expect(needsBuild(root).why).toBe('sources changed');
    build();
    write('package.json', '{"a": 1}\n');
    expect(needsBuild(root).why).toBe('sources changed');
  });

  it('an input only touched, or restored with an older time, is judged by its contents', () => {
    build();
    const file = path.join(root, 'src/a.ts');
    fs.utimesSync(file, new Date(2001, 0, 1), new Date(2001, 0, 1));
    expect(needsBuild(root).build).toBe(false);
    fs.writeFileSync(file, 'export const a = 9;\n');
    fs.utimesSync(file, new Date(2001, 0, 1), new Date(2001, 0, 1));
    expect(needsBuild(root).build).toBe(true);
  });

  it('a missing output means a build', () => {
    build();
    fs.rmSync(path.join(root, BUILD_OUTPUTS[0]));
    expect(needsBuild(root)).toEqual({ build: true, why: 'first run' });
  });

  it('a build that fails leaves no stamp; an edit during a build leaves the stamp behind it', () => {
    build();
    write('src/a.ts', 'broken(\n');
    beginBuild(root);
    // The build fails here: no endBuild.
    expect(fs.existsSync(path.join(root, STAMP))).toBe(false);
    expect(needsBuild(root).build).toBe(true);
    beginBuild(root);
    write('src/a.ts', 'export const a = 2;\n');
    for (const out of BUILD_OUTPUTS) write(out, '// built\n');
    endBuild(root);
    expect(needsBuild(root)).toEqual({ build: true, why: 'sources changed' });
  });
});

describe('inputFiles', () => {
  it('lists every input file under the inputs, sorted, by contents', () => {
    const lines = inputFiles(root);
    expect(lines.map((l) => l.split(' ')[0])).toEqual(['package.json', 'src/a.ts', 'src/deep/b.ts', 'tsconfig.json']);
    expect(fingerprint(lines)).toBe(fingerprint(inputFiles(root)));
    expect(BUILD_INPUTS).toContain('src');
  });
});
