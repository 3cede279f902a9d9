// Bundles the CLI into dist/ with esbuild: one ESM entry plus lazily loaded chunks, so the
// client starts without resolving node_modules (SPEC §8: start-up matters).
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

await build({
  absWorkingDir: root,
  entryPoints: { main: 'src/cli/entry.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  // Native addons load from node_modules; react-devtools-core is an optional Ink import.
  external: ['node-pty', 'better-sqlite3', 'react-devtools-core', 'msgpackr-extract'],
  define: { 'process.env.NODE_ENV': '"production"' },
  // jsonc-parser's default entry is UMD with runtime requires esbuild cannot follow.
  alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
  banner: {
    js: "import { createRequire as __a1CreateRequire } from 'node:module'; const require = __a1CreateRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
