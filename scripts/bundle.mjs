// Bundles the CLI into dist/ with esbuild: one ESM entry plus lazily loaded chunks, so the
// client starts without resolving node_modules (SPEC §8: start-up matters).
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const stringWidthShim = path.join(root, 'scripts', 'shims', 'stringWidth.ts');

/** a1's own imports of string-width load it on first use (see the shim); packages keep theirs. */
const lazyStringWidth = {
  name: 'lazy-string-width',
  setup(build) {
    build.onResolve({ filter: /^string-width$/ }, (args) =>
      args.importer.includes(`${path.sep}node_modules${path.sep}`) || args.importer === stringWidthShim ? undefined : { path: stringWidthShim },
    );
  },
};

await build({
  absWorkingDir: root,
  entryPoints: { main: 'src/cli/entry.ts', holder: 'src/holder/entry.ts', hook: 'src/cli/hookEntry.ts' },
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
  // Smaller sources parse faster (start-up) and sit in every resident process's heap; names
  // stay, so stacks still read.
  minifyWhitespace: true,
  minifySyntax: true,
  plugins: [lazyStringWidth],
  logLevel: 'warning',
});
