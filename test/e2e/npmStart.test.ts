// `npm start` (issue 18 deliverable 7): a1 runs at once when dist/ was built from the sources now
// in the tree; otherwise one line says it is building and why, the build's own output follows,
// and a failed build shows its errors and runs nothing. Run with the real npm and the real
// scripts/start.mjs and scripts/buildStamp.mjs, copied into a temp project whose build and a1 are
// stand-ins: the shared dist/ other tests use is never rebuilt.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/pty.js';

let root: string;

const FAKE_BUILD = `
import fs from 'node:fs';
import path from 'node:path';
// Every file the real build makes, as the stamp lists them (a new bundle needs no edit here).
import { BUILD_OUTPUTS } from './scripts/buildStamp.mjs';
if (fs.existsSync('src/broken.ts')) {
  console.log("src/broken.ts(1,7): error TS1005: ';' expected.");
  process.exit(2);
}
for (const f of BUILD_OUTPUTS) {
  fs.mkdirSync(path.dirname(f), { recursive: true });
  fs.writeFileSync(f, '// built\\n');
}
fs.appendFileSync('builds.log', 'built\\n');
console.log('stand-in build output');
`;

const FAKE_A1 = `#!/usr/bin/env node
console.log('a1 ran with ' + JSON.stringify(process.argv.slice(2)));
process.exit(3);
`;

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'a1-npmstart-'));
  fs.mkdirSync(path.join(root, 'scripts'));
  for (const f of ['start.mjs', 'buildStamp.mjs']) fs.copyFileSync(path.join(REPO_ROOT, 'scripts', f), path.join(root, 'scripts', f));
  const real = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'));
  const pkg = {
    name: 'a1-start-test',
    private: true,
    type: 'module',
    // The real start script, and the real build's stamp steps around a stand-in for tsc + esbuild.
    scripts: { start: real.scripts.start, build: real.scripts.build.replace('tsc -p tsconfig.json && node scripts/bundle.mjs', 'node fake-build.mjs') },
  };
  expect(pkg.scripts.build).toBe('node scripts/buildStamp.mjs begin && node fake-build.mjs && node scripts/buildStamp.mjs end');
  fs.writeFileSync(path.join(root, 'package.json'), JSON.stringify(pkg, null, 2));
  fs.writeFileSync(path.join(root, 'fake-build.mjs'), FAKE_BUILD);
  fs.mkdirSync(path.join(root, 'bin'));
  fs.writeFileSync(path.join(root, 'bin', 'a1'), FAKE_A1, { mode: 0o755 });
  fs.mkdirSync(path.join(root, 'src'));
  fs.writeFileSync(path.join(root, 'src', 'a.ts'), 'export const a = 1;\n');
});

afterEach(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

/** `npm start -- ARGS` in the temp project, as a user types it. */
function npmStart(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  // This test's own npm (vitest may run under npx) must not leak into the one `npm start` runs.
  for (const k of Object.keys(env)) if (k.startsWith('npm_')) delete env[k];
  return new Promise((resolve) => {
    execFile('npm', ['start', '--', ...args], { cwd: root, env, timeout: 90_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

function builds(): number {
  try {
    return fs.readFileSync(path.join(root, 'builds.log'), 'utf8').split('\n').filter(Boolean).length;
  } catch {
    return 0;
  }
}

describe('npm start', () => {
  it('builds on the first run and says so, then runs a1 without a build while nothing changed', async () => {
    const first = await npmStart('--version');
    expect(first.stderr).toContain('building a1 (first run)…\n');
    expect(first.stdout).toContain('stand-in build output\n');
    expect(first.stdout).toContain('a1 ran with ["--version"]\n');
    // The build's output comes before a1's.
    expect(first.stdout.indexOf('stand-in build output')).toBeLessThan(first.stdout.indexOf('a1 ran'));
    // a1's exit status is npm start's.
    expect(first.code).toBe(3);
    expect(builds()).toBe(1);

    const second = await npmStart('tabs');
    expect(second.stderr).not.toContain('building');
    expect(second.stdout).not.toContain('stand-in build output');
    expect(second.stdout).toContain('a1 ran with ["tabs"]\n');
    expect(builds()).toBe(1);
  });

  it('builds again when a source changed, and only then', async () => {
    await npmStart();
    expect(builds()).toBe(1);
    fs.writeFileSync(path.join(root, 'src', 'a.ts'), 'export const a = 2;\n');
    const changed = await npmStart();
    expect(changed.stderr).toContain('building a1 (sources changed)…\n');
    expect(changed.stdout).toContain('a1 ran with []\n');
    expect(builds()).toBe(2);
    expect((await npmStart()).stderr).not.toContain('building');
    expect(builds()).toBe(2);
  });

  it('a failed build shows its errors and runs nothing; the next start builds again', async () => {
    await npmStart();
    fs.writeFileSync(path.join(root, 'src', 'broken.ts'), 'const (\n');
    const failed = await npmStart();
    expect(failed.stderr).toContain('building a1 (sources changed)…\n');
    expect(failed.stdout).toContain("src/broken.ts(1,7): error TS1005: ';' expected.");
    expect(failed.stderr).toContain('a1 was not built: see the errors above.\n');
    expect(failed.stdout).not.toContain('a1 ran');
    expect(failed.code).not.toBe(0);
    fs.rmSync(path.join(root, 'src', 'broken.ts'));
    // The failed build took the stamp away: built again even though the sources match the last good build.
    const again = await npmStart();
    expect(again.stderr).toContain('building a1 (sources changed)…\n');
    expect(again.stdout).toContain('a1 ran with []\n');
  });
});
