// Whether dist/ was built from the sources as they are now, for `npm start` (scripts/start.mjs):
// `npm run build` records the sources' fingerprint (each file's path and a hash of its contents)
// as it begins, and keeps it as dist/.build-stamp only when the build succeeded. Taken at the start,
// an edit made during a build leaves the stamp behind it; contents, unlike "dist is newer", also
// notice a deleted file or one restored with an older time, and ignore a file only touched
// (hashing the ~2 MB of sources takes milliseconds).
//   node scripts/buildStamp.mjs begin   (first step of the build)
//   node scripts/buildStamp.mjs end     (last step, after success)
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** What the build reads: a change to any of these means dist/ is out of date. Folders whole. */
export const BUILD_INPUTS = ['src', 'scripts/bundle.mjs', 'scripts/shims', 'tsconfig.json', 'package.json', 'package-lock.json'];
/** What bin/a1 loads (attach.cjs then inkLayer.js for bare `a1`); without them there is nothing to run. */
export const BUILD_OUTPUTS = ['dist/main.js', 'dist/attach.cjs', 'dist/inkLayer.js', 'dist/holder.cjs', 'dist/server.cjs', 'dist/web.cjs', 'dist/hook.js', 'dist/web/index.html', 'dist/web/app.js'];
export const STAMP = 'dist/.build-stamp';
const PENDING = 'dist/.build-pending';

/** Each input file under `root` as "path hash", sorted; an input that is absent is left out. */
export function inputFiles(root, inputs = BUILD_INPUTS) {
  const lines = [];
  const visit = (rel) => {
    let st;
    try {
      st = fs.statSync(path.join(root, rel));
    } catch {
      return;
    }
    if (st.isDirectory()) {
      for (const name of fs.readdirSync(path.join(root, rel))) visit(path.posix.join(rel, name));
    } else if (st.isFile()) {
      const hash = crypto.createHash('sha256').update(fs.readFileSync(path.join(root, rel))).digest('hex');
      lines.push(`${rel} ${hash}`);
    }
  };
  for (const input of inputs) visit(input);
  return lines.sort();
}

/** One hash of the input list. */
export function fingerprint(lines) {
  return crypto.createHash('sha256').update(lines.join('\n')).digest('hex');
}

/** Pure: whether to build, and why, from the stamp (null: none), the sources' fingerprint now and
 * whether the outputs exist. */
export function buildDecision({ stamp, current, outputsExist }) {
  if (!outputsExist) return { build: true, why: 'first run' };
  // No stamp beside outputs: the last build failed, or predates stamps; either way not these sources.
  if (stamp !== current) return { build: true, why: 'sources changed' };
  return { build: false, why: 'up to date' };
}

function readStamp(root) {
  try {
    return JSON.parse(fs.readFileSync(path.join(root, STAMP), 'utf8')).fingerprint ?? null;
  } catch {
    return null;
  }
}

/** Whether `root`'s dist/ must be built before a1 runs, and why. */
export function needsBuild(root) {
  return buildDecision({
    stamp: readStamp(root),
    current: fingerprint(inputFiles(root)),
    outputsExist: BUILD_OUTPUTS.every((f) => fs.existsSync(path.join(root, f))),
  });
}

/** The build begins: the old stamp goes (a failed build must not look current), the
 * fingerprint of what it is about to read waits for its success. */
export function beginBuild(root) {
  fs.mkdirSync(path.join(root, 'dist'), { recursive: true });
  fs.rmSync(path.join(root, STAMP), { force: true });
  fs.writeFileSync(path.join(root, PENDING), JSON.stringify({ fingerprint: fingerprint(inputFiles(root)) }) + '\n');
}

/** The build succeeded: what it read is what dist/ holds. */
export function endBuild(root) {
  fs.renameSync(path.join(root, PENDING), path.join(root, STAMP));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
  const step = process.argv[2];
  if (step === 'begin') beginBuild(root);
  else if (step === 'end') endBuild(root);
  else {
    process.stderr.write('usage: node scripts/buildStamp.mjs begin|end\n');
    process.exit(2);
  }
}
