// `npm start`: runs a1, building it first only when dist/ is missing or was built from other
// sources than those now in the tree (scripts/buildStamp.mjs). A build says so in one line, then
// shows the build's own output and errors; a failed build does not run a stale a1.
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { needsBuild } from './buildStamp.mjs';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

const decision = needsBuild(root);
if (decision.build) {
  process.stderr.write(`building a1 (${decision.why})…\n`);
  const began = Date.now();
  // Under `npm start`, the npm that runs this script; else the one on PATH (npx sets its own).
  const own = process.env.npm_execpath;
  const npm = own && /npm-cli\.[cm]?js$/.test(own) ? [process.execPath, own] : ['npm'];
  const built = spawnSync(npm[0], [...npm.slice(1), 'run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) {
    process.stderr.write('a1 was not built: see the errors above.\n');
    process.exit(built.status ?? 1);
  }
  process.stderr.write(`built a1 in ${Math.round((Date.now() - began) / 1000)} s.\n`);
}

// A child rather than an import: a1 starts its server and tabs from its own entry, bin/a1.
const child = spawn(process.execPath, [path.join(root, 'bin', 'a1'), ...process.argv.slice(2)], { stdio: 'inherit' });
// The terminal's signals reach a1 itself (same process group); this script only waits for it.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT']) process.on(signal, () => {});
child.on('exit', (code, signal) => {
  if (signal) {
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  } else process.exit(code ?? 1);
});
