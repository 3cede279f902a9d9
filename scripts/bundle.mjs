// Bundles the CLI into dist/ with esbuild: one ESM entry plus lazily loaded chunks, so the
// client starts without resolving node_modules (SPEC §8: start-up matters). Bare `a1`, the start
// people feel, is one CommonJS file (dist/attach.cjs): Node 20 loads a single CommonJS file
// in about half the CPU it spends linking the same code as ESM chunks.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const stringWidthShim = path.join(root, 'scripts', 'shims', 'stringWidth.ts');
const msgpackrShim = path.join(root, 'scripts', 'shims', 'msgpackr.ts');

/** a1's own imports of msgpackr get its plain entry, without the native extractor (see the shim). */
const plainMsgpackr = {
  name: 'plain-msgpackr',
  setup(build) {
    build.onResolve({ filter: /^msgpackr$/ }, (args) => (args.importer.includes(`${path.sep}node_modules${path.sep}`) ? undefined : { path: msgpackrShim }));
  },
};

/** a1's own imports of string-width load it on first use (see the shim); packages keep theirs. */
const lazyStringWidth = {
  name: 'lazy-string-width',
  setup(build) {
    build.onResolve({ filter: /^string-width$/ }, (args) =>
      args.importer.includes(`${path.sep}node_modules${path.sep}`) || args.importer === stringWidthShim ? undefined : { path: stringWidthShim },
    );
  },
};

/**
 * yargs lays out help through cliui, which loads string-width, strip-ansi and wrap-ansi as it
 * loads: their Unicode tables cost about 65 ms of every command's start, help or not (a CPU
 * profile of `a1 tabs --json`). yargs and cliui get a stand-in for each that loads the real module
 * on its first call; esbuild turns that require into a synchronous init.
 */
const lazyHelpLayout = {
  name: 'lazy-help-layout',
  setup(build) {
    build.onResolve({ filter: /^(string-width|strip-ansi|wrap-ansi)$/ }, async (args) => {
      if (args.pluginData === 'real' || !/[\\/]node_modules[\\/](cliui|yargs)[\\/]/.test(args.importer)) return undefined;
      const real = await build.resolve(args.path, { importer: args.importer, resolveDir: args.resolveDir, kind: args.kind, pluginData: 'real' });
      if (real.errors.length > 0) return { errors: real.errors };
      return { path: real.path, namespace: 'lazy-help-layout' };
    });
    build.onLoad({ filter: /.*/, namespace: 'lazy-help-layout' }, (args) => ({
      contents: `let real = null;\nexport default function lazy(...a) {\n  real ??= require(${JSON.stringify(args.path)}).default;\n  return real(...a);\n}\n`,
      resolveDir: path.dirname(args.path),
      loader: 'js',
    }));
  },
};

const common = {
  absWorkingDir: root,
  bundle: true,
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  // Native addons load from node_modules; react-devtools-core is an optional Ink import.
  external: ['node-pty', 'better-sqlite3', 'react-devtools-core', 'msgpackr-extract'],
  define: { 'process.env.NODE_ENV': '"production"' },
  // jsonc-parser's default entry is UMD with runtime requires esbuild cannot follow.
  alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
  // Smaller sources parse faster (start-up) and sit in every resident process's heap; names
  // stay, so stacks still read.
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
};

/** attach.cjs leaves Ink (and React) to the ESM build's dist/inkLayer.js, imported on demand. */
const inkLayerOutside = {
  name: 'ink-layer-outside',
  setup(build) {
    build.onResolve({ filter: /\/inkLayer\.js$/ }, () => ({ path: './inkLayer.js', external: true }));
  },
};

await build({
  ...common,
  entryPoints: { attach: 'src/entry/attach.ts' },
  outdir: 'dist',
  outExtension: { '.js': '.cjs' },
  format: 'cjs',
  // import.meta has no CommonJS form: the file's own URL stands in.
  define: { ...common.define, 'import.meta.url': '__a1ModuleUrl' },
  banner: { js: "const __a1ModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
  plugins: [lazyStringWidth, plainMsgpackr, inkLayerOutside],
});

// A holder starts with every new tab and every cold start, the server with every cold start and
// recovery: one CommonJS file each too (a holder's loads in about two thirds of the time its ES
// module chunks took, and is 0.6 MiB smaller per tab).
await build({
  ...common,
  entryPoints: { holder: 'src/holder/entry.ts', server: 'src/server/entry.ts', web: 'src/web/entry.ts' },
  outdir: 'dist',
  outExtension: { '.js': '.cjs' },
  format: 'cjs',
  define: { ...common.define, 'import.meta.url': '__a1ModuleUrl' },
  banner: { js: "const __a1ModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
  plugins: [lazyStringWidth, plainMsgpackr],
});

await build({
  ...common,
  // inkLayer has a fixed name: attach.cjs loads it after its first paint.
  entryPoints: { main: 'src/entry/cli.ts', hook: 'src/cli/hookEntry.ts', inkLayer: 'src/app/inkLayer.ts' },
  outdir: 'dist',
  splitting: true,
  format: 'esm',
  banner: {
    js: "import { createRequire as __a1CreateRequire } from 'node:module'; const require = __a1CreateRequire(import.meta.url);",
  },
  plugins: [lazyHelpLayout, lazyStringWidth, plainMsgpackr],
});

// The `a1 web` page (issue 20): one browser bundle with xterm.js, and its static files, served by
// the web process from dist/web/ (nothing fetched from elsewhere). The page has DOM types, so it
// is checked with its own tsconfig here (the main one leaves it out).
{
  const { execFileSync } = await import('node:child_process');
  const { copyFileSync, mkdirSync } = await import('node:fs');
  const pageDir = path.join(root, 'src', 'web', 'page');
  const webDir = path.join(root, 'dist', 'web');
  execFileSync(process.execPath, [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', path.join(pageDir, 'tsconfig.json')], { stdio: 'inherit' });
  mkdirSync(webDir, { recursive: true });
  await build({
    absWorkingDir: root,
    entryPoints: { app: 'src/web/page/app.ts' },
    outdir: 'dist/web',
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: ['chrome110', 'firefox110', 'safari16'],
    minify: true,
    sourcemap: false,
    legalComments: 'none',
    logLevel: 'warning',
  });
  copyFileSync(path.join(pageDir, 'index.html'), path.join(webDir, 'index.html'));
  copyFileSync(path.join(pageDir, 'app.css'), path.join(webDir, 'app.css'));
  copyFileSync(path.join(root, 'node_modules', '@xterm', 'xterm', 'css', 'xterm.css'), path.join(webDir, 'xterm.css'));
}
