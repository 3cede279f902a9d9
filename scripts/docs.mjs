// `npm run docs`: renders README.md's generated blocks (src/cli/docs.ts) from the command table
// and CONFIG_KEYS. The TypeScript is bundled on the fly, beside the build in dist/ so that its
// packages resolve from node_modules, and removed again.
import { build } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const outdir = path.join(root, 'dist', `.docs-${process.pid}`);
try {
  // As scripts/bundle.mjs builds the CLI, whose table this reads.
  await build({
    absWorkingDir: root,
    entryPoints: { docs: 'src/cli/docs.ts' },
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    // Lazily loaded modules stay in chunks that are never loaded, as in the CLI's bundle.
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: ['node-pty', 'better-sqlite3', 'react-devtools-core', 'msgpackr-extract'],
    alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
    banner: { js: "import { createRequire as __a1CreateRequire } from 'node:module'; const require = __a1CreateRequire(import.meta.url);" },
    logLevel: 'warning',
  });
  const { renderReadme } = await import(pathToFileURL(path.join(outdir, 'docs.mjs')).href);
  const file = path.join(root, 'README.md');
  const before = fs.readFileSync(file, 'utf8');
  const after = renderReadme(before);
  if (after === before) console.log('README.md is up to date.');
  else {
    fs.writeFileSync(file, after);
    console.log('README.md: generated blocks rewritten.');
  }
} finally {
  fs.rmSync(outdir, { recursive: true, force: true });
}
