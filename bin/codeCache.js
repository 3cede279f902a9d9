// Loads a CommonJS file with a V8 code cache beside it (Node 20 has no module compile cache):
// compiling dist/attach.cjs was a sixth of bare `a1`'s start. The cache is keyed by the file's
// content, Node's version and the architecture, since V8 checks little more than the source's
// length; it is written once, from the code the first start compiled, by the first client that
// finds none, and only where dist/ is writable. Any failure falls back to a plain require.
'use strict';
const crypto = require('node:crypto');
const fs = require('node:fs');
const Module = require('node:module');
const path = require('node:path');
const url = require('node:url');
const vm = require('node:vm');

/** By then the client has painted its first screen: the functions compiled for it are in the cache. */
const WRITE_CACHE_AFTER_MS = 3000;

function requireWithCodeCache(file) {
  return loadWithCodeCache(file).exports;
}

/** The file's exports, and whether its code came from the cache (for tests). */
function loadWithCodeCache(file, writeAfterMs = WRITE_CACHE_AFTER_MS) {
  let source;
  try {
    source = fs.readFileSync(file, 'utf8');
  } catch {
    return { exports: require(file), fromCache: false };
  }
  const key = crypto.createHash('sha256').update(source).update(process.version).update(process.arch).digest('hex').slice(0, 16);
  const cacheFile = path.join(path.dirname(file), '.v8-cache', `${path.basename(file)}-${key}.bin`);
  const cachedData = readCache(cacheFile);
  const script = new vm.Script(Module.wrap(source), {
    filename: file,
    cachedData,
  });
  // Code from a cache cannot import() (V8 drops its host options), so the bundle imports its ES
  // module part (Ink) through this, from here (src/app/attach/uiLayers.ts).
  globalThis.a1ImportBesideBundle = (specifier) => import(url.pathToFileURL(path.resolve(path.dirname(file), specifier)).href);
  const mod = { exports: {}, filename: file, id: file, loaded: false };
  script.runInThisContext().call(mod.exports, mod.exports, Module.createRequire(file), mod, file, path.dirname(file));
  mod.loaded = true;
  const fromCache = cachedData !== undefined && !script.cachedDataRejected;
  if (!fromCache) setTimeout(() => writeCache(script, cacheFile), writeAfterMs).unref();
  return { exports: mod.exports, fromCache };
}

/** The file is a SHA-256 of the data, then the data: V8 does not check a cache's integrity (a
 * damaged one crashed Node), so this does, before V8 ever sees it. */
const DIGEST_BYTES = 32;

function readCache(cacheFile) {
  let bytes;
  try {
    bytes = fs.readFileSync(cacheFile);
  } catch {
    return undefined;
  }
  const data = bytes.subarray(DIGEST_BYTES);
  const digest = crypto.createHash('sha256').update(data).digest();
  return bytes.length > DIGEST_BYTES && digest.equals(bytes.subarray(0, DIGEST_BYTES)) ? data : undefined;
}

function writeCache(script, cacheFile) {
  try {
    fs.mkdirSync(path.dirname(cacheFile), { recursive: true, mode: 0o700 });
    // This file's old caches (other builds, other Node versions) are dropped: one per file.
    const prefix = path.basename(cacheFile).replace(/-[0-9a-f]+\.bin$/, '-');
    for (const old of fs.readdirSync(path.dirname(cacheFile))) {
      if (old.startsWith(prefix) && old.endsWith('.bin') && old !== path.basename(cacheFile)) fs.rmSync(path.join(path.dirname(cacheFile), old), { force: true });
    }
    const tmp = `${cacheFile}.${process.pid}.tmp`;
    const data = script.createCachedData();
    fs.writeFileSync(tmp, Buffer.concat([crypto.createHash('sha256').update(data).digest(), data]), { mode: 0o600 });
    fs.renameSync(tmp, cacheFile);
  } catch {
    // Not writable (an installed copy), or full: the next start compiles again, nothing more.
  }
}

module.exports = { requireWithCodeCache, loadWithCodeCache };
